"""Highlighting of scripts (issue 13, item 5): a Pygments lexer used by `cards show` and a
TextMate grammar for editors, both generated from the grammar and the vocabulary; the
files in editors/ are regenerated here and compared, so they cannot drift."""

from __future__ import annotations

import ctypes
import ctypes.util
import json
import re
from pathlib import Path
from typing import Any

import pytest

from mnrules.content.ruleset import Ruleset, load_ruleset, vocabulary
from mnrules.frontends.cli import main
from mnrules.language import highlight as hl
from mnrules.language.words import Vocabulary

ROOT = Path(__file__).resolve().parent.parent
EDITORS = ROOT / "editors"
REGENERATE = ("regenerate it: mnrules cards textmate -o editors/mnrules-effects.tmLanguage.json"
              " (and --in-yaml -o editors/mnrules-effects-in-yaml.tmLanguage.json)")

pygments = pytest.importorskip("pygments")


@pytest.fixture(scope="module")
def rules() -> Ruleset:
    return load_ruleset("en")


@pytest.fixture(scope="module")
def vocab(rules: Ruleset) -> Vocabulary:
    return vocabulary(rules)


def tokens(vocab: Vocabulary | None, script: str) -> list[tuple[str, str]]:
    """(token type, text) of each token that is not blank."""
    return [(str(t), v) for t, v in hl.lexer(vocab).get_tokens(script) if v.strip()]


def test_the_editors_files_are_what_the_code_generates(vocab: Vocabulary) -> None:
    main_file = EDITORS / "mnrules-effects.tmLanguage.json"
    assert main_file.read_text(encoding="utf-8") == hl.textmate_json(vocab, "en"), REGENERATE
    in_yaml = EDITORS / "mnrules-effects-in-yaml.tmLanguage.json"
    assert in_yaml.read_text(encoding="utf-8") == hl.textmate_json(in_yaml=True), REGENERATE


def test_the_vs_code_package_names_both_grammars() -> None:
    package = json.loads((EDITORS / "package.json").read_text(encoding="utf-8"))
    paths = {g["path"] for g in package["contributes"]["grammars"]}
    assert paths == {"./mnrules-effects.tmLanguage.json",
                     "./mnrules-effects-in-yaml.tmLanguage.json"}
    for path in paths:
        assert (EDITORS / path).is_file()


def test_every_grammar_keyword_is_a_keyword() -> None:
    g = hl.grammar()
    assert {"modify", "after", "replace", "offer", "when", "once", "per", "round", "add",
            "free"} <= set(g.keywords)
    assert {"modify", "after", "replace"} <= set(g.heads)
    assert {":", ",", "(", ")"} <= set(g.punctuation)
    for word in g.keywords:
        assert tokens(None, word) == [("Token.Keyword", word)], word


def example(pattern: str, vocab: Vocabulary) -> str:
    """The pattern with each placeholder filled by a value it takes."""
    s = vocab.sets
    values = {"n": "2", "good": min(s.goods), "unit": min(s.units), "card": min(s.cards),
              "track": min(s.tracks), "player": min(s.players), "name": "military",
              **{k: min(v) for k, v in s.named.items() if v}}
    return re.sub(r"\{(\w+)\}", lambda m: values.get(m.group(1), "x"), pattern).lower()


def test_every_word_of_the_vocabulary_is_one_token_of_its_kind(vocab: Vocabulary) -> None:
    for kind, (token, _) in hl.KIND_STYLE.items():
        if kind in ("quantity", "event"):
            continue
        for w in vocab.words(kind):
            text = example(w.pattern, vocab)
            got = tokens(vocab, text)
            assert len(got) == 1 and got[0][1] == text, (kind, w.pattern, got)
            # the same words may be two kinds' ('you'; 'opponent' and 'an opponent', as
            # articles are ignored): the lexer cannot tell which, and shows one of them
            shared = {k for k, ws in vocab.by_kind.items()
                      if any(x.tokens == w.tokens for x in ws)}
            assert got[0][0] in {f"Token.{hl.KIND_STYLE[k][0]}" for k in shared
                                 if k in hl.KIND_STYLE}, (kind, w.pattern, got)
            assert token.startswith("Name")


def test_a_rule_head_names_a_known_or_an_unknown_target(vocab: Vocabulary) -> None:
    got = tokens(vocab, "modify battle.total when land battle: add 1 per legion die")
    assert got == [("Token.Keyword", "modify"), ("Token.Name.Class", "battle.total"),
                   ("Token.Keyword", "when"), ("Token.Name.Builtin", "land battle"),
                   ("Token.Punctuation", ":"), ("Token.Keyword", "add"),
                   ("Token.Literal.Number.Integer", "1"), ("Token.Keyword", "per"),
                   ("Token.Name.Variable", "legion die")]
    misspelt = tokens(vocab, "modify battle.totl: add 1")
    assert misspelt[1] == ("Token.Name.Other", "battle.totl")


def test_plurals_articles_and_comments(vocab: Vocabulary) -> None:
    got = tokens(vocab, "offer a legion for 2 coins  # Spartacus-like\n")
    assert got[1] == ("Token.Name.Constant", "a legion")
    assert ("Token.Name.Constant", "coins") in got
    assert got[-1] == ("Token.Comment.Single", "# Spartacus-like")


