"""Phase 2 — Trade (FR 2.1–2.2.1; NL 2.1–2.2.1 and Q&A 9; PL 2.1–2.2.1; UK 2.1–2.2.2).

The trade leader plays a token face; everyone offers that many resources face down;
the offers are revealed; then a chain of picks runs: the leader takes one offered
resource from someone, the player taken from picks next, and so on. Two players may
not take from each other twice in a row. When the picks leave the leader one up and
the last player taken from one down, the leader gives that player a resource of his
choice, face down (2.2.1).
"""

from __future__ import annotations

from typing import Any

from mare_nostrum import choices
from mare_nostrum.state import Game, Step
from mnrules.core.effects import Event
from mnrules.core.engine import DONE, Decision, Frame, Param
from mnrules.errors import RuleRef
from mnrules.hooks.contract import DecisionKind, Declaration, EventKind, Part, Quantity
from mnrules.hooks.hookspecs import hookimpl

NO_RETURN = RuleRef("trade-no-return", "two players may not take each other's resources "
                    "twice in a row", "FR 2.2; NL/PL/UK 2.2")
TOKEN_USED = RuleRef("trade-token-reuse", "a played trade token comes back only when all "
                     "three have been played or the trade title changes hands",
                     "FR 2.1; NL/PL/UK 2.1")
NOT_OFFERED = RuleRef("trade-pick", "you take one face-up offered resource of another "
                      "player", "FR 2.2; NL/PL/UK 2.2")


@hookimpl
def mn_params() -> list[Param]:
    return [
        Param("trade_short_player", "offer_all",
              "what a player holding fewer resources than the trade token's value does (D15)",
              (Param.Option("offer_all", "offers all he has, and takes at most that many",
                            "NL Q&A 9"),
               Param.Option("exclude", "does not take part (one who can must)",
                            "FR/PL 2.1, UK 2.2.2"))),
    ]


def tokens(game: Game) -> list[str]:
    """The trade tokens the leader may play now."""
    state = game.state
    box = [str(t) for t in game.rules.components.get("trade_tokens", [])]
    leader = state.titles.get("trade")
    if state.vars.get("trade.tokens_for") != leader or "trade.tokens" not in state.vars:
        state.vars["trade.tokens"] = list(box)
        state.vars["trade.tokens_for"] = leader
    available: list[str] = state.vars["trade.tokens"]
    return available


def offer_sizes(game: Game, player: str, value: int) -> tuple[int, ...]:
    """The numbers of resources ``player`` may offer when the token's face is ``value``
    (his heroes and wonders included), before what he holds limits them."""
    sizes: tuple[int, ...] = game.fold("offer_size", (value,), player=player, token=value)
    return sizes


def _faces(token: str) -> list[int]:
    return [int(x) for x in token.split("/")]


def _seating_from(players: list[str], first: str | None) -> list[str]:
    if first not in players:
        return list(players)
    i = players.index(first)
    return players[i:] + players[:i]


