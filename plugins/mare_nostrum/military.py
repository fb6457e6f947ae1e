"""Phase 4 — Move & Fight (FR 4–4.6; NL/PL/UK 4–4.3.5).

The military leader names the players one at a time. On his turn a player moves
triremes (each at most once, to an adjacent sea), may fight one naval battle per sea,
moves legions (each at most once, to an adjacent province or one connected by his own
trireme chain as it stands after the naval battles), then must fight a land battle in
every province where his legions meet another player's units, and finally resolves
his conquests.
"""

from __future__ import annotations

from typing import Any

from mare_nostrum import choices
from mare_nostrum.conquest import convert_all, give_up, release_excess, tidy
from mare_nostrum.geometry import Reach, farther, seas_within
from mare_nostrum.state import Game, State, Step
from mnrules.core.effects import Event
from mnrules.core.engine import CONTINUE, DONE, Decision, Frame
from mnrules.errors import MnrulesError, PackError, RuleRef
from mnrules.hooks.contract import DecisionKind, Declaration, EventKind, Part, Quantity
from mnrules.hooks.hookspecs import hookimpl

R_MOVE_SEA = RuleRef("trireme-move", "a trireme moves at most once, to an adjacent sea",
                     "FR 4.1.1; NL/PL/UK 4.1.1")
R_MOVE_LAND = RuleRef("legion-move", "a legion moves at most once, to an adjacent province "
                      "or one connected by a chain of your triremes", "FR 4.1.2; NL/PL/UK 4.1.2")
R_BATTLE = RuleRef("battle", "one battle per province or sea per turn, against one opponent "
                   "present; land battles are mandatory", "FR 4.2; NL/PL/UK 4.2, Q&A")
R_ORDER = RuleRef("move-fight-order", "a turn runs in this order: trireme moves, naval "
                  "battles, legion moves, land battles", "FR 4.1-4.2; NL/PL/UK 4.1-4.2")


def placed(state: State, player: str, kind: str) -> dict[str, int]:
    """Where ``player`` has units of ``kind``, and how many (one pass over the units,
    for a listing that would otherwise ask of every area)."""
    out: dict[str, int] = {}
    for area, owners in state.units.items():
        here = owners.get(player)
        if here is not None:
            n = here.get(kind, 0)
            if n:
                out[area] = n
    return out


def legions_and_fleet(state: State, player: str) -> tuple[dict[str, int], list[str]]:
    """:func:`placed` legions and :func:`.geometry.fleet_seas` of ``player``, in one pass
    over the units (a legion listing asks both)."""
    legions: dict[str, int] = {}
    fleet: list[str] = []
    for area, owners in state.units.items():
        here = owners.get(player)
        if here is not None:
            n = here.get("legion", 0)
            if n:
                legions[area] = n
            if "trireme" in here:
                fleet.append(area)
    return legions, fleet


class Military(Step):
    """The phase: the military leader names who acts next."""

    def advance(self, game: Game, frame: Frame) -> Decision | str:
        state = game.state
        done = frame.setdefault("done", [])
        left = [p for p in state.players if p not in done]
        if not left:
            if game.param("conversion_timing") == "end_of_next_phase":
                for p in state.players:
                    convert_all(game, p)
            return DONE
        if len(left) == 1:
            self.choose(game, frame, left[0])
            return CONTINUE
        leader = state.titles.get("military", state.players[0])
        return Decision(leader, "military.next", f"{leader}: who moves and fights next?",
                        tuple(left))

    def choose(self, game: Game, frame: Frame, choice: Any) -> None:
        frame["done"].append(choice)
        game.push("military.turn", player=choice, stage="start", arrived={}, fought=[])

    def why_illegal(self, game: Game, frame: Frame, choice: Any) -> tuple[RuleRef | None, str]:
        return RuleRef("military-order", "the military leader names who moves and fights "
                       "next; each player has one turn a round", "FR 4; NL/PL/UK 4"), \
            f"{choice!r} is not a player who has yet to move and fight"


