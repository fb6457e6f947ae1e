"""Conquest (FR 4.3–4.6; NL/PL/UK 4.3–4.3.5).

At the end of his turn, a player who alone has units in a province carrying another
player's marker is its conqueror and may pillage one building, occupy buildings (one
legion each) or occupy the marker, which he may later convert into his own. He loses
the status when another player keeps units there after a battle. A capital province's
printed marker can never be occupied or converted.
"""

from __future__ import annotations

from typing import Any

from mare_nostrum import choices
from mare_nostrum.control import capital
from mare_nostrum.geometry import Reach, reachable
from mare_nostrum.state import Game, State, Step
from mare_nostrum.supply import return_building, take
from mnrules.core.effects import Event, Trigger
from mnrules.core.engine import CONTINUE, DONE, Decision, Frame, Param
from mnrules.errors import RuleRef
from mnrules.hooks.contract import DecisionKind, Declaration, EventKind, Part
from mnrules.hooks.hookspecs import hookimpl

R_CONQUEST = RuleRef("conquest", "a conqueror pillages exactly one building, occupies "
                     "buildings with one legion each, or occupies the control marker",
                     "FR 4.3; NL/PL/UK 4.3")
R_MARKER = RuleRef("occupy-marker", "the marker of a capital province cannot be occupied; "
                   "the province must be adjacent to or connected with another of yours",
                   "FR 4.3.3, 4.6; NL/PL/UK 4.3.3, 4.3.5")

# What this plugin answers on the bus (see mnrules.hooks.bus).
TRIGGERED_BY = frozenset({"battle"})


@hookimpl
def mn_params() -> list[Param]:
    return [
        Param("pillage_gains", {"city": ["coin"], "capital": ["coin"], "caravan": ["good"],
                                "legendary": ["coin|legendary"], "temple": [], "market": []},
              "what pillaging each kind of building yields (\"good\" is the caravan's good; "
              "a|b is the conqueror's choice)", length=(0, 9), resources=True),
        Param("conversion_timing", "start_of_later_turn",
              "when an occupied marker is converted to the conqueror's (D41)",
              (Param.Option("start_of_later_turn", "at the start of every later Move & "
                            "Fight turn of the conqueror while his legion stays",
                            "NL/PL 4.3.3"),
               Param.Option("end_of_next_turn", "at the end of the conqueror's Military "
                            "turn of the next round", "FR 4.3.3; UK 4.3.3 and its example"),
               Param.Option("end_of_next_phase", "at the end of the next round's Move & "
                            "Fight phase, after every player's turn",
                            "UK 4.3.3's rule text read without its example"))),
        Param("conversion_fail", "remove_marker",
              "when the conqueror's province is not adjacent/connected at conversion (D43)",
              (Param.Option("remove_marker", "the owner's marker is removed: nobody "
                            "controls the province", "NL/UK Q&A 9"),
               Param.Option("keep", "nothing is replaced: the owner keeps his marker and "
                            "control", "PL Q&A 9; FR 4.3.3 is silent"))),
        Param("occupy_marker_needs_link", True,
              "whether the province must be adjacent/connected to another of the "
              "conqueror's already when he puts his legion on the marker (D42)",
              (Param.Option(True, "yes: when the legion occupies the marker, and again at "
                            "conversion", "NL/PL/UK 4.3.3 opening sentence"),
               Param.Option(False, "no: only at conversion", "FR 4.3.3"))),
    ]


def status(state: State) -> dict[str, dict[str, Any]]:
    """The conquests under way, by province: ``{"player": conqueror, "round": when he
    conquered it, "marker_round": when he occupied its marker}`` (this plugin's
    ``vars["conquest"]``: only its functions write it)."""
    conquests: dict[str, dict[str, Any]] = state.vars.setdefault("conquest", {})
    return conquests


def record_conquest(state: State, province: str, player: str, round: int,
                    marker_round: int | None = None) -> None:
    """Set ``province``'s conquest status (a scenario's position, :mod:`.position`)."""
    info: dict[str, Any] = {"player": player, "round": round}
    if marker_round is not None:
        info["marker_round"] = marker_round
    status(state)[province] = info


