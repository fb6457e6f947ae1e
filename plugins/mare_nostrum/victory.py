"""Victory (FR 6; NL/UK 6.1–6.4; PL 6.1–6.3): the Pyramids, the fifth hero or wonder,
four capitals and/or legendary cities, all three titles — each checked when its
edition says.

The Pyramids are a card: its script claims its victory ("claim victory prestige"), and
these rules decide when the claim wins. The fifth hero or wonder is counted here.
"""

from __future__ import annotations

from typing import Any

from mare_nostrum.control import slot_controller
from mare_nostrum.state import Game
from mnrules.core.effects import Event, Trigger
from mnrules.core.engine import Param
from mnrules.hooks.contract import Declaration, EventKind, Part, Quantity
from mnrules.hooks.hookspecs import hookimpl

# What this plugin answers on the bus (see mnrules.hooks.bus).
TRIGGERED_BY = frozenset({"victory_claim", "built"})


@hookimpl
def mn_params() -> list[Param]:
    return [
        Param("build_victory", "timed",
              "when the build victories (the Pyramids, a 5th hero or wonder) are won "
              "(D29/D49)",
              (Param.Option("timed", "the Pyramids win at once; a 5th hero/wonder wins at "
                            "the end of the build phase, the culture leader first among "
                            "several, otherwise shared", "NL/UK 6.1-6.2"),
               Param.Option("leader_priority", "the culture leader who builds either wins "
                            "at once; otherwise those who built the Pyramids, else their "
                            "5th, share the win at the end of the phase",
                            "FR/PL 6.1 read as 'built'"),
               Param.Option("able", "ability is judged at the start of the phase: the "
                            "culture leader, or the only able player, wins at once when "
                            "he builds; otherwise, once an able player has built, all who "
                            "could build the Pyramids share the win, else all who could "
                            "buy their 5th", "FR 3.2/6.1, PL 6.1 (digest Q16)"))),
        Param("fifth_share", "able",
              "under build_victory 'able', when nobody built the Pyramids, who shares the "
              "fifth-tile win (D49)",
              (Param.Option("able", "every player who could buy his 5th at the start of "
                            "the phase", "FR 6.1 'les joueurs pouvant acheter leur "
                            "cinquième HM gagnent à égalité'"),
               Param.Option("built", "only the players who built their 5th",
                            "PL 6.1 'wszyscy gracze, którzy zbudowali swojego 5. "
                            "bohatera'"))),
        Param("conquest_cities", 4,
              "capitals and/or legendary cities controlled or occupied at the end of "
              "Move & Fight to win", minimum=1, maximum=99),
        Param("conquest_kinds", ["capital", "legendary"], "the city kinds that count",
              ("city", "capital", "legendary"), length=(1, 3)),
    ]


def great_cities(game: Game) -> dict[str, int]:
    """Capitals and legendary cities each player controls or occupies."""
    state = game.state
    board = game.rules.board
    kinds = set(game.param("conquest_kinds"))
    out = dict.fromkeys(state.players, 0)
    for prov, built in state.built.items():
        slots = board.provinces[prov].slots
        for i, b in enumerate(built):
            if b and slots[i].kind in kinds:
                who = slot_controller(state, prov, i)
                if who in out:
                    out[who] += 1
    return out


FIFTH = "fifth"
"""The victory of a player who owns as many heroes and wonders as ``max_tiles`` allows."""

SPECIAL_KINDS = ("special wonder",)
"""Card kinds outside the hero/wonder count: a tile of these kinds wins (or not) by its
own script, through a ``victory_claim`` event (the Pyramids: "claim victory prestige")."""


def _claims(game: Game) -> dict[str, list[str]]:
    """This build phase's claims not yet decided: victory path -> claimants, in order."""
    claims: dict[str, list[str]] = game.state.vars.setdefault("victory.build", {})
    return claims


def pending_claims(game: Game) -> dict[str, list[str]]:
    """This build phase's victories by building that wait for the end of the phase:
    victory path -> claimants, in order (a copy)."""
    return {path: list(who) for path, who in
            game.state.vars.get("victory.build", {}).items()}


def wins_alone(game: Game, player: str, path: str) -> bool:
    """Whether a card makes ``player``'s build victory by ``path`` immediate and sole
    (``victory.alone``), whoever else could win too."""
    alone: list[str] = game.fold("victory.alone", [], player=player, path=path)
    return player in alone


def heroes_and_wonders(game: Game, player: str) -> int:
    """The tiles that count toward the fifth hero or wonder (starting hero included)."""
    cards = game.rules.cards
    return sum(1 for t in game.state.tiles[player] if cards[t].kind not in SPECIAL_KINDS)


