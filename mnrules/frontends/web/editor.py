"""The card editor's server side: a card file's text checked as ``mnrules cards check``
checks it (each error with its line, column and caret), explained, and tried: played for
a few rounds by bots with the card in the first player's hands.

A card is data (YAML and an effect-language script); nothing of it is run as code."""

from __future__ import annotations

import contextlib
import re
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ...errors import MnrulesError

PLACE = re.compile(r"^(?P<file>[^\n]*?card\.yaml):(?P<line>\d+):(?P<col>\d+): ", re.M)


def _rules(edition: str) -> Any:
    from ...content.packs import list_packs
    from ...content.ruleset import load_ruleset

    if edition not in list_packs():
        raise MnrulesError(f"edition: {edition!r} is not a bundled edition")
    return load_ruleset(edition)


def _errors(texts: tuple[str, ...] | list[str], folder: str) -> list[dict[str, Any]]:
    out = []
    for text in texts:
        text = text.replace(folder + "/", "")
        m = PLACE.search(text)
        out.append({"message": text, "line": int(m["line"]) if m else 0,
                    "column": int(m["col"]) if m else 0})
    return out


def check_card(text: str, edition: str, lang: str | None) -> dict[str, Any]:
    """``{"ok", "errors": [{message (with its caret), line, column}], "explanation",
    "highlight"}``: ``highlight`` the card as HTML, its script coloured by the lexer
    generated from the grammar and this edition's vocabulary, the refused places
    marked (:func:`.card_html.card_html`)."""
    from ...content.card_check import check_cards
    from ...content.ruleset import vocabulary
    from .card_html import card_html

    rules = _rules(edition)
    vocab = vocabulary(rules)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "card.yaml"
        path.write_text(text, encoding="utf-8")
        checked = check_cards(rules, vocab, [path])[0]
        errors = _errors(checked.errors, folder)
        explanation: list[str] = []
        if checked.ok and checked.card is not None:    # while its file is there to read
            explanation = _explain(checked.card, rules, lang)
    return {"ok": checked.ok, "errors": errors, "explanation": explanation,
            "id": checked.card.id if checked.card is not None else "",
            "highlight": card_html(text, vocab, [(e["line"], e["column"]) for e in errors])}


def _explain(card: Any, rules: Any, lang: str | None) -> list[str]:
    """What the engine understood of the card, as ``mnrules cards explain`` says it."""
    try:
        from ...content.ruleset import vocabulary
        from ...language.explain import card_lines
        from ...language.texts import load_texts

        lines: list[str] = card_lines(card, vocabulary(rules), load_texts(rules, lang))
        return lines
    except (ImportError, MnrulesError, AttributeError, TypeError, KeyError):
        return []


def try_card(text: str, edition: str, position: str, seed: int, rounds: int,
             forced: str = "") -> dict[str, Any]:
    """Play ``rounds`` rounds with random bots, the card added to the edition, from a
    scenario ``position`` (YAML, the keys of a scenario file's position: who holds the
    card, the round, the phase...; the game's own setup kept unless ``clear: true``),
    the chance outcomes ``forced`` (YAML, as a scenario's ``forced``: ``land die: [5,
    4]``) and ``seed``; what happened, as an onlooker reads it, each time the card's
    rules fire marked with what they do."""
    from ...bots import make_bot
    from ...content.ruleset import load_ruleset
    from ...core.start import new_game
    from ...language.present import presenter
    from ...tools.scenario import set_position

    found = check_card(text, edition, None)
    if not found["ok"]:
        return {"ok": False, "errors": found["errors"], "log": []}
    with tempfile.TemporaryDirectory() as folder:
        cards = Path(folder) / "cards"
        cards.mkdir()
        (cards / "card.yaml").write_text(text, encoding="utf-8")
        variant = Path(folder) / "try.yaml"
        variant.write_text(f"extends: {edition}\ncards:\n  add: [./cards]\n", encoding="utf-8")
        rules = load_ruleset(edition, variant=str(variant))
        data = _mapping(Path(folder), "position", position)
        chances = _mapping(Path(folder), "forced", forced)
    for label, outcomes in chances.items():
        if not isinstance(outcomes, list):
            raise MnrulesError(f"forced.{label}: expected a list of outcomes, as "
                               f"'{label}: [5, 4]'")
    say = presenter(rules)
    log: list[str] = []
    _watch(rules, found["id"], say, log)
    game = new_game(rules, max(rules.seating, default=1), seed=seed)
    game.listeners.append(lambda e: log.append(t) if (t := say.event(game, e, None)) else None)
    if data:
        data.setdefault("clear", False)      # the game's setup, unless told to clear
        set_position(game, data)
    for label, outcomes in chances.items():
        game.force(str(label), list(outcomes))
    bots = {p: make_bot("random", seed + i, rules) for i, p in enumerate(game.state.players)}
    stop = game.state.round + rounds
    while (dec := game.pending) is not None and game.state.round < stop:
        game.apply(bots[dec.player].choose(game))
    return {"ok": True, "errors": [], "log": log, "card": say.card_name(found["id"])}