def forget_conquests(state: State) -> None:
    """No conquest is under way (an emptied board, :mod:`.position`)."""
    state.vars.pop("conquest", None)


def occupations(state: State, province: str, player: str) -> int:
    n = sum(1 for who in state.occupied[province] if who == player)
    return n + (1 if state.marker_occupier.get(province) == player else 0)


def free_legions(state: State, province: str, player: str) -> int:
    return state.count(province, player, "legion") - occupations(state, province, player)


def release_excess(state: State, province: str, player: str) -> None:
    """Fewer legions than occupations: free buildings (last slot first), the marker last."""
    excess = occupations(state, province, player) - state.count(province, player, "legion")
    occ = state.occupied[province]
    for i in range(len(occ) - 1, -1, -1):
        if excess <= 0:
            return
        if occ[i] == player:
            occ[i] = None
            excess -= 1
    if excess > 0 and state.marker_occupier.get(province) == player:
        del state.marker_occupier[province]


def held_occupations(state: State, province: str, player: str) -> list[tuple[Any, ...]]:
    """What ``player``'s legions occupy in ``province``: ("occupy", slot) for each
    building, ("marker",) for the control marker."""
    out: list[tuple[Any, ...]] = [("occupy", i) for i, who in
                                  enumerate(state.occupied[province]) if who == player]
    if state.marker_occupier.get(province) == player:
        out.append(("marker",))
    return out


def give_up(game: Game, province: str, player: str) -> None:
    """A legion has left ``province``, where ``player`` now occupies more than his
    legions can hold: he chooses which occupation he gives up (``conquest.release``),
    unless what he holds leaves no choice (all of it goes, or all alike)."""
    state = game.state
    excess = occupations(state, province, player) - state.count(province, player, "legion")
    if excess <= 0:
        return
    held = held_occupations(state, province, player)
    slots = game.rules.board.provinces[province].slots
    kinds = {"marker" if o[0] == "marker" else (slots[int(o[1])].kind, slots[int(o[1])].good)
             for o in held}
    if len(held) <= excess or len(kinds) == 1:
        release_excess(state, province, player)
        return
    game.push("conquest.release", player=player, province=province)


def end_occupation(state: State, province: str) -> None:
    """A province at war: nobody's legions occupy anything there any more."""
    occ = state.occupied[province]
    for i in range(len(occ)):
        occ[i] = None
    state.marker_occupier.pop(province, None)
    status(state).pop(province, None)


def tidy(state: State) -> None:
    """Drop conquests whose conqueror has left or shares the province."""
    for prov in list(status(state)):
        who = status(state)[prov]["player"]
        owners = state.unit_owners(prov)
        if owners != [who]:
            if who not in owners:
                for i, o in enumerate(state.occupied[prov]):
                    if o == who:
                        state.occupied[prov][i] = None
                if state.marker_occupier.get(prov) == who:
                    del state.marker_occupier[prov]
                status(state).pop(prov, None)
            else:
                end_occupation(state, prov)


def conquerable(game: Game, player: str) -> list[str]:
    """Provinces where ``player`` is a conqueror now (sole unit owner, another's marker)."""
    state = game.state
    units = state.units
    out = []
    for prov, who in state.control.items():
        if who is None or who == player:
            continue
        here = units.get(prov)   # (unit_owners(prov) == [player], without a list each)
        if here is not None and len(here) == 1 and player in here:
            out.append(prov)
    return out


def linked(game: Game, player: str, province: str, reach: Reach | None = None) -> bool:
    """Whether ``province`` is adjacent to or connected with another province of
    ``player``'s (the condition of occupying and of converting a marker, 4.3.3);
    ``reach``: his :class:`~.geometry.Reach` in this position, if one is at hand."""
    state = game.state
    near = reachable(game, player, province) if reach is None else reach(province)
    return any(state.control.get(p) == player for p in near)


