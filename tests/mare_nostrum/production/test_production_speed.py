"""The Collect phase takes a run of one player's same income at once (docs/speed.md,
issue 15, eighth round): at every Collect phase of seeded games the state, the
generator, the frame and the decision it stops at are those taking the income one
resource at a time (the code it replaced) leaves."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mare_nostrum.production import CHOICE, Production, incomes
from mare_nostrum.supply import in_supply, take
from mnrules import Game, new_game
from mnrules.bots import make_bot
from mnrules.content.ruleset import Ruleset
from mnrules.core.effects import Event
from mnrules.core.engine import DONE, Decision, Step
from mnrules.errors import RuleRef


def one_by_one(game: Game, frame: dict[str, Any]) -> Decision | str:
    """The phase as it was (47809cc): its queue taken a resource at a time."""
    state = game.state
    if state.round == 1 and not game.param("first_round_collects"):
        return DONE
    if "queue" not in frame:
        queue: list[list[Any]] = []
        per = incomes(game)
        for p in state.players:
            for key, n in per[p]:
                queue.extend([p, key] for _ in range(n))
        frame["queue"] = queue
        frame["got"] = {p: {} for p in state.players}
    queue = frame["queue"]
    while queue:
        player, key = queue[0]
        if CHOICE in key:
            options = tuple(k for k in key.split(CHOICE) if in_supply(game, k))
            if len(options) > 1:
                return Decision(player, "collect.choice",
                                f"{player}: collect one of {', '.join(options)}", options)
            key = options[0] if options else key.split(CHOICE)[0]
        queue.pop(0)
        if take(game, player, key):
            got = frame["got"][player]
            got[key] = got.get(key, 0) + 1
    for p in state.players:
        game.perform(Event("collected", p, {"resources": frame["got"][p]}), lambda e: None)
    game.perform(Event("production_done"), lambda e: None)
    return DONE


class Compared(Step):
    """The phase, checked at each advance against a copy of the game advanced one
    resource at a time (the phase itself within: the compiled core's classes take no
    interpreted subclass)."""

    checked = 0
    chosen = 0
    inner = Production()

    def choose(self, game: Game, frame: dict[str, Any], choice: Any) -> None:
        self.inner.choose(game, frame, choice)

    def why_illegal(self, game: Game, frame: dict[str, Any],
                    choice: Any) -> tuple[RuleRef | None, str]:
        return self.inner.why_illegal(game, frame, choice)

    def advance(self, game: Game, frame: dict[str, Any]) -> Decision | str:
        kind, internal, gauss = game.rng.getstate()
        copied = game.state.clone()
        copied.rng = [kind, list(internal), gauss]
        other = Game(game.rules, copied)
        theirs_frame = copied.stack[-1]   # (a card's question may be pushed above it)
        expected = one_by_one(other, theirs_frame)
        got = self.inner.advance(game, frame)
        assert got == expected
        assert frame == theirs_frame
        assert game.rng.getstate() == other.rng.getstate()
        mine = game.state.to_dict()
        theirs = copied.to_dict()
        for data in (mine, theirs):
            data.pop("rng")
        assert mine == theirs
        Compared.checked += 1
        Compared.chosen += isinstance(got, Decision)
        return got


def test_the_collect_phase_takes_as_one_by_one(fresh_rules: Callable[..., Ruleset]) -> None:
    rules = fresh_rules()
    rules.steps["production"] = Compared()
    for seed in (51, 52, 53):
        game = new_game(rules, 5, seed=seed, round_cap=12)
        bots = {p: make_bot("random", seed * 1009 + i, rules)
                for i, p in enumerate(game.state.players)}
        while (dec := game.pending) is not None:
            game.apply(bots[dec.player].choose(game))
    assert Compared.checked > 20 and Compared.chosen > 2
