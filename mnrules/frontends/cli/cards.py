"""The ``mnrules cards`` commands: list, show, explain and check cards, the words of
their scripts and the scripts' TextMate grammar."""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

from ...content.ruleset import load_ruleset
from ...errors import MnrulesError
from ...files import check_writable, write_atomic
from ...language.present import presenter
from .common import _existing, game_option


def _rules_with_cards(args: argparse.Namespace) -> Any:
    """The rule set of --edition (and --variant), with the cards of each --cards folder
    beside the game's bundled ones (its own folder of cards/, not another game's)."""
    from ...content import games, packs
    from ...content.yamlsource import pointed

    variant = getattr(args, "variant", None)
    extra = [_existing(d, "--cards", folder=True) for d in getattr(args, "cards", None) or []]
    try:
        if not extra:
            return load_ruleset(args.edition, variant=variant)
        source = packs.read(variant, default_base=args.edition) if variant else \
            packs.read(args.edition)
        game = str(source.data.get("game") or "")
        bundled = games.cards_dir(game) if game and not game.endswith(".py") else None
        dirs = [bundled] if bundled is not None else []
        return load_ruleset(args.edition, card_dirs=[*dirs, *extra], variant=variant)
    except MnrulesError as exc:    # a pack's or card's error: its line, with a caret
        raise MnrulesError(pointed(str(exc))) from None


def _find_card(rules: Any, name: str) -> Any:
    from ...content.yamlsource import suggest

    for card in rules.cards.values():
        if name in (card.id, *card.names.values()) or name.lower() == card.name().lower():
            return card
    hint = suggest(name, list(rules.cards))
    raise MnrulesError(f"no card named {name!r}" + (f"; did you mean {hint!r}?" if hint
                                                     else ""))


def cmd_cards_list(args: argparse.Namespace) -> int:
    rules = _rules_with_cards(args)
    lang = args.lang or rules.data.get("language", "en")
    say = presenter(rules, args.lang)
    for card in sorted(rules.cards.values(), key=lambda c: (c.kind, c.id)):
        # the id is what `cards show` takes; the rest is as the pack names it
        bonus = ", ".join(f"{say.name(k, 'tracks')} +{v}" for k, v in card.bonuses.items()
                          if v)
        print(f"{card.id:<18} {say.name(card.kind, 'card_kinds'):<18} "
              f"{card.name(lang):<22} {bonus}")
    return 0


def cmd_cards_check(args: argparse.Namespace) -> int:
    """Check card files under the edition (and variant) they are for: each file's errors,
    with file, line, column and a caret; exit 1 if any."""
    from ...content.card_check import card_files, check_cards
    from ...content.ruleset import vocabulary

    rules = _rules_with_cards(args)
    checked = check_cards(rules, vocabulary(rules), card_files(args.paths))
    for c in checked:
        if c.ok:
            print(f"{c.file}: ok")
        for error in c.errors:
            print(error, file=sys.stderr)
    bad = sum(1 for c in checked if not c.ok)
    print(f"{len(checked)} card file(s) checked, {bad} with errors")
    return 1 if bad else 0


def cmd_cards_show(args: argparse.Namespace) -> int:
    from ...content.ruleset import vocabulary
    from ...language.explain import Explainer
    from ...language.highlight import colour_wanted, highlight
    from ...language.syntax import parse_script
    from ...language.texts import load_texts

    rules = _rules_with_cards(args)
    card = _find_card(rules, args.name)
    texts = load_texts(rules, args.lang)
    lang = texts.lang
    say = presenter(rules, args.lang)
    print(f"{card.name(lang)} ({say.name(card.kind, 'card_kinds')}) — {card.file}")
    if card.bonuses:
        print(say.say("cards.bonuses", bonuses=", ".join(
            f"{texts.name('track', k)} +{v}" for k, v in card.bonuses.items())))
    # the printed text, in this language, if the card plays as printed; else its text
    # from the script, so a variant or a pack's override never shows another rule's text
    change = rules.source.card_overrides.get(card.id) if rules.source is not None else None
    replaced = card.variant is not None or (change is not None and "effects" in change[0])
    printed = card.text.get(lang)
    if printed and not replaced:
        print(say.say("cards.text", text=printed))
    elif card.effects:
        writer = Explainer(vocabulary(rules), texts)
        for rule in parse_script(card.effects, card.file, *card.effects_at):
            print(say.say("cards.explained", text=writer.rule(rule)))
    script = card.effects or "# no power\n"
    print(highlight(script, rules) if colour_wanted(sys.stdout) else script, end="")
    return 0