def _mapping(folder: Path, key: str, text: str) -> dict[str, Any]:
    """A field of YAML read as a mapping (its errors with their line, as a file's)."""
    from ...content.yamlsource import load_yaml

    where = folder / f"{key}.yaml"
    where.write_text(text or "{}", encoding="utf-8")
    data = load_yaml(where).data or {}
    if not isinstance(data, dict):
        raise MnrulesError(f"{key}: expected the keys of a scenario's {key}")
    return data


def _watch(rules: Any, card_id: str, say: Any, log: list[str]) -> None:
    """Make the card's rules, in this rule set only, write a line in ``log`` each time
    they fire: a reaction or replacement with its sentence, a modifier with what it made
    of the value (once, not at each fold giving the same)."""
    from ...content.ruleset import vocabulary
    from ...core.effects import Modifier, Replacement, Trigger
    from ...language.compiler import CardEffects
    from ...language.explain import Explainer
    from ...language.texts import load_texts

    writer = Explainer(vocabulary(rules), load_texts(rules))
    name = say.card_name(card_id)

    def mark(line: str) -> None:
        if not log or log[-1] != line:
            log.append(line)

    def sentence(fn: Any) -> str:
        args: tuple[Any, ...] = tuple(getattr(fn, "args", ()))
        rule = getattr(args[1], "rule", None) if len(args) > 1 else None
        try:
            return writer.rule(rule) if rule is not None else ""
        except (MnrulesError, KeyError, TypeError, ValueError):
            return ""

    class Watched(CardEffects):
        def _modifiers(self, game: Any, quantity: str,
                       ctx: dict[str, Any]) -> list[Modifier] | None:
            out = super()._modifiers(game, quantity, ctx)
            return None if out is None else [
                Modifier(m.source, changed(m.fn, quantity), m.layer, m.rank) for m in out]

        def _triggers(self, game: Any, event: Any) -> list[Trigger] | None:
            out = super()._triggers(game, event)
            return None if out is None else [
                Trigger(t.source, fired(t.fn), t.layer, t.rank) for t in out]

        def _replacements(self, game: Any, event: Any) -> list[Replacement] | None:
            out = super()._replacements(game, event)
            return None if out is None else [
                Replacement(r.source, fired(r.fn), r.layer, r.rank) for r in out]

    def changed(fn: Any, quantity: str) -> Any:
        def run(value: Any) -> Any:
            after = fn(value)
            if after != value:
                mark(say.say("editor.changed", card=name, quantity=quantity,
                             before=value, after=after))
            return after
        return run

    def fired(fn: Any) -> Any:
        text = sentence(fn)

        def run(*args: Any) -> Any:
            mark(say.say("editor.fired", card=name, rule=text))
            return fn(*args)
        return run

    old = rules.effects.get(card_id)
    if old is None:
        return
    new = Watched(old.card, old.rules, old.others)
    rules.pm.unregister(name=f"card:{card_id}")
    rules.pm.register(new, name=f"card:{card_id}")
    rules.effects[card_id] = new


@contextlib.contextmanager
def _at(*key: str | int) -> Iterator[None]:
    """Names the position's key an edit the game refuses was made for."""
    try:
        yield
    except (KeyError, ValueError, TypeError, IndexError, MnrulesError) as exc:
        raise MnrulesError(f"position.{'.'.join(map(str, key))}: {exc}") from None