def claim(game: Game, player: str, path: str) -> None:
    """``player`` has just built what wins by ``path``: decide now or at the end of the phase.

    A card that makes its holder's build victory immediate and sole (``victory.alone``)
    decides at once. Otherwise, under ``timed`` a card's victory (the Pyramids) is
    immediate and the fifth tile waits for the end of the phase; under
    ``leader_priority`` the culture leader wins at once and the others wait.
    """
    state = game.state
    if state.finished:
        return
    if wins_alone(game, player, path):
        game.end([player], path)
        return
    model = game.param("build_victory")
    if model == "timed":
        if path != FIFTH:
            game.end([player], path)
            return
    elif state.titles.get("culture") == player:
        game.end([player], path)
        return
    elif model == "able":
        able = _able(game)
        if [p for p, paths in able.items() if paths] == [player]:
            game.end([player], path)
            return
    waiting = _claims(game).setdefault(path, [])
    if player not in waiting:
        waiting.append(player)


@hookimpl
def mn_triggers(game: Game, event: Event) -> list[Trigger] | None:
    player = event.player
    if event.kind == "victory_claim" and player is not None:
        path = str(event.data["path"])
        return [Trigger("rules:build victory", lambda e: claim(game, player, path))]
    if event.kind != "built" or event.data["action"][0] != "tile" or player is None:
        return None
    if game.rules.cards[event.data["action"][1]].kind in SPECIAL_KINDS:
        return None

    def check(e: Event) -> None:
        if heroes_and_wonders(game, player) >= game.param("max_tiles"):
            claim(game, player, FIFTH)
    return [Trigger("rules:build victory", check)]


def _able(game: Game) -> dict[str, list[str]]:
    able: dict[str, list[str]] = game.state.vars.get("victory.able", {})
    return able


@hookimpl
def mn_phase_start(game: Game, phase: str) -> None:
    """Under ``able``, who could win by building is judged as the build phase starts."""
    if phase != "build" or game.param("build_victory") != "able":
        return
    from mare_nostrum.build import legal_actions

    state = game.state
    cards = game.rules.cards
    able: dict[str, list[str]] = {}
    for p in state.players:
        paths = []
        for action in legal_actions(game, p):
            if action[0] != "tile":
                continue
            card = cards[action[1]]
            if card.kind in SPECIAL_KINDS:
                paths.append(_card_path(game, action[1]))
            elif heroes_and_wonders(game, p) + 1 >= game.param("max_tiles"):
                paths.append(FIFTH)
        able[p] = sorted(set(paths))
    state.vars["victory.able"] = able


def _card_path(game: Game, tile: str) -> str:
    """The victory a special wonder's script claims (read from its compiled words)."""
    effects = game.rules.effects.get(tile)
    if effects is not None:
        for r in effects.rules:
            for _, word, args in r.actions:
                if word.pattern.startswith("claim victory") and args:
                    return str(args[0])
    return tile


@hookimpl
def mn_phase_end(game: Game, phase: str) -> None:
    state = game.state
    if state.finished:
        return
    if phase == "build":
        claims = state.vars.pop("victory.build", None)
        if not claims:
            return
        fifth = claims.pop(FIFTH, [])
        able = state.vars.pop("victory.able", {})
        if game.param("build_victory") == "able":
            # A card's victory (the Pyramids) is shared only once it was built (FR 6.1
            # "Si les Pyramides ne sont pas construites, les joueurs pouvant acheter leur
            # cinquième HM gagnent à égalité"): being able to afford it wins nothing.
            if claims:
                path, built = next(iter(claims.items()))
                game.end([p for p in state.players
                          if path in able.get(p, []) or p in built], path)
            elif fifth:
                if game.param("fifth_share") == "able":
                    winners = [p for p in state.players
                               if FIFTH in able.get(p, []) or p in fifth]
                else:  # PL 6.1 "którzy zbudowali": only those who built it
                    winners = fifth
                game.end(winners, FIFTH)
        elif game.param("build_victory") == "timed":
            if fifth:
                leader = state.titles.get("culture")
                game.end([leader] if leader is not None and leader in fifth else fifth, FIFTH)
        elif claims:  # a card's victory (the Pyramids) before the fifth tile
            path, winners = next(iter(claims.items()))
            game.end(winners, path)
        elif fifth:
            game.end(fifth, FIFTH)
    elif phase == "military":
        need = game.param("conquest_cities")
        winners = [p for p, n in great_cities(game).items() if n >= need]
        if winners:
            game.end(winners, "conquest")
    elif phase == "claims":
        holders = set(state.titles.values())
        if len(holders) == 1 and len(state.titles) == 3:
            game.end(list(holders), "leadership")


@hookimpl
def mn_report(game: Game, player: str) -> dict[str, Any]:
    return {"great_cities": great_cities(game)[player]}


@hookimpl
def mn_contract() -> list[Declaration]:
    """What this plugin folds about a build victory, and the claim a card makes (the
    card words' ``claim victory`` performs it; this plugin decides it)."""
    return [
        Part("victory", "", "How the game is won: by building (a fifth hero or wonder, a "
             "special wonder), by conquest, or by holding all three titles; each checked "
             "when the rules say."),
        Quantity("victory.alone", "victory", "The players whose build victory is "
                 "immediate and sole, whoever else could win too.", "list",
                 (("player", "who has just built what wins"), ("path", "the victory path")),
                 word="victory.alone"),
        EventKind("victory_claim", "victory", "A card makes its holder claim a victory; it "
                  "is decided as a victory by building would be.", True,
                  (("path", "the victory path claimed"),), player="the claimant"),
    ]