class MilitaryTurn(Step):
    def advance(self, game: Game, frame: Frame) -> Decision | str:
        state = game.state
        player = frame["player"]
        stage = frame["stage"]
        if stage == "start":
            if game.param("conversion_timing") == "start_of_later_turn":
                convert_all(game, player)
            frame["stage"] = stage = "triremes"
        if stage == "triremes":
            options = (("done",), *self._trireme_moves(game, frame))
            if len(options) > 1:
                return Decision(player, "military.trireme", f"{player}: move a trireme or "
                                "end trireme moves", options)
            frame["stage"] = stage = "naval"
            frame["arrived"] = {}
        if stage == "naval":
            options = (("done",), *self._battles(game, frame, "sea"))
            if len(options) > 1:
                return Decision(player, "military.naval", f"{player}: start a naval battle?",
                                options)
            frame["stage"] = stage = "legions"
        if stage == "legions":
            options = (("done",), *self._legion_moves(game, frame))
            if len(options) > 1:
                return Decision(player, "military.legion", f"{player}: move a legion or end "
                                "legion moves", options)
            frame["stage"] = stage = "land"
        if stage == "land":
            battles = self._battles(game, frame, "land")
            if battles:
                if len(battles) == 1:
                    self.choose(game, frame, choices.Fight._make(battles[0]))
                    return CONTINUE
                return Decision(player, "military.land", f"{player}: fight the next land "
                                "battle (all are mandatory)", tuple(battles))
            frame["stage"] = "conquest"
            tidy(state)
            if game.param("conversion_timing") == "end_of_next_turn":
                frame["convert_at_end"] = True
            from mare_nostrum.conquest import conquerable
            provs = sorted(conquerable(game, player))
            if provs:
                game.push_all(("conquest", {"player": player, "province": p}) for p in provs)
                return CONTINUE
        if frame.get("convert_at_end"):
            convert_all(game, player)
        tidy(state)
        game.emit(Event("military_turn_end", player))
        return DONE

    def choose(self, game: Game, frame: Frame, choice: Any) -> None:
        state = game.state
        player = frame["player"]
        stage = frame["stage"]
        if choice == ("done",):
            frame["stage"] = {"triremes": "naval", "naval": "legions",
                              "legions": "land"}[stage]
            frame["arrived"] = {}
            return
        if isinstance(choice, choices.Move):
            kind = "trireme" if stage == "triremes" else "legion"
            src, dst = choice.origin, choice.to

            def move(ev: Event) -> None:
                state.remove_units(src, player, kind)
                if kind == "legion":
                    give_up(game, src, player)
                state.add_units(dst, player, kind)
                frame["arrived"][dst] = frame["arrived"].get(dst, 0) + 1
            # performed, so a card may react to a move ('after move when ...'): "here"
            # is where the unit went
            done = game.perform(Event("move", player, {"kind": kind, "from": src, "to": dst,
                                                       "area": dst, "unit": kind}), move)
            if done is None:
                # a card cancelled it ('replace move: cancel it'): the unit stays, its
                # move spent, so the same move is not offered again and again
                frame["arrived"][src] = frame["arrived"].get(src, 0) + 1
        elif isinstance(choice, choices.Fight):
            area, enemy = choice.area, choice.opponent
            frame["fought"].append(area)
            game.push("battle", area=area, kind="sea" if stage == "naval" else "land",
                      attacker=player, defender=enemy)

    def _trireme_moves(self, game: Game, frame: Frame) -> list[tuple[Any, ...]]:
        state = game.state
        board = game.rules.board
        player = frame["player"]
        out: list[tuple[Any, ...]] = []
        steps: int = game.fold("move.trireme_range", 1, player=player)
        # his triremes read sea by sea (a handful), not through placed's pass over
        # every area holding units: the moves are from the seas alone
        units = state.units
        arrived = frame["arrived"]
        for sea in board.seas:
            owners = units.get(sea)
            if owners is None:
                continue
            here = owners.get(player)
            if here is None:
                continue
            n = here.get("trireme", 0) - arrived.get(sea, 0)
            if n > 0:
                if steps == 1:
                    out += [("move", sea, nxt) for nxt in board.seas[sea].neighbours]
                else:
                    out.extend(("move", sea, nxt) for nxt in sorted(seas_within(board, [sea],
                                                                             steps) - {sea}))
        return out

    def _legion_moves(self, game: Game, frame: Frame) -> list[tuple[Any, ...]]:
        state = game.state
        player = frame["player"]
        out: list[tuple[Any, ...]] = []
        units = state.units
        # his fleet read sea by sea (a handful of seas; a trireme stands only at sea),
        # his legions province by province below (legions_and_fleet's pass over every
        # area, then a look-up per province, in one)
        fleet: list[str] = []
        for sea in game.rules.board.seas:
            owners = units.get(sea)
            if owners is not None:
                here = owners.get(player)
                if here is not None and "trireme" in here:
                    fleet.append(sea)
        reach = Reach(game, player, fleet)
        # how far a legion goes: steps of reach, and seas crossed without triremes
        steps: int = game.fold("move.range", 1, player=player)
        crossing: int = game.fold("move.sea_crossing", 0, player=player)
        arrived = frame["arrived"]
        for prov in state.built:
            # occupying legions may move too (they leave what they occupy)
            owners = units.get(prov)
            if owners is None:
                continue
            here = owners.get(player)
            if here is None:
                continue
            n = here.get("legion", 0)
            if not n:   # (most provinces; none of his legions, so none to move)
                continue
            movable = n - arrived.get(prov, 0)
            if movable <= 0:
                continue
            # a copy: the fold's modifiers get a set of their own
            dests = set(reach(prov)) if steps == 1 and not crossing else \
                farther(game, reach, prov, steps, crossing)
            allowed = game.fold("move.destinations", dests, player=player, origin=prov)
            out += [("move", prov, d) for d in sorted(allowed)]
        return out

    def _battles(self, game: Game, frame: Frame, kind: str) -> list[tuple[Any, ...]]:
        state = game.state
        player = frame["player"]
        unit = "trireme" if kind == "sea" else "legion"
        areas = game.rules.board.seas if kind == "sea" else state.built
        out: list[tuple[Any, ...]] = []
        units = state.units
        fought = frame["fought"]
        # each area's units read as it is reached (placed's pass over every area, then
        # a look-up per area, in one); an area of his alone holds no battle
        for area in areas:
            owners = units.get(area)
            if owners is None or len(owners) < 2:
                continue
            here = owners.get(player)
            if here is None or not here.get(unit, 0) or area in fought:
                continue
            for enemy, theirs in list(owners.items()):
                if enemy == player:
                    continue
                if kind == "sea" and not theirs.get("trireme"):
                    continue
                if game.fold("battle.allowed", True, area=area, attacker=player,
                             defender=enemy):
                    out.append(("battle", area, enemy))
        return out

    def why_illegal(self, game: Game, frame: Frame, choice: Any) -> tuple[RuleRef | None, str]:
        stage = frame["stage"]
        out_of_order = self._out_of_order(game, stage, choice)
        if out_of_order:
            return R_ORDER, out_of_order
        if stage == "triremes":
            return R_MOVE_SEA, f"{choice!r} is not a trireme move {frame['player']} may make"
        if stage == "legions":
            return R_MOVE_LAND, f"{choice!r} is not a legion move {frame['player']} may make"
        return R_BATTLE, f"{choice!r} is not a battle {frame['player']} may fight now"

    @staticmethod
    def _out_of_order(game: Game, stage: str, choice: Any) -> str:
        """Why a move or battle of another stage of the turn cannot be made now ("" if it
        belongs to this stage)."""
        if not (isinstance(choice, tuple) and len(choice) == 3
                and choice[0] in ("move", "battle") and isinstance(choice[1], str)):
            return ""
        now = {"triremes": 0, "naval": 1, "legions": 2, "land": 3}.get(stage)
        if now is None:
            return ""
        at_sea = choice[1] in game.rules.board.seas
        then = {("move", True): 0, ("battle", True): 1, ("move", False): 2,
                ("battle", False): 3}[(choice[0], at_sea)]
        names = ("trireme moves", "naval battles", "legion moves", "land battles")
        if then < now:
            return f"the {names[then]} are over: this turn has reached its {names[now]}"
        if then > now:
            return f"{names[then]} come after the {names[now]}"
        return ""