def _replace_marker(state: State, player: str, province: str, owner: str | None) -> None:
    """The marker ``player`` occupies becomes his own: the owner's marker goes back to
    the owner's box, one of ``player``'s leaves his, the conquest is over."""
    state.marker_occupier.pop(province, None)
    if owner is not None:
        state.pieces[owner]["marker"] += 1
    state.pieces[player]["marker"] -= 1
    state.control[province] = player
    status(state).pop(province, None)


def try_convert(game: Game, player: str, province: str) -> None:
    """Replace the occupied marker by the conqueror's own, if the rules allow it now."""
    state = game.state
    info = status(state).get(province)
    if info is None or info["player"] != player or state.marker_occupier.get(province) != player:
        return
    if info.get("marker_round", state.round) >= state.round:
        return  # occupied this round: conversion comes in a later round
    owner = state.control.get(province)
    if not linked(game, player, province):
        if game.param("conversion_fail") == "remove_marker":
            def remove(event: Event) -> None:
                if owner is not None:
                    state.pieces[owner]["marker"] += 1
                state.control[province] = None
                del state.marker_occupier[province]
                status(state).pop(province, None)
            game.perform(Event("conversion_failed", player, {"province": province,
                                                             "from": owner}), remove)
        return
    if state.pieces[player].get("marker", 0) <= 0:
        # None of his markers is left in his box (a hard limit): he cannot convert now.
        # That is no failed link: the owner's marker stays and the legion stays on it.
        return

    game.perform(Event("convert", player, {"province": province, "from": owner}),
                 lambda e: _replace_marker(state, player, province, owner))


def can_convert_now(game: Game, player: str, province: str) -> bool:
    """Whether the marker ``player`` occupies in ``province`` may become his at once (a
    card's conversion): the province is adjacent to or connected with another of his
    (4.3.3, in every edition) and he has a control marker left in his box (a hard
    limit)."""
    state = game.state
    if state.marker_occupier.get(province) != player:
        return False
    if state.pieces[player].get("marker", 0) <= 0:
        return False
    return linked(game, player, province)


def convert_at_once(game: Game, player: str, province: str) -> None:
    """The Queen of Sheba's kind of conversion: the marker ``player`` occupies becomes
    his at once, if :func:`can_convert_now`; the occupying legion goes back to his box."""
    state = game.state
    owner = state.control.get(province)
    if not can_convert_now(game, player, province):
        return

    def convert(event: Event) -> None:
        state.remove_units(province, player, "legion")
        state.pieces[player]["legion"] += 1
        _replace_marker(state, player, province, owner)
    game.perform(Event("convert", player, {"province": province, "from": owner,
                                           "immediate": True}), convert)


def convert_all(game: Game, player: str) -> None:
    for prov in sorted(p for p, who in game.state.marker_occupier.items() if who == player):
        try_convert(game, player, prov)