def cmd_cards_explain(args: argparse.Namespace) -> int:
    """A card's text from its script, in the pack's language or --lang's; given a card
    file or folder, each card of it (the failing ones reported with their caret, exit 1)."""
    from ...content.card_check import card_files, check_cards
    from ...content.ruleset import vocabulary
    from ...language.explain import card_lines
    from ...language.texts import load_texts

    if not args.name.strip():     # Path('') is the current folder: never meant
        raise MnrulesError("cards explain: name a card (its id or name), a card file or a "
                           "folder of cards")
    target = Path(args.name)
    as_file = target.exists() and (target.is_dir() or target.suffix in (".yaml", ".yml"))
    try:
        rules = _rules_with_cards(args)
    except MnrulesError:
        if as_file or not getattr(args, "cards", None):
            raise
        return _explain_among_broken(args)    # another card of --cards is broken
    vocab = vocabulary(rules)
    texts = load_texts(rules, args.lang)
    named = any(args.name in (c.id, *c.names.values()) for c in rules.cards.values())
    if not (target.exists() and (as_file or not named)):
        print("\n".join(card_lines(_find_card(rules, args.name), vocab, texts)))
        return 0
    checked = check_cards(rules, vocab, card_files([target]))
    texts = replace(texts, cards={**texts.cards, **{c.card.id: c.card.name(texts.lang)
                                                     for c in checked if c.card}})
    for c in checked:
        if c.ok and c.card is not None:
            print("\n".join(card_lines(c.card, vocab, texts)))
        for error in c.errors:
            print(error, file=sys.stderr)
    bad = sum(1 for c in checked if not c.ok)
    if bad:
        print(f"{bad} of {len(checked)} card file(s) with errors, not explained",
              file=sys.stderr)
    return 1 if bad else 0


def _explain_among_broken(args: argparse.Namespace) -> int:
    """``cards explain NAME --cards DIR`` when some card of DIR is broken: NAME
    explained all the same (from the pack, or from its own file, checked), the broken
    files named in one sentence; the loading error itself when NAME is one of them."""
    from ...content.card_check import card_files, check_cards
    from ...content.ruleset import vocabulary
    from ...language.explain import card_lines
    from ...language.texts import load_texts

    folders = [_existing(d, "--cards", folder=True) for d in args.cards]
    rules = _rules_with_cards(argparse.Namespace(**{**vars(args), "cards": []}))
    vocab = vocabulary(rules)
    checked = check_cards(rules, vocab, card_files(folders))
    broken = [c for c in checked if not c.ok]
    name = args.name
    found = [c.card for c in checked if c.ok and c.card is not None
             and (name in (c.card.id, *c.card.names.values())
                  or name.lower() == c.card.name().lower())]
    card = found[0] if found else None
    if card is None:
        mine = [c for c in broken if c.card is not None and
                name in (c.card.id, *c.card.names.values())]
        if mine or any(c.card is None for c in broken):
            _rules_with_cards(args)            # its own error, as ever (file, line, caret)
        card = _find_card(rules, name)
    texts = load_texts(rules, args.lang)
    texts = replace(texts, cards={**texts.cards, **{c.card.id: c.card.name(texts.lang)
                                                     for c in checked if c.card}})
    print("\n".join(card_lines(card, vocab, texts)))
    say = presenter(rules, args.lang)
    print(say.say("cards.others_broken",
                  files=", ".join(str(c.file) for c in broken)), file=sys.stderr)
    return 0


def cmd_cards_textmate(args: argparse.Namespace) -> int:
    """The TextMate grammar of scripts (editors/mnrules-effects.tmLanguage.json), from
    the grammar and the edition's vocabulary."""
    from ...content.ruleset import vocabulary
    from ...language.highlight import textmate_json

    if args.in_yaml:
        text = textmate_json(None, in_yaml=True)
    else:       # the game's plugin words, and those of the variant's plugins
        rules = _rules_with_cards(args)
        text = textmate_json(vocabulary(rules), args.variant or args.edition)
    if args.output:
        check_writable(args.output)
        write_atomic(args.output, text)
        print(f"TextMate grammar written to {args.output}")
    else:
        print(text, end="")
    return 0


