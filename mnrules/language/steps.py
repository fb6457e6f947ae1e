"""The decisions cards ask for ("you may ...", "... of your choice"), as steps of the
one decision loop. Frames hold only plain data: the card, rule and action index."""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any

from ..core.engine import DONE, Decision, Frame, Game, Step
from ..errors import RuleRef
from ..hooks.hookspecs import hookimpl
from .compiler import CardEffects, CompiledAction, Env, Interactive, use_limit

if TYPE_CHECKING:
    from .present import Presenter


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
    if "alt" in frame:                      # the action picked of a choice
        action = action.alternatives[frame["alt"]]
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
        data = {k: frame[k] for k in ("card", "rule", "holder", "ctx") if k in frame}
        data.update(action=i)
        if a.picks_actor:
            out.append(("card.who", data))
            continue
        for actor in (a.actors(env) if a.subject is not None else [env.actor]):
            out.append((a.step, {**data, "actor": actor}))
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
        if action.asks:
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


def doable(action: CompiledAction, env: Env) -> bool:
    """Whether an action of a choice can be done now by at least one player who would
    do it (``each opponent loses 1 coin`` is offered while one opponent has a coin; the
    others lose what they have, nothing): see :func:`can_act`."""
    return bool(able_actors(action, env))


def able_actors(action: CompiledAction, env: Env) -> list[str]:
    """The players among those the action names who can do it now (:func:`can_act`)."""
    actors = action.actors(env) if action.subject is not None else [env.actor]
    return [a for a in actors if can_act(action, env, a)]


def can_act(action: CompiledAction, env: Env, actor: str) -> bool:
    """Whether ``actor`` can do the action now: he can pay what it costs, and it offers
    something to choose from or changes the game (tried on a copy of the state: taking
    from an empty supply, losing what he lacks, placing a piece he has not, or where
    none may stand, changes nothing)."""
    mine = env.acting(actor)
    if not action.affordable(mine):
        return False
    meaning = action.word.meaning
    if isinstance(meaning, Interactive):
        return bool(meaning.options(mine, *action.args))
    if action.optional or action.alternatives:
        return True      # a question: asking it changes nothing yet
    trial: Game[Any] = Game(env.game.rules, env.game.state.clone())
    meaning(Env(trial, env.holder, env.card, copy.deepcopy(env.ctx), env.event, actor),
            *action.args)
    return bool(trial.state.to_dict() != env.game.state.to_dict())


class Choose(Step):
    """'X of your choice': the actor picks among the options the word lists; 'you
    choose: A or B': among the actions he can do (by their words), then does it."""

    def advance(self, game: Game[Any], frame: Frame) -> Decision | str:
        if frame.get("done"):
            return DONE
        action, env = _action(game, frame)
        card = game.rules.cards[frame["card"]].name()
        if action.alternatives:
            offered = tuple(a.text for a in action.alternatives if doable(a, env))
            if not offered:
                return DONE          # nothing he can do: nothing is asked
            return Decision(env.actor, "card.choose", f"{env.actor}: {card}: "
                            f"{' or '.join(offered)}?", offered)
        options = action.word.meaning.options(env, *action.args)
        if not options:
            return DONE
        return Decision(env.actor, "card.choose", f"{env.actor}: {card}: "
                        f"{action.word.meaning.prompt}", tuple(options))

    def choose(self, game: Game[Any], frame: Frame, choice: Any) -> None:
        action, env = _action(game, frame)
        frame["done"] = True
        if action.alternatives:
            picked = next(i for i, a in enumerate(action.alternatives) if a.text == choice)
            alt = action.alternatives[picked]
            if alt.pay is not None:
                pay_word, pay_args = alt.pay[1]
                pay_word.meaning(env, *pay_args)
            data = {k: frame[k] for k in ("card", "rule", "action", "holder", "ctx")
                    if k in frame}
            if alt.picks_actor:
                game.push("card.who", **data, alt=picked)
                return
            actors = alt.actors(env) if alt.subject is not None else [env.actor]
            game.push_all([("card.choose" if alt.asks else "card.do",
                            {**data, "alt": picked, "actor": actor}) for actor in actors])
            return
        meaning = action.word.meaning
        meaning.apply(env, choice, *action.args)
        if meaning.repeats:
            left = frame.get("left", int(action.args[0])) - 1
            if left > 0:   # asked again, among what is left then
                frame["left"] = left
                frame["done"] = False

    def why_illegal(self, game: Game, frame: Frame, choice: Any) -> tuple[RuleRef | None, str]:
        return _card_rule(game, frame, "the choice is one of what its effect offers now"), \
            f"{choice!r} is not among them"


class Who(Step):
    """'an opponent ...' as the one who acts: the card's holder picks which of the
    players it names, among those it can act for (asked only when there are several;
    none: it lapses), and the action is then done, or asked, by him."""

    def advance(self, game: Game[Any], frame: Frame) -> Decision | str:
        if "actor" in frame:
            return DONE
        action, env = _action(game, frame)
        able = able_actors(action, env)
        if len(able) > 1:
            card = game.rules.cards[frame["card"]].name()
            what = action.text or _filled(action.word.pattern, action.args)
            return Decision(env.holder, "card.who", f"{env.holder}: {card}: which "
                            f"player ({what})?", tuple(able))
        if able:
            self.choose(game, frame, able[0])
        return DONE

    def choose(self, game: Game[Any], frame: Frame, choice: Any) -> None:
        frame["actor"] = choice
        action, _ = _action(game, frame)
        data = {k: v for k, v in frame.items() if k != "step"}
        game.push(action.step, **data)

    def why_illegal(self, game: Game, frame: Frame, choice: Any) -> tuple[RuleRef | None, str]:
        return _card_rule(game, frame, "the player is one of those it names"), \
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
        return {"card.may": May(), "card.choose": Choose(), "card.who": Who(),
                "card.do": Do()}


def card_option_text(say: Presenter, game: Game[Any], decision: Decision, option: Any
                     ) -> str | None:
    """An action a card's choice offers, as the card's text words it in the reader's
    language; None for any other option (the game's own answer, asked first, is for
    the other card options)."""
    stack = game.state.stack
    if decision.kind != "card.choose" or not stack or "card" not in stack[-1]:
        return None
    frame = stack[-1]
    effects = game.rules.effects.get(frame["card"])
    rule = next((r for r in effects.rules if r.index == frame["rule"]), None) \
        if effects is not None else None
    if rule is None or "alt" in frame or frame["action"] >= len(rule.rule.actions):
        return None
    choices = rule.rule.actions[frame["action"]].choices
    picked = next((p for p in choices if p.text == option), None)
    if picked is None:
        return None
    return str(say.explainer().option(picked))