class Battle(Step):
    """One battle: both sides roll at once, then each chooses its losses."""

    def advance(self, game: Game, frame: Frame) -> Decision | str:
        state = game.state
        area = frame["area"]
        if not frame.get("started"):
            # before the dice: what reacts to the battle's start (a card's question) runs
            # first, on top of this frame
            frame["started"] = True
            depth = len(state.stack)
            game.perform(Event("battle_start", frame["attacker"],
                               {"area": area, "kind": frame["kind"],
                                "attacker": frame["attacker"],
                                "defender": frame["defender"]}), lambda e: None)
            if len(state.stack) != depth:
                return CONTINUE
        if "losses" not in frame:
            depth = len(state.stack)
            self._roll(game, frame)
            if len(state.stack) != depth:   # a card reacts to the roll first
                return CONTINUE
        for who in (frame["attacker"], frame["defender"]):
            left = frame["losses"][who]
            if left <= 0:
                continue
            kinds = [k for k in ("legion", "fortress", "trireme") if state.count(area, who, k)]
            if not kinds:
                frame["losses"][who] = 0
                continue
            if len(kinds) > 1:
                return Decision(who, "battle.loss", f"{who}: choose a unit lost in {area} "
                                f"({left} to go)", tuple(kinds))
            self._lose(game, frame, who, kinds[0])
            return CONTINUE
        game.perform(Event("battle", frame["attacker"],
                           {"area": area, "kind": frame["kind"],
                            "defender": frame["defender"], "units": frame.get("units", {}),
                            "rolls": frame["rolls"], "hits": frame["hits"]}),
                     lambda e: None)
        return DONE

    def choose(self, game: Game, frame: Frame, choice: Any) -> None:
        who = next(p for p in (frame["attacker"], frame["defender"])
                   if frame["losses"][p] > 0)
        self._lose(game, frame, who, choice)

    def why_illegal(self, game: Game, frame: Frame, choice: Any) -> tuple[RuleRef | None, str]:
        return RuleRef("battle-losses", "each side loses one unit per hit it takes, of its "
                       "units in the battle, chosen by its owner", "FR 4.2; NL/PL/UK 4.2"), \
            f"{choice!r} is not a kind of unit this player has in {frame.get('area')}"

    @staticmethod
    def _lose(game: Game, frame: Frame, who: str, kind: str) -> None:
        """One hit taken: a unit lost, as an event a card may replace (a unit that
        survives 'instead of being lost' spends the hit all the same)."""
        frame["losses"][who] -= 1
        area = frame["area"]
        game.perform(Event("unit_lost", who, {"area": area, "kind": frame["kind"],
                                              "unit": kind, "attacker": frame["attacker"],
                                              "defender": frame["defender"]}),
                     lambda e: _remove_unit(game.state, area, who, kind))

    @staticmethod
    def _roll(game: Game, frame: Frame) -> None:
        """Both sides roll, as the battle plugin says (``mn_battle_roll``, through the
        bus: a variant's battle plugin rolls every battle); each loses a unit per hit
        scored against it, at most the units it has there."""
        state = game.state
        att, dfd = frame["attacker"], frame["defender"]
        battle = {"area": frame["area"], "kind": frame["kind"],
                  "attacker": att, "defender": dfd}
        rolled = game.rules.pm.first("mn_battle_roll", game=game, battle=battle)
        if rolled is None:
            raise MnrulesError("no plugin rolls battles (mn_battle_roll): the pack's plugins "
                             "need 'battle' or a plugin that replaces it")
        scored = rolled["hits"]
        units = {p: sum(state.units.get(frame["area"], {}).get(p, {}).values())
                 for p in (att, dfd)}
        frame["units"] = units
        frame["rolls"] = rolled["rolls"]
        frame["hits"] = scored
        frame["losses"] = {att: min(scored[dfd], units[att]),
                           dfd: min(scored[att], units[dfd])}
        # performed as the dice fall, the board as the rolls were folded: what a limited
        # card (once per round +6) reads to know it was used
        game.perform(Event("battle_roll", att, {"area": frame["area"], "kind": frame["kind"],
                                                "defender": dfd, "rolls": rolled["rolls"],
                                                "hits": scored}), lambda e: None)