class Trade(Step):
    def advance(self, game: Game, frame: Frame) -> Decision | str:
        state = game.state
        stage = frame.setdefault("stage", "token")
        leader = state.titles.get("trade", state.players[0])
        if stage == "token":
            options = tuple((t, face) for t in tokens(game) for face in _faces(t))
            return Decision(leader, "trade.token", f"{leader}: play a trade token face",
                            options, labels=tuple(f"token {t}, value {f}" for t, f in options))
        if stage == "size":
            while frame["size_queue"]:
                player = frame["size_queue"][0]
                sizes = self._sizes(game, frame, player)
                if len(sizes) > 1:
                    return Decision(player, "trade.size",
                                    f"{player}: how many resources will you offer?",
                                    tuple(sizes), hidden=True)
                frame["size_queue"].pop(0)
                if sizes and sizes[0] > 0:
                    frame["sizes"][player] = sizes[0]
            frame["stage"] = stage = "offer"
            frame["offer_queue"] = [p for p in _seating_from(state.players, leader)
                                    for _ in range(frame["sizes"].get(p, 0))]
            frame["secret_offers"] = {p: {} for p in frame["sizes"]}
        if stage == "offer":
            if frame["offer_queue"]:
                player = frame["offer_queue"][0]
                keys = tuple(sorted(state.screens[player]))
                left = frame["offer_queue"].count(player)
                return Decision(player, "trade.offer",
                                f"{player}: offer a resource face down ({left} to go)",
                                keys, hidden=True)
            frame["offers"] = frame.pop("secret_offers")
            frame["secret_taken"] = {p: {} for p in frame["offers"]}
            frame["history"] = []
            participants = [p for p in _seating_from(state.players, leader)
                            if p in frame["offers"]]
            frame["picker"] = participants[0] if participants else None
            frame["before"] = {p: state.held(p) + sum(frame["offers"][p].values())
                               for p in frame["offers"]}
            game.emit(Event("offers_revealed", leader, {"value": frame["value"], "offers": {
                p: dict(o) for p, o in frame["offers"].items()}}))  # a record, not the live offers
            frame["stage"] = stage = "pick"
        if stage == "pick":
            picks = self._picks(frame)
            if picks:
                picker = frame["picker"]
                return Decision(picker, "trade.pick",
                                f"{picker}: take one offered resource from another player",
                                picks, labels=tuple(f"{k} from {t}" for t, k in picks))
            self._wrap_up(game, frame)
            frame["stage"] = stage = "giveback"
        if stage == "giveback":
            giver, short = self._imbalance(game, frame)
            if giver is None or short is None:
                return DONE
            return Decision(giver, "trade.giveback",
                            f"{giver}: give {short} one resource of your choice, face down "
                            f"(2.2.1)", tuple(sorted(state.screens[giver])), hidden=True)
        raise AssertionError(f"unknown trade stage {stage}")

    def choose(self, game: Game, frame: Frame, choice: Any) -> None:
        state = game.state
        stage = frame["stage"]
        if stage == "token":
            token, value = choice
            available = tokens(game)
            available.remove(token)
            if not available:  # all three played: all three come back
                available.extend(str(t) for t in game.rules.components["trade_tokens"])
            # what the face is worth to this trade: a card may change it (the face stays
            # the one played; a value below nothing offers nothing)
            value = max(0, int(game.fold("trade.value", value, player=state.titles.get("trade"),
                                         token=token)))
            frame["token"], frame["value"] = token, value
            frame["sizes"] = {}
            frame["size_queue"] = _seating_from(state.players, state.titles.get("trade"))
            frame["stage"] = "size"
            game.emit(Event("trade_token", state.titles.get("trade"),
                            {"token": token, "value": value}))
        elif stage == "size":
            player = frame["size_queue"].pop(0)
            if choice > 0:
                frame["sizes"][player] = choice
        elif stage == "offer":
            player = frame["offer_queue"].pop(0)
            state.spend(player, choice)
            offer = frame["secret_offers"][player]
            offer[choice] = offer.get(choice, 0) + 1
        elif stage == "pick":
            target, key = choice
            picker = frame["picker"]
            offer = frame["offers"][target]
            offer[key] -= 1
            if not offer[key]:
                del offer[key]
            taken = frame["secret_taken"][picker]
            taken[key] = taken.get(key, 0) + 1
            frame["history"].append([picker, target])
            frame["picker"] = target
            # performed, not only told: a card may react to a take in the trade (it has
            # happened: the pick's turn is never undone, so no card can stall the trade)
            game.perform(Event("trade_pick", picker, {"from": target, "resource": key}),
                         lambda e: None)
        elif stage == "giveback":
            giver, short = self._imbalance(game, frame)
            assert giver is not None and short is not None
            state.spend(giver, choice)
            state.gain(short, choice)
            frame["net"][giver] -= 1
            frame["net"][short] += 1
            game.emit(Event("trade_giveback", giver, {"to": short}))

    def why_illegal(self, game: Game, frame: Frame, choice: Any) -> tuple[RuleRef | None, str]:
        stage = frame.get("stage")
        if stage == "token":
            return TOKEN_USED, f"available now: {', '.join(tokens(game))}"
        if stage == "pick" and isinstance(choice, tuple) and len(choice) == 2:
            hist = frame["history"]
            picker = frame["picker"]
            if (len(hist) >= 2 and hist[-1] == [choice[0], picker]
                    and hist[-2] == [picker, choice[0]]):
                return NO_RETURN, f"{picker} and {choice[0]} have just done a round trip"
            return NOT_OFFERED, f"{choice[0]} has no face-up {choice[1]} on offer"
        if stage == "pick":
            return NOT_OFFERED, "a pick is (a player, one of the resources he offers)"
        if stage == "size":
            return RuleRef("trade-offer-size", "each player offers as many resources as the "
                           "token's face says (all he has if he holds fewer, or none, as the "
                           "edition reads it; a card may allow another number)",
                           "FR 2.1; NL/PL/UK 2.1, 2.2.2, Q&A 9"), \
                f"{choice!r} is not a number of resources this player may offer"
        if stage == "offer":
            return RuleRef("trade-offer", "a player offers resources from behind his own "
                           "screen, face down", "FR 2.1; NL/PL/UK 2.1"), \
                f"{choice!r} is not a resource behind this player's screen"
        if stage == "giveback":
            return RuleRef("trade-giveback", "a player who received more than he gave hands "
                           "one of his own resources to a player who is short",
                           "FR 2.2.1; NL/PL/UK 2.2.1"), \
                f"{choice!r} is not a resource this player holds"
        return None, "not among the legal choices"

    @staticmethod
    def _sizes(game: Game, frame: Frame, player: str) -> list[int]:
        value = frame["value"]
        held = game.state.held(player)
        sizes = offer_sizes(game, player, value)
        if game.param("trade_short_player") == "offer_all":
            fit = sorted({min(s, held) for s in sizes})
        else:  # exclude: a player who cannot offer the full amount does not take part
            fit = sorted(s for s in sizes if s <= held)
        return fit

    @staticmethod
    def _picks(frame: Frame) -> tuple[tuple[str, str], ...]:
        picker = frame["picker"]
        if picker is None:
            return ()
        hist = frame["history"]
        barred = None
        if len(hist) >= 2 and hist[-1][1] == picker and hist[-2][0] == picker \
                and hist[-1][0] == hist[-2][1]:
            barred = hist[-1][0]
        return tuple((t, k) for t, offer in frame["offers"].items()
                     if t != picker and t != barred for k in sorted(offer))

    @staticmethod
    def _wrap_up(game: Game, frame: Frame) -> None:
        state = game.state
        for p, offer in frame["offers"].items():
            for k, n in offer.items():
                state.gain(p, k, n)
        for p, taken in frame.pop("secret_taken").items():
            for k, n in taken.items():
                state.gain(p, k, n)
        frame["offers"] = {}
        frame["net"] = {p: state.held(p) - frame["before"][p] for p in frame["before"]}

    @staticmethod
    def _imbalance(game: Game, frame: Frame) -> tuple[str | None, str | None]:
        net = frame.get("net", {})
        up = [p for p in game.state.players if net.get(p, 0) > 0]
        down = [p for p in game.state.players if net.get(p, 0) < 0]
        if not up or not down:
            return None, None
        return up[0], down[0]