class Conquest(Step):
    """One conquered province: the conqueror's choice, then its follow-ups."""

    def advance(self, game: Game, frame: Frame) -> Decision | str:
        state = game.state
        player, prov = frame["player"], frame["province"]
        stage = frame.setdefault("stage", "choose")
        if stage == "choose":
            if state.unit_owners(prov) != [player] or state.control.get(prov) in (None, player):
                return DONE
            conquests = status(state)
            if prov not in conquests:   # conquered now, not held since an earlier turn
                if not frame.get("told"):
                    frame["told"] = True
                    done = game.perform(Event("conquest", player, {
                        "province": prov, "from": state.control.get(prov)}), lambda e: None)
                    if done is None:
                        return DONE   # a card cancelled it: no pillage, no occupation
                    if game.interrupted(frame):
                        return CONTINUE   # a card's question first, or the game is over
                conquests[prov] = {"player": player, "round": state.round}
            options = self._options(game, player, prov)
            if len(options) == 1:
                return DONE
            return Decision(player, "conquest.choose",
                            f"{player}: you conquered {prov}: pillage, occupy or pass",
                            tuple(options))
        if stage == "occupy":
            options = [("done",)] + [o for o in self._options(game, player, prov)
                                     if o[0] == "occupy"]
            if len(options) == 1:
                return DONE
            return Decision(player, "conquest.occupy",
                            f"{player}: occupy another building in {prov}?", tuple(options))
        if stage == "gain":
            return Decision(player, "conquest.gain", f"{player}: take one of these",
                            tuple(frame["gain_options"]))
        return DONE

    def _options(self, game: Game, player: str, prov: str) -> list[tuple[Any, ...]]:
        state = game.state
        opts: list[tuple[Any, ...]] = [("pass",)]
        built = state.built[prov]
        opts.extend(("pillage", i) for i, b in enumerate(built) if b)
        if free_legions(state, prov, player) > 0:
            opts.extend(("occupy", i) for i, b in enumerate(built)
                        if b and state.occupied[prov][i] is None)
            if (prov not in (capital(game, p) for p in state.players)
                    and prov not in state.marker_occupier
                    and (not game.param("occupy_marker_needs_link")
                         or linked(game, player, prov))):
                opts.append(("marker",))
        return opts

    def choose(self, game: Game, frame: Frame, choice: Any) -> None:
        state = game.state
        player, prov = frame["player"], frame["province"]
        stage = frame["stage"]
        if stage == "gain":
            take(game, player, str(choice))
            frame["stage"] = "finished"
            return
        kind = choice[0]
        if kind in ("pass", "done"):
            frame["stage"] = "finished"
        elif kind == "pillage":
            self._pillage(game, frame, player, prov, choice.slot)
        elif kind == "occupy":
            i = choice.slot
            game.perform(Event("occupy", player, {"province": prov, "slot": i,
                                                  "from": state.control.get(prov)}),
                         lambda e: state.occupied[prov].__setitem__(i, player))
            frame["stage"] = "occupy"
        elif kind == "marker":
            def occupy_marker(e: Event) -> None:
                state.marker_occupier[prov] = player
                status(state)[prov]["marker_round"] = state.round
            game.perform(Event("occupy_marker", player, {"province": prov,
                                                         "from": state.control.get(prov)}),
                         occupy_marker)
            frame["stage"] = "finished"

    def _pillage(self, game: Game, frame: Frame, player: str, prov: str, i: int) -> None:
        state = game.state
        slot = game.rules.board.provinces[prov].slots[i]
        gains = [slot.good if g == "good" else g
                 for g in game.param("pillage_gains").get(slot.kind, [])]

        def destroy(event: Event) -> None:
            state.built[prov][i] = False
            state.occupied[prov][i] = None
            return_building(state, slot.kind)
            choices = []
            for g in event.data["gains"]:
                if "|" in g:
                    choices.append(g.split("|"))
                else:
                    take(game, player, str(g))
            if choices:
                frame["gain_options"] = choices[0]
                frame["stage"] = "gain"

        frame["stage"] = "finished"
        game.perform(Event("pillage", player, {"province": prov, "slot": i,
                                                "building": slot.kind, "gains": gains,
                                                "from": state.control.get(prov)}),
                     destroy)

    def why_illegal(self, game: Game, frame: Frame, choice: Any) -> tuple[RuleRef | None, str]:
        if isinstance(choice, tuple) and choice and choice[0] == "marker":
            return R_MARKER, f"{frame['province']}: the marker cannot be occupied"
        return R_CONQUEST, "not a conquest option here"


@hookimpl
def mn_triggers(game: Game, event: Event) -> list[Trigger] | None:
    """After a land battle both sides survived, the province is at war: no occupation."""
    if event.kind != "battle" or event.data.get("kind") != "land":
        return None
    area = event.data["area"]

    def at_war(e: Event) -> None:
        if len(game.state.unit_owners(area)) > 1:
            end_occupation(game.state, area)
    return [Trigger("rules:at war", at_war)]