def test_every_bundled_script_lexes_without_an_error_token(rules: Ruleset,
                                                           vocab: Vocabulary) -> None:
    for card in rules.cards.values():
        for script in [card.effects or "", *(str(v.change.get("effects") or "")
                                             for v in card.variants.values())]:
            got = tokens(vocab, script)
            assert not [t for t in got if t[0] == "Token.Error"], (card.id, got)
            assert "".join(v for _, v in hl.lexer(vocab).get_tokens(script)) == \
                script + ("" if script.endswith("\n") else "\n")   # Pygments ends a line


def test_hostile_text_lexes_to_the_end(vocab: Vocabulary) -> None:
    for text in ("\x00\x01 modify ::: é ü 💥", "(" * 5000, "a" * 100_000,
                 "modify " + "x." * 2000):
        joined = "".join(v for _, v in hl.lexer(vocab).get_tokens(text))
        assert joined.rstrip("\n") == text


def test_cards_show_colours_only_a_colour_terminal(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["cards", "show", "--edition", "en", "caesar"]) == 0
    plain = capsys.readouterr().out
    assert "\x1b[" not in plain and "modify battle.total" in plain
    monkeypatch.setattr(hl, "colour_wanted", lambda stream: True)
    assert main(["cards", "show", "--edition", "en", "caesar"]) == 0
    coloured = capsys.readouterr().out
    assert "\x1b[" in coloured
    assert re.sub(r"\x1b\[[0-9;]*m", "", coloured) == plain


class _Tty:
    def __init__(self, tty: bool) -> None:
        self.tty = tty

    def isatty(self) -> bool:
        return self.tty


def test_colour_is_wanted_on_a_tty_unless_told_not(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    assert hl.colour_wanted(_Tty(True))  # type: ignore[arg-type]
    assert not hl.colour_wanted(_Tty(False))  # type: ignore[arg-type]
    monkeypatch.setenv("NO_COLOR", "1")
    assert not hl.colour_wanted(_Tty(True))  # type: ignore[arg-type]
    monkeypatch.delenv("NO_COLOR")
    monkeypatch.setenv("TERM", "dumb")
    assert not hl.colour_wanted(_Tty(True))  # type: ignore[arg-type]


def test_without_pygments_the_script_is_shown_as_it_is(
        monkeypatch: pytest.MonkeyPatch, rules: Ruleset) -> None:
    import builtins

    real = builtins.__import__

    def no_pygments(name: str, *args: Any, **kwargs: Any) -> Any:
        if name.startswith("pygments"):
            raise ImportError(name)
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_pygments)
    assert hl.highlight("modify cost: subtract 1\n", rules) == "modify cost: subtract 1\n"


# -- the TextMate regular expressions, in the editors' own engine ---------------------------
def _oniguruma() -> Any:
    name = ctypes.util.find_library("onig")
    if name is None:
        return None
    lib = ctypes.CDLL(name)
    utf8 = ctypes.addressof(ctypes.c_char.in_dll(lib, "OnigEncodingUTF8"))
    syntax = ctypes.addressof(ctypes.c_char.in_dll(lib, "OnigSyntaxOniguruma"))
    lib.onig_initialize((ctypes.c_void_p * 1)(utf8), 1)
    lib.onig_new.argtypes = [ctypes.POINTER(ctypes.c_void_p), ctypes.c_void_p,
                             ctypes.c_void_p, ctypes.c_uint, ctypes.c_void_p,
                             ctypes.c_void_p, ctypes.c_void_p]
    lib.onig_search.argtypes = [ctypes.c_void_p] * 6 + [ctypes.c_uint]
    lib.onig_search.restype = ctypes.c_int
    lib.onig_free.argtypes = [ctypes.c_void_p]
    info = ctypes.create_string_buffer(64)

    def search(pattern: str, text: str) -> int | None:
        """Where Oniguruma first finds ``pattern`` in ``text`` (a character offset),
        None if nowhere; an AssertionError if it cannot compile it."""
        p = ctypes.create_string_buffer(pattern.encode())
        reg = ctypes.c_void_p()
        start = ctypes.addressof(p)
        code = lib.onig_new(ctypes.byref(reg), start, start + len(pattern.encode()), 0,
                            utf8, syntax, info)
        assert code == 0, f"Oniguruma refuses {pattern[:80]!r} (error {code})"
        raw = text.encode()
        t = ctypes.create_string_buffer(raw)
        s = ctypes.addressof(t)
        found = lib.onig_search(reg, s, s + len(raw), s, s + len(raw), None, 0)
        lib.onig_free(reg)
        return None if found < 0 else len(raw[:found].decode())
    return search


def test_the_textmate_patterns_work_in_oniguruma_as_in_python(rules: Ruleset,
                                                              vocab: Vocabulary) -> None:
    search = _oniguruma()
    if search is None:
        pytest.skip("no Oniguruma library here")
    grammar = hl.textmate(vocab, "en")
    scripts = [c.effects for c in rules.cards.values() if c.effects]
    for pattern in [p["match"] for p in grammar["patterns"]]:
        for script in scripts:
            found = re.search(pattern, script)
            assert search(pattern, script) == (found.start() if found else None), pattern
    injected = hl.textmate_in_yaml()["patterns"][0]
    assert search(injected["begin"], "effects: |\n") == 0
    assert search(injected["end"].replace("\\1", "  "), "  modify cost: add 1\nid: x\n") \
        is not None
