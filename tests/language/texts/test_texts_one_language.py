"""What a player reads is in his language (issue 36, items 4 and 9): Ukrainian goods
counted with their plurals, French cards without a power and the round's one French
word, and the session header in the language ``--lang`` asks."""

from __future__ import annotations

import pytest

from mare_nostrum.reports import counted_good
from mnrules import load_ruleset
from mnrules.frontends.cli import main
from mnrules.language.present import presenter


def test_ukrainian_goods_are_counted_with_their_plurals() -> None:
    """«3 Метал», «2 Олія», «2 Зерно» do not agree with their numbers; goods that are
    not counted by the piece are counted in units."""
    say = presenter(load_ruleset("uk"))
    assert counted_good(say, "metal", 3) == "3 одиниці Металу"
    assert counted_good(say, "oil", 2) == "2 одиниці Олії"
    assert counted_good(say, "grain", 2) == "2 одиниці Зерна"
    assert counted_good(say, "wine", 5) == "5 одиниць Вина"
    assert counted_good(say, "sheep", 5) == "5 Овець"
    assert counted_good(say, "metal", 1) == "Метал"


def test_every_ukrainian_good_has_its_plural() -> None:
    rules = load_ruleset("uk")
    say = presenter(rules)
    goods = ["coin", *rules.components["goods"]]
    missing = [g for g in goods
               if not all(say.has(f"plural.goods.{g}.{c}")
                          for c in ("one", "few", "many", "other"))]
    assert missing == []


@pytest.mark.parametrize(("edition", "text"), [
    ("fr", "Aucun pouvoir."), ("nl", "Geen kracht."), ("en", "No power.")])
def test_a_card_without_a_power_says_so_in_the_pack_language(edition: str,
                                                             text: str) -> None:
    """Hercules prints only an English "No power.": another language says it in its
    own words."""
    assert presenter(load_ruleset(edition)).card_text("hercules") == text


def test_french_has_one_word_for_a_round() -> None:
    """« Tour » in play (« Tour 3 », « au début du tour 2 ») and in replay alike."""
    say = presenter(load_ruleset("fr"))
    texts = [t for t in say.messages.values() if "manche" in t.lower()]
    assert texts == []
    assert say.say("ui.replay_where", step=1, steps=9, round=2) == "choix 1 sur 9 (tour 2)"
    assert say.say("ui.round", round=2) == "Tour 2"


def test_the_session_header_is_in_the_language_asked(
        capsys: pytest.CaptureFixture[str]) -> None:
    """Under ``--lang ru`` the Antike II header names the pack in Russian, not «the
    Russian rules, Mare Nostrum side»."""
    assert main(["play", "--game", "antike2", "--lang", "ru", "--players", "4",
                 "--seed", "3", "--rounds", "1"]) == 0
    header = capsys.readouterr().out.splitlines()[0]
    assert header == ("mnrules: Antike II (русские правила, сторона Mare Nostrum); "
                      "4 игрока (Зеленый, Синий, Черный, Желтый); зерно 3")