class Release(Step):
    """Frame ``{player, province}``: a legion of his has left, and he gives up one
    occupation at a time until his legions there hold the rest."""

    def advance(self, game: Game, frame: Frame) -> Decision | str:
        state = game.state
        player, prov = frame["player"], frame["province"]
        if occupations(state, prov, player) <= state.count(prov, player, "legion"):
            return DONE
        return Decision(player, "conquest.release", f"{player}: a legion has left {prov}: "
                        f"which occupation do you give up?",
                        tuple(held_occupations(state, prov, player)))

    def choose(self, game: Game, frame: Frame, choice: Any) -> None:
        state = game.state
        prov = frame["province"]
        if choice[0] == "marker":
            state.marker_occupier.pop(prov, None)
        else:
            state.occupied[prov][int(choice[1])] = None

    def why_illegal(self, game: Game, frame: Frame, choice: Any) -> tuple[RuleRef | None, str]:
        return RuleRef("occupation-release", "a legion occupies one building or the control "
                       "marker; when one leaves, its player gives up an occupation of his "
                       "choice", "FR 4.3; NL/PL/UK 4.3"), \
            f"{choice!r} is not something his legions occupy there"


@hookimpl
def mn_steps() -> dict[str, Step]:
    return {"conquest": Conquest(), "conquest.release": Release()}


@hookimpl
def mn_contract() -> list[Declaration]:
    """What a conqueror decides and the events of a conquest."""
    where = ("province", "the conquered province")
    owner = ("from", "the province's owner, whose marker is there (none if neutral)")
    return [
        Part("conquest", "military", "What a victorious army does in an enemy province: "
             "pillage a building, occupy buildings or the control marker, and convert the "
             "marker in a later turn."),
        DecisionKind("conquest.choose", "conquest", "A player alone with his units in "
                     "another player's province pillages a building, occupies one or the "
                     "control marker, or passes.",
                     choices=choices.CONQUEST),
        DecisionKind("conquest.occupy", "conquest", "A player who occupied a building "
                     "occupies another there with a further legion, or stops.",
                     choices=choices.CONQUEST),
        DecisionKind("conquest.gain", "conquest", "A player who pillaged takes one of the "
                     "gains the building offers as a choice."),
        DecisionKind("conquest.release", "conquest", "A player one of whose occupying "
                     "legions has left gives up the occupation of his choice (a building "
                     "or the control marker).", choices=choices.CONQUEST),
        EventKind("conquest", "conquest", "A player conquers a province: after his "
                  "battles his units alone stand in another player's province, which was "
                  "not already his conquest; then he may pillage or occupy (cancelled, he "
                  "may do neither this turn).", True, (where, owner),
                  player="the conqueror", word="conquest"),
        EventKind("pillage", "conquest", "A player destroys a building he conquered and "
                  "takes its gains.", True,
                  (where, ("slot", "the building's slot"), ("building", "its kind"),
                   ("gains", "what he takes: resource keys, 'a|b' for a choice of two"),
                   owner),
                  player="the conqueror", word="pillage"),
        EventKind("occupy", "conquest", "A player puts a legion on a building in a province "
                  "he conquered.", True, (where, ("slot", "the building's slot"), owner),
                  player="the conqueror", word="occupy"),
        EventKind("occupy_marker", "conquest", "A player puts a legion on another player's "
                  "control marker, to replace it by his own in a later turn.", True,
                  (where, owner), player="the conqueror", word="occupy.marker"),
        EventKind("convert", "conquest", "A player replaces the control marker he occupies "
                  "by his own: the province becomes his.", True,
                  (where, ("from", "the province's former owner"),
                   ("immediate", "true when a card converts at once")),
                  player="the new owner", word="convert"),
        EventKind("conversion_failed", "conquest", "An occupied marker cannot be converted "
                  "because the province is no longer linked to another of the occupier's: "
                  "the marker is removed and nobody controls the province.", True,
                  (where, ("from", "the owner whose marker is removed")),
                  player="the occupier"),
    ]
