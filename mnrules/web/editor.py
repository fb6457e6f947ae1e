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

from ..errors import MnrulesError

PLACE = re.compile(r"^(?P<file>[^\n]*?card\.yaml):(?P<line>\d+):(?P<col>\d+): ", re.M)


def _rules(edition: str) -> Any:
    from ..packs import list_packs
    from ..ruleset import load_ruleset

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
    from ..card_check import check_cards
    from ..ruleset import vocabulary
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
        from ..cli import _explain_one
        from ..language.texts import load_texts
        from ..ruleset import vocabulary

        lines: list[str] = _explain_one(card, rules, vocabulary(rules),
                                        load_texts(rules, lang))
        return lines
    except (ImportError, MnrulesError, AttributeError, TypeError, KeyError):
        return []


def try_card(text: str, edition: str, position: str, seed: int, rounds: int
             ) -> dict[str, Any]:
    """Play ``rounds`` rounds with random bots, the card added to the edition, from a
    scenario ``position`` (YAML, the game's keys of a scenario file: who holds the card,
    ...); what happened, as an onlooker reads it."""
    from ..bots import make_bot
    from ..present import presenter
    from ..ruleset import load_ruleset
    from ..start import new_game
    from ..yamlsource import load_yaml

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
        where = Path(folder) / "position.yaml"
        where.write_text(position or "{}", encoding="utf-8")
        data = load_yaml(where).data or {}
    if not isinstance(data, dict):
        raise MnrulesError("position: expected the keys of a scenario's position")
    game = new_game(rules, max(rules.seating, default=1), seed=seed)
    if data:
        rules.hook.mn_set_position(game=game, position=data, at=_at)
    say = presenter(rules)
    log: list[str] = []
    game.listeners.append(lambda e: log.append(t) if (t := say.event(game, e, None)) else None)
    bots = {p: make_bot("random", seed + i, rules) for i, p in enumerate(game.state.players)}
    stop = game.state.round + rounds
    while (dec := game.pending) is not None and game.state.round < stop:
        game.apply(bots[dec.player].choose(game))
    return {"ok": True, "errors": [], "log": log, "card": say.card_name(found["id"])}


@contextlib.contextmanager
def _at(*key: str | int) -> Iterator[None]:
    """Names the position's key an edit the game refuses was made for."""
    try:
        yield
    except (KeyError, ValueError, TypeError, IndexError, MnrulesError) as exc:
        raise MnrulesError(f"position.{'.'.join(map(str, key))}: {exc}") from None