def _remove_unit(state: State, area: str, who: str, kind: str) -> None:
    state.remove_units(area, who, kind)
    state.pieces[who][kind] += 1
    if kind == "legion" and area in state.built:
        release_excess(state, area, who)


@hookimpl
def mn_steps() -> dict[str, Step]:
    return {"military": Military(), "military.turn": MilitaryTurn(), "battle": Battle()}


@hookimpl
def mn_check_pack(rules: Any, source: Any) -> None:
    """The battle step has its battles rolled by another plugin (``mn_battle_roll``): a
    pack without one is refused when it is read, not at its first battle."""
    caller = getattr(rules.hook, "mn_battle_roll", None)
    if caller is None or not caller.get_hookimpls():
        raise PackError(f"{source.where('plugins')}: plugins: the military plugin's battles "
                        f"are rolled by a plugin answering mn_battle_roll: 'battle', or a "
                        f"plugin that replaces it")


BATTLE_CONTEXT = (("battle", "the battle: its area, kind (land or sea), attacker and "
                             "defender"),
                  ("side", "the player whose roll it is"),
                  ("units", "his units of the battle's kind in the area"))


@hookimpl
def mn_contract() -> list[Declaration]:
    """What this plugin folds (where units may go, who may fight, each side's roll:
    through plugins/battle.py's side_for), its decisions and its events."""
    dice = (*BATTLE_CONTEXT, ("dice", "the dice he rolls (battle.dice, folded)"))
    return [
        Part("military", "military", "Phase 4: in the order the military leader names, "
             "each player moves triremes, fights naval battles, moves legions, fights every "
             "land battle, then conquers."),
        DecisionKind("military.next", "military", "The military leader names who moves "
                     "and fights next."),
        DecisionKind("military.trireme", "military", "The active player moves a trireme "
                     "or ends his trireme moves.",
                     choices=choices.MOVES),
        DecisionKind("military.naval", "military", "The active player starts a naval "
                     "battle or fights no more at sea.",
                     choices=choices.BATTLES),
        DecisionKind("military.legion", "military", "The active player moves a legion or "
                     "ends his legion moves.",
                     choices=choices.MOVES),
        DecisionKind("military.land", "military", "The active player chooses which of his "
                     "land battles (all mandatory) he fights next.",
                     choices=choices.BATTLES),
        DecisionKind("battle.loss", "military", "A player who must lose a unit in a battle "
                     "chooses which kind he loses."),
        Quantity("move.destinations", "military", "The provinces a player's legion may "
                 "move to from a province: its neighbours and those his fleets connect.",
                 "set", (("player", "who moves"), ("origin", "the province it leaves"))),
        Quantity("move.range", "military", "How many steps a legion may make in one move, "
                 "each to an adjacent province or one his fleets connect (1 in the "
                 "rules).", "int", (("player", "who moves"),), subject="player",
                 word="legion.range"),
        Quantity("move.sea_crossing", "military", "How many seas a legion may cross in one "
                 "move without triremes, to a province on their shores (0 in the rules).",
                 "int", (("player", "who moves"),), subject="player", word="sea.crossing"),
        Quantity("move.trireme_range", "military", "How many seas a trireme may move in "
                 "one move (1 in the rules: to an adjacent sea).", "int",
                 (("player", "who moves"),), subject="player", word="trireme.range"),
        Quantity("battle.allowed", "military", "Whether a player may start a battle "
                 "against another player's units in an area.", "flag",
                 (("area", "the province or sea"), ("attacker", "who would start it"),
                  ("defender", "whose units he would fight"))),
        Quantity("battle.dice", "military", "The dice a side rolls in a battle: one per "
                 "unit of the battle's kind (legions on land, triremes at sea).", "int",
                 BATTLE_CONTEXT, subject="side", word="battle.dice"),
        Quantity("battle.total", "military", "What a side adds to its dice total before "
                 "the total is divided into hits.", "int", dice, subject="side",
                 word="battle.total"),
        Quantity("battle.hits", "military", "The hits a side scores on top of those its "
                 "total gives.", "int", dice, subject="side", word="battle.hits"),
        Quantity("battle.shield", "military", "The enemy hits a side cancels.", "int", dice,
                 subject="side", word="battle.shield"),
        EventKind("battle", "military", "A battle is over: both sides have rolled and lost "
                  "their units.", True,
                  (("area", "the province or sea"), ("kind", "land or sea"),
                   ("defender", "the player attacked"),
                   ("units", "each side's units before the losses"),
                   ("rolls", "each side's dice"), ("hits", "each side's hits scored")),
                  player="the attacker", word="battle", reported=True),
        EventKind("battle_start", "military", "A battle begins: nobody has rolled yet.",
                  True, (("area", "the province or sea"), ("kind", "land or sea"),
                         ("attacker", "the active player"),
                         ("defender", "the player attacked")),
                  player="the attacker", word="battle.start", reported=True,
                  told=False),   # the battle's own sentence tells it
        EventKind("battle_roll", "military", "Both sides of a battle have rolled; no "
                  "unit is lost yet.", True,
                  (("area", "the province or sea"), ("kind", "land or sea"),
                   ("defender", "the player attacked"), ("rolls", "each side's dice"),
                   ("hits", "each side's hits scored")),
                  player="the attacker", word="battle.roll", reported=True,
                  told=False),
        EventKind("unit_lost", "military", "A unit is lost in a battle, one per hit its "
                  "side takes, of the kind its owner chose.", True,
                  (("area", "the province or sea"), ("kind", "land or sea"),
                   ("unit", "the kind of unit lost"), ("attacker", "the active player"),
                   ("defender", "the player attacked")),
                  player="the unit's owner", word="unit.lost",
                  told=False),   # the battle's sentence counts the losses
        EventKind("move", "military", "A player moved a unit (a legion or a trireme) "
                  "from one area to another.", True,
                  (("kind", "legion or trireme"), ("from", "where it was"),
                   ("to", "where it went"), ("area", "where it went (its 'here')"),
                   ("unit", "legion or trireme")),
                  player="the player who moved it", word="move"),
        EventKind("military_turn_end", "military", "A player's military turn is over.",
                  False, player="the player whose turn it was", told=False),
    ]