@hookimpl
def mn_steps() -> dict[str, Step]:
    return {"trade": Trade()}


@hookimpl
def mn_in_transit(game: Game) -> dict[str, int]:
    out: dict[str, int] = {}
    for frame in game.state.stack:
        if frame["step"] != "trade":
            continue
        for key in ("secret_offers", "offers", "secret_taken"):
            for pile in frame.get(key, {}).values():
                for k, n in pile.items():
                    out[k] = out.get(k, 0) + n
    return out


@hookimpl
def mn_contract() -> list[Declaration]:
    """The offer sizes this plugin folds, its decisions and its (observed) events."""
    return [
        Part("trade", "trade", "Phase 2: the trade leader plays a trade token; every player "
             "offers that many resources face down, then the players take offered "
             "resources from each other in turn."),
        DecisionKind("trade.token", "trade", "The trade leader plays a face of an "
                     "available trade token: how many resources each player offers.",
                     choices=choices.TOKEN),
        DecisionKind("trade.size", "trade", "A player who may offer more than one number "
                     "of resources says, in secret, how many he offers."),
        DecisionKind("trade.offer", "trade", "A player puts one resource from behind his "
                     "screen on offer, face down."),
        DecisionKind("trade.pick", "trade", "The player whose turn it is takes one offered "
                     "resource from another player (not straight back from the last "
                     "one who took from him).",
                     choices=choices.PICK),
        DecisionKind("trade.giveback", "trade", "A player who received more than he gave "
                     "hands one resource of his choice, face down, to one who is short "
                     "(2.2.1)."),
        Quantity("offer_size", "trade", "The numbers of resources a player may offer in "
                 "the trade, given the token played.", "sizes",
                 (("player", "who offers"), ("token", "the value of the token face played")),
                 subject="player", word="offer_size"),
        Quantity("trade.value", "trade", "The number of resources the played trade token "
                 "face asks of each player (the face's own number unless a card changes "
                 "it).", "int", (("player", "the trade leader, who played it"),
                                 ("token", "the token played")),
                 subject="player", word="trade.value"),
        EventKind("trade_token", "trade", "The trade leader has played a trade token face.",
                  False, (("token", "the token played"), ("value", "the face played")),
                  player="the trade title's holder (none before anyone holds it)"),
        EventKind("offers_revealed", "trade", "Every offer is turned face up.", False,
                  (("value", "the token value played"),
                   ("offers", "what each player offers, by resource")),
                  player="the trade leader"),
        EventKind("trade_pick", "trade", "A player took one offered resource from another.",
                  True, (("from", "the player taken from"), ("resource", "what he took")),
                  player="the player who took it", word="trade.pick", reported=True),
        EventKind("trade_giveback", "trade", "A player handed one resource to a player who "
                  "was short.", False, (("to", "the player who received it"),),
                  player="the player who gave it"),
    ]
