"""The decisions cards ask for ("you may ...", "... of your choice"), as steps of the
one decision loop. Frames hold only plain data: the card, rule and action index."""

from __future__ import annotations

from typing import Any

from ..engine import DONE, Decision, Frame, Game, Step
from ..errors import RuleRef
from ..hookspecs import hookimpl
from .compiler import CardEffects, Env, Interactive, use_limit


def _card_rule(game: Game[Any], frame: Frame, what: str) -> RuleRef:
    """A card's question is answered as its tile says (the game's cards section)."""
    card = frame.get("card")
    found = game.rules.cards.get(card) if isinstance(card, str) else None
    name = found.name() if found is not None else str(card)
    return RuleRef(f"card:{card}", f"{name}: {what}, as its tile says",
                   "FR 8; NL/PL/UK 10-11")


def _action(game: Game[Any], frame: Frame) -> tuple[Any, list[Any], Env]:
    effects: CardEffects = game.rules.effects[frame["card"]]
    rule = next(r for r in effects.rules if r.index == frame["rule"])
    _, word, args = rule.actions[frame["action"]]
    env = Env(game, frame["holder"], frame["card"], frame["ctx"])
    return word, args, env


class May(Step):
    """'you may X': the holder says yes or no; yes runs X (which may ask more)."""

    def advance(self, game: Game[Any], frame: Frame) -> Decision | str:
        if frame.get("answered"):
            return DONE
        word, args, env = _action(game, frame)
        if isinstance(word.meaning, Interactive) and not word.meaning.options(env, *args):
            return DONE  # nothing to choose from: the option lapses
        card = game.rules.cards[frame["card"]].name()
        return Decision(frame["holder"], "card.may", f"{frame['holder']}: {card}: "
                        f"{word.pattern}?", ("yes", "no"))

    def choose(self, game: Game[Any], frame: Frame, choice: Any) -> None:
        frame["answered"] = True
        if choice != "yes":
            return
        if frame.get("limit"):
            use_limit(game, *frame["limit"])
        word, args, env = _action(game, frame)
        if isinstance(word.meaning, Interactive):
            game.push("card.choose", **{k: v for k, v in frame.items()
                                        if k not in ("step", "answered", "limit")})
        else:
            word.meaning(env, *args)

    def why_illegal(self, game: Game, frame: Frame, choice: Any) -> tuple[RuleRef | None, str]:
        return _card_rule(game, frame, "a 'you may' is answered yes or no"), \
            f"{choice!r} is neither 'yes' nor 'no'"


class Choose(Step):
    """'X of your choice': the holder picks among the options the word lists."""

    def advance(self, game: Game[Any], frame: Frame) -> Decision | str:
        if frame.get("done"):
            return DONE
        word, args, env = _action(game, frame)
        options = word.meaning.options(env, *args)
        if not options:
            return DONE
        card = game.rules.cards[frame["card"]].name()
        return Decision(frame["holder"], "card.choose", f"{frame['holder']}: {card}: "
                        f"{word.meaning.prompt}", tuple(options))

    def choose(self, game: Game[Any], frame: Frame, choice: Any) -> None:
        word, args, env = _action(game, frame)
        frame["done"] = True
        word.meaning.apply(env, choice, *args)

    def why_illegal(self, game: Game, frame: Frame, choice: Any) -> tuple[RuleRef | None, str]:
        return _card_rule(game, frame, "the choice is one of what its effect offers now"), \
            f"{choice!r} is not among them"


class Do(Step):
    """A plain action that waits its turn behind an earlier question."""

    def advance(self, game: Game[Any], frame: Frame) -> Decision | str:
        word, args, env = _action(game, frame)
        word.meaning(env, *args)
        return DONE


class CardSteps:
    """The language's own plugin: always registered with the cards."""

    @hookimpl
    def mn_steps(self) -> dict[str, Step[Any]]:
        return {"card.may": May(), "card.choose": Choose(), "card.do": Do()}