def cmd_cards_words(args: argparse.Namespace) -> int:
    """Every word a script may use, with its meaning; with --lang, its text in that
    language as the packs' words.yaml give it (and what a translator has left to do)."""
    from ...content.ruleset import vocabulary
    from ...language.texts import load_texts, missing_texts
    from ...language.words import KINDS

    rules = load_ruleset(args.edition)
    vocab = vocabulary(rules)
    if args.markdown:
        print(words_reference(vocab, KINDS))
        return 0
    texts = load_texts(rules, args.lang) if args.lang else None

    def text(kind: str, w: Any) -> str:
        if texts is None or texts.lang == "en" or kind == "resource":
            return str(w.doc)
        given = texts.words.get(kind, {}).get(w.pattern)
        return str(given) if given is not None else "(no text)"
    print("\n".join(
        f"{kind} — {what}\n" + "\n".join(f"  {w.pattern:<48} {text(kind, w)}" for w in
                                          sorted(vocab.words(kind), key=lambda w: w.pattern))
        for kind, what in KINDS.items()))
    if texts is not None and texts.lang != "en":
        missing = missing_texts(texts, vocab)
        for entry in missing:
            print(f"missing in the {texts.lang} texts (words.yaml): {entry}", file=sys.stderr)
        print(f"{len(missing)} text(s) missing in {texts.lang}")
        return 1 if missing else 0
    return 0


def _one_of(names: Any) -> str:
    items = sorted(names)
    return ", ".join(items[:-1]) + " or " + items[-1] if len(items) > 1 else "".join(items)


def words_reference(vocab: Any, kinds: dict[str, str]) -> str:
    """The vocabulary as the Markdown page docs/words.md (kept in step by a test)."""
    out = ["# Words of the effect language", "",
           "Generated by `mnrules cards words --markdown` from the rule plugins' vocabulary "
           f"(the game's `words` plugin). Placeholders: `{{n}}` a number, `{{good}}` a good "
           f"({_one_of(vocab.sets.goods)}), `{{unit}}` {_one_of(vocab.sets.units)}, `{{card}}` "
           f"a card id, `{{track}}` {_one_of(vocab.sets.tracks)}, `{{name}}` any one word. "
           "Articles (a, an, the) may be added anywhere.",
           ""]
    for kind, what in kinds.items():
        words = sorted(vocab.words(kind), key=lambda w: w.pattern)
        if not words:
            continue
        out += [f"## {kind}", "", f"{what[0].upper()}{what[1:]}.", "",
                "| words | meaning |", "|---|---|"]
        for w in words:
            extra = f" (whose: `{w.subject}`; value: {w.vtype})" if kind == "quantity" else \
                (f" (event `{w.meaning}`{'; once done: only `after`' if w.reported else ''})"
                 if kind == "event" else "")
            out.append(f"| `{w.pattern}` | {w.doc}{extra} |")
        out.append("")
    return "\n".join(out)


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    cards = sub.add_parser("cards", help="hero and wonder cards")
    csub = cards.add_subparsers(dest="cards_command", required=True)
    for name, func, helptext in (("list", cmd_cards_list, "list every card"),
                                 ("show", cmd_cards_show, "show a card and its script"),
                                 ("explain", cmd_cards_explain,
                                  "a card's text from its script, in the pack's language "
                                  "(or --lang): what the engine understood"),
                                 ("words", cmd_cards_words,
                                  "every word a script may use")):
        c = csub.add_parser(name, help=helptext)
        if name == "show":
            c.add_argument("name", help="a card's id or name")
        if name == "explain":
            c.add_argument("name", help="a card's id or name, or a card file or folder "
                           "(each card explained, the failing ones reported)")
        if name == "words":
            c.add_argument("--markdown", action="store_true")
        c.add_argument("--edition", default=None,
                       help="the edition pack (default: the game's base pack)")
        if name != "words":
            c.add_argument("--variant", default=None,
                           help="a variant file on top of the edition")
        c.add_argument("--lang", default=None,
                       help="the language of names and texts (default: the pack's)")
        c.add_argument("--cards", action="append", default=[],
                       help="also load the cards of this folder")
        c.set_defaults(func=func)
    chk = csub.add_parser("check", help="check card files under an edition and variant "
                          "(exit 1 on any error)")
    chk.add_argument("paths", nargs="+", help="card files or folders of them")
    chk.add_argument("--edition", default=None,
                     help="the edition pack the cards are for (default: the game's base pack)")
    chk.add_argument("--variant", default=None,
                     help="a variant file on top of the edition (its plugins' words)")
    chk.set_defaults(func=cmd_cards_check)
    tm = csub.add_parser("textmate", help="the TextMate grammar of scripts, for editors "
                         "(editors/mnrules-effects.tmLanguage.json)")
    tm.add_argument("--edition", default=None,
                    help="whose vocabulary (default: the game's base pack)")
    tm.add_argument("--variant", default=None,
                    help="a variant or pack file on top of the edition: its plugins' "
                    "words too")
    tm.add_argument("--in-yaml", action="store_true",
                    help="the grammar that highlights the scripts inside card and pack "
                    "files (editors/mnrules-effects-in-yaml.tmLanguage.json)")
    tm.add_argument("-o", "--output", default=None, help="write it to this file")
    tm.set_defaults(func=cmd_cards_textmate)
    for p in csub.choices.values():
        game_option(p)
