"""The decisions cards ask for ("you may ...", "... of your choice"), as steps of the
one decision loop. Frames hold only plain data: the card, rule and action index."""

from __future__ import annotations

from typing import Any

from ..engine import DONE, Decision, Frame, Game, Step
from ..errors import RuleRef
from ..hookspecs import hookimpl
from .compiler import CardEffects, CompiledAction, Env, Interactive, use_limit


def _card_rule(game: Game[Any], frame: Frame, what: str) -> RuleRef:
    """A card's question is answered as its tile says (the game's cards section)."""
    card = frame.get("card")
    found = game.rules.cards.get(card) if isinstance(card, str) else None
    name = found.name() if found is not None else str(card)
    return RuleRef(f"card:{card}", f"{name}: {what}, as its tile says",
                   "FR 8; NL/PL/UK 10-11")


def _action(game: Game[Any], frame: Frame) -> tuple[CompiledAction, Env]:
    effects: CardEffects = game.rules.effects[frame["card"]]
    rule = next(r for r in effects.rules if r.index == frame["rule"])
    action = rule.actions[frame["action"]]
    holder = frame["holder"]
    env = Env(game, holder, frame["card"], frame["ctx"], actor=str(frame.get("actor") or holder))
    return action, env


def _frames(game: Game[Any], frame: Frame,
            indices: tuple[int, ...]) -> list[tuple[str, dict[str, Any]]]:
    """Frames for a rule's actions ``indices`` (the 'if you do' ones): each done by the
    players its own subject names ('if you do each opponent loses 1 coin'), else by the
    actor who said yes."""
    effects: CardEffects = game.rules.effects[frame["card"]]
    rule = next(r for r in effects.rules if r.index == frame["rule"])
    _, env = _action(game, frame)
    out: list[tuple[str, dict[str, Any]]] = []
    for i in indices:
        a = rule.actions[i]
        step = "card.may" if a.optional else \
            "card.choose" if isinstance(a.word.meaning, Interactive) else "card.do"
        for actor in (a.actors(env) if a.subject is not None else [env.actor]):
            data = {k: frame[k] for k in ("card", "rule", "holder", "ctx") if k in frame}
            data.update(action=i, actor=actor)
            out.append((step, data))
    return out


class May(Step):
    """'you may X' (or 'WHO may pay N R to X'): the actor says yes or no; yes pays,
    runs X (which may ask more), then the 'if you do' actions that follow it."""

    def advance(self, game: Game[Any], frame: Frame) -> Decision | str:
        if frame.get("answered"):
            return DONE
        action, env = _action(game, frame)
        word = action.word
        if isinstance(word.meaning, Interactive) and not word.meaning.options(env, *action.args):
            return DONE  # nothing to choose from: the option lapses
        if not action.affordable(env):
            return DONE  # he cannot pay: the option lapses
        card = game.rules.cards[frame["card"]].name()
        what = word.pattern
        if action.pay is not None:
            pay_word, pay_args = action.pay[1]
            what = f"{_filled(pay_word.pattern, pay_args)} to {what}"
        return Decision(env.actor, "card.may", f"{env.actor}: {card}: "
                        f"{_filled(what, action.args)}?", ("yes", "no"))

    def choose(self, game: Game[Any], frame: Frame, choice: Any) -> None:
        frame["answered"] = True
        if choice != "yes":
            return
        if frame.get("limit"):
            use_limit(game, *frame["limit"])
        action, env = _action(game, frame)
        if action.pay is not None:
            pay_word, pay_args = action.pay[1]
            pay_word.meaning(env, *pay_args)
        after = _frames(game, frame, action.then)
        if isinstance(action.word.meaning, Interactive):
            data = {k: v for k, v in frame.items() if k not in ("step", "answered", "limit")}
            game.push_all([("card.choose", data), *after])
            return
        action.word.meaning(env, *action.args)
        game.push_all(after)

    def why_illegal(self, game: Game, frame: Frame, choice: Any) -> tuple[RuleRef | None, str]:
        return _card_rule(game, frame, "a 'you may' is answered yes or no"), \
            f"{choice!r} is neither 'yes' nor 'no'"


def _filled(pattern: str, args: list[Any]) -> str:
    """A word's pattern with its placeholders filled: what the player reads."""
    out = []
    values = iter(args)
    for tok in pattern.split():
        out.append(str(next(values, tok)) if tok.startswith("{") and tok.endswith("}")
                   else tok)
    return " ".join(out)


class Choose(Step):
    """'X of your choice': the actor picks among the options the word lists."""

    def advance(self, game: Game[Any], frame: Frame) -> Decision | str:
        if frame.get("done"):
            return DONE
        action, env = _action(game, frame)
        options = action.word.meaning.options(env, *action.args)
        if not options:
            return DONE
        card = game.rules.cards[frame["card"]].name()
        return Decision(env.actor, "card.choose", f"{env.actor}: {card}: "
                        f"{action.word.meaning.prompt}", tuple(options))

    def choose(self, game: Game[Any], frame: Frame, choice: Any) -> None:
        action, env = _action(game, frame)
        frame["done"] = True
        action.word.meaning.apply(env, choice, *action.args)

    def why_illegal(self, game: Game, frame: Frame, choice: Any) -> tuple[RuleRef | None, str]:
        return _card_rule(game, frame, "the choice is one of what its effect offers now"), \
            f"{choice!r} is not among them"


class Do(Step):
    """A plain action that waits its turn behind an earlier question."""

    def advance(self, game: Game[Any], frame: Frame) -> Decision | str:
        action, env = _action(game, frame)
        action.word.meaning(env, *action.args)
        return DONE


class CardSteps:
    """The language's own plugin: always registered with the cards."""

    @hookimpl
    def mn_steps(self) -> dict[str, Step[Any]]:
        return {"card.may": May(), "card.choose": Choose(), "card.do": Do()}
