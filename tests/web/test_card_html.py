"""The card editor's highlighting: a card file as HTML spans, its script coloured by the
lexer generated from the grammar and the edition's vocabulary, the places ``check``
refused marked; every character escaped."""

from __future__ import annotations

import html
import re
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mnrules.frontends.web.card_html import card_html, script_lines
from mnrules.language.words import Vocabulary

pytest.importorskip("pygments")

CARD = """id: my_hero
kind: hero
effects: |
  modify offer_size: chose 0 to 5
names: {en: My hero}
"""


@pytest.fixture(scope="module")
def vocab() -> Vocabulary:
    from mnrules.content.ruleset import load_ruleset, vocabulary

    return vocabulary(load_ruleset("en"))


def _tokens(out: str, cls: str) -> list[str]:
    found = re.findall(rf'<span class="[^"]*\b{cls}\b[^"]*">([^<]*)<', out)
    return [html.unescape(t) for t in found]


def test_a_misspelt_word_at_the_caret_is_an_error_and_a_known_word_a_keyword(
        vocab: Vocabulary) -> None:
    out = card_html(CARD, vocab, [(4, 22)])          # check: card.yaml:4:22 unexpected 'chose'
    assert _tokens(out, "t-err") == ["chose"]
    assert _tokens(out, "t-nx") == ["chose"]          # a word the vocabulary lacks
    assert "modify" in _tokens(out, "t-k") and "to" in _tokens(out, "t-k")
    assert _tokens(out, "t-nc") == ["offer_size"]     # the quantity the vocabulary knows
    assert re.search(r'<span class="line errline" data-line="4">', out)
    assert out.count("errline") == 1
    # the YAML around the script is not coloured: 'kind' and 'hero' are plain text
    assert '<span class="line" data-line="2">kind: hero</span>' in out


def test_an_unknown_quantity_after_a_rule_head_is_not_coloured_as_known(
        vocab: Vocabulary) -> None:
    out = card_html(CARD.replace("offer_size", "offer_sze"), vocab, [(4, 10)])
    assert _tokens(out, "t-err") == ["offer_sze"]
    assert "offer_sze" not in _tokens(out, "t-nc")


def test_only_the_effects_block_is_a_script() -> None:
    lines = CARD.split("\n")
    assert [i + 1 for i, s in enumerate(script_lines(lines)) if s] == [4]
    nested = ["tiles:", "  - id: x", "    effects: |", "      when x:", "", "        add 1",
              "    names: {}"]
    assert script_lines(nested) == [False, False, False, True, True, True, False]


def test_a_caret_past_the_line_end_is_still_shown(vocab: Vocabulary) -> None:
    out = card_html("effects: |\n  modify\n", vocab, [(2, 9)])
    assert '<span class="t-err"> </span></span>' in out


def test_without_pygments_the_card_is_plain_text_with_its_refused_line(
        monkeypatch: pytest.MonkeyPatch, vocab: Vocabulary) -> None:
    monkeypatch.setitem(sys.modules, "pygments.token", None)
    out = card_html(CARD, vocab, [(4, 22)])
    assert "t-k" not in out and "t-nx" not in out
    assert ('<span class="line errline" data-line="4"><span class="t-err">'
            '  modify offer_size: chose 0 to 5</span></span>') in out   # the line, one piece


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("effects: |\n\t<>&\"'abz09#")), max_size=80))
def test_every_character_is_escaped_and_kept(text: str) -> None:
    out = card_html(text, None)
    assert "<" not in re.sub(r"</?span[^>]*>", "", out)
    assert html.unescape(re.sub(r"<[^>]+>", "", out)) == text
