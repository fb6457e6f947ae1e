"""Rule parameters as an edition pack sets them: what each accepts, and each choice of a
switch described with the books' sections (``Param``, ``Param.Option``).

The examples are Mare Nostrum's own switches (the fortress in a land battle, D30: FR/NL/PL
4.2 against UK 4.2) and parameters shaped like its tables (costs per building, the faces
of a die, what a city yields)."""

from __future__ import annotations

from functools import cache

import pytest

from mnrules import load_ruleset
from mnrules.content.ruleset import Ruleset, param_problem, value_words
from mnrules.hooks.params import Param

Option = Param.Option


@cache
def en() -> Ruleset:
    return load_ruleset("en")


def fortress() -> Param:
    """The D30 switch, as the battle plugin declares it."""
    return Param("fortress_model", "plus_five", "how a fortress helps its owner",
                 (Option("plus_five", "+5 to his dice total", "FR/NL/PL 4.2"),
                  Option("plus_hit", "+1 hit scored", "UK 4.2")))


def test_the_fortress_switch_offers_two_readings_each_with_its_books() -> None:
    """D30: the French, Dutch and Polish texts give +5, the English one +1 hit."""
    p = en().declared["fortress_model"]
    assert p.choices == ("plus_five", "plus_hit")
    assert [(o.value, o.cite) for o in p.options] == [("plus_five", "FR/NL/PL 4.2"),
                                                      ("plus_hit", "UK 4.2")]
    uk = p.option("plus_hit")
    assert uk is not None and uk.cite == "UK 4.2" and "hit" in uk.doc


def test_a_switch_takes_one_of_its_choices_and_nothing_else() -> None:
    p = fortress()
    assert param_problem(p, "plus_hit") is None
    assert param_problem(p, "plus_five") is None
    found = param_problem(p, "plus_six")
    assert found is not None and "expected one of ['plus_five', 'plus_hit']" in found[1]


def test_a_choice_without_its_books_has_no_section() -> None:
    assert Option(True, "yes: round 1 collects as every other round").cite == ""


def test_a_value_finds_its_choice_by_type_and_value_true_is_not_one() -> None:
    """A switch of numbers: 1 and 2 are described; True (which Python takes for 1) is not
    one of them, nor is 2.0."""
    p = Param("dice", 1, "how many dice", (Option(1, "one die"), Option(2, "two dice")))
    one, two = p.option(1), p.option(2)
    assert one is not None and one.doc == "one die"
    assert two is not None and two.doc == "two dice"
    assert p.option(True) is None
    assert p.option(2.0) is None
    assert p.option(3) is None


def test_choices_given_as_options_become_plain_values_and_keep_their_descriptions() -> None:
    p = Param("collect_in_round_one", False, "whether round 1 has a Collect phase",
              (Option(False, "no: the starting resources are round 1's income", "setup 3"),
               Option(True, "yes")))
    assert p.choices == (False, True)
    assert [o.value for o in p.options] == [False, True]
    assert param_problem(p, True) is None


def test_plain_choices_are_kept_as_they_are_and_describe_nothing() -> None:
    p = Param("timing", "end_of_turn", "when", ("end_of_turn", "end_of_phase"))
    assert p.choices == ("end_of_turn", "end_of_phase")
    assert p.options == ()
    assert p.option("end_of_turn") is None


def test_a_choice_described_twice_keeps_its_first_description() -> None:
    """``options`` given explicitly come first; an Option among the choices for a value
    already described adds nothing, one for a new value is added after them."""
    p = Param("dice", 1, "how many dice", (Option(1, "again, one die"), Option(2, "two dice")),
              options=(Option(1, "one die", "FR 4.2"),))
    assert [(o.value, o.doc) for o in p.options] == [(1, "one die"), (2, "two dice")]
    assert p.choices == (1, 2)


def test_a_number_lies_within_its_range() -> None:
    """The dice total per hit (5 in every book): at least 1, at most 99."""
    p = Param("hit_divisor", 5, "dice total per hit", minimum=1, maximum=99)
    assert param_problem(p, 1) is None and param_problem(p, 99) is None
    for bad in (0, 100):
        found = param_problem(p, bad)
        assert found is not None and "a whole number from 1 to 99" in found[1], found
    assert value_words(p) == "a whole number from 1 to 99"
    assert value_words(Param("n", 1, "d", minimum=0)) == "a whole number of at least 0"
    assert value_words(Param("n", 1, "d", maximum=9)) == "a whole number of at most 9"
    assert value_words(Param("n", 1, "d")) == "a whole number"


def test_a_die_has_from_one_to_twenty_faces() -> None:
    p = Param("land_die", [0, 1, 2, 3, 4, 5], "faces of a land battle die", minimum=0,
              maximum=99, length=(1, 20))
    assert param_problem(p, [3]) is None
    assert param_problem(p, [0] * 20) is None
    assert param_problem(p, []) == ((), "expected a list of 1 to 20 items, got 0")
    assert param_problem(p, [1] * 21) == ((), "expected a list of 1 to 20 items, got 21")
    assert param_problem(p, [1, 100]) == ((1,), "expected a whole number from 0 to 99, "
                                                "got 100")
    assert value_words(p) == "a list of 1 to 20 items, each a whole number from 0 to 99"


def test_a_table_has_exactly_its_keys_unless_more_may_be_added() -> None:
    costs = Param("costs", {"city": 2, "fleet": 1}, "what each piece costs")
    assert param_problem(costs, {"city": 3, "fleet": 1}) is None
    assert param_problem(costs, {"city": 3}) == ((), "missing 'fleet' (give every one of "
                                                     "city, fleet)")
    found = param_problem(costs, {"city": 3, "fleet": 1, "cty": 2})
    assert found == (("cty",), "unknown key; did you mean 'city'?")
    found = param_problem(costs, {"city": 3, "fleet": 1, "temple": 2})
    assert found == (("temple",), "unknown key (expected city, fleet)")
    assert value_words(costs) == "a mapping of city, fleet, each to a whole number"
    open_costs = Param("costs", {"city": 2, "fleet": 1}, "what each piece costs",
                       open_keys=True)
    assert param_problem(open_costs, {"city": 3, "fleet": 1, "temple": 2}) is None
    assert value_words(open_costs) == ("a mapping of at least city, fleet (more may be "
                                       "added), each to a whole number")


def test_a_text_names_a_resource_only_where_the_parameter_says_so() -> None:
    plain = Param("conversion_timing", "start_of_later_turn", "when a marker converts")
    assert value_words(plain) == "a text"
    income = Param("legendary_temple_bonus", ["coin", "legendary"], "a temple's bonus",
                   length=(1, 9), resources=True)
    assert value_words(income).startswith("a list of 1 to 9 items, each a resource of the "
                                          "pack")


@pytest.mark.parametrize("value", ["plus_five", "plus_hit"])
def test_each_fortress_reading_is_accepted_by_a_pack(value: str) -> None:
    rules = load_ruleset("en", overrides={"params": {"fortress_model": value}})
    assert rules.params["fortress_model"] == value


def test_a_number_is_a_number_not_a_text_nor_true() -> None:
    divisor = Param("hit_divisor", 5, "dice total per hit", minimum=1, maximum=99)
    for bad in (True, "5", 2.5, None):
        found = param_problem(divisor, bad)
        assert found is not None and found[1].startswith("expected a whole number from 1 "
                                                         "to 99, got "), (bad, found)
    ratio = Param("ratio", 0.5, "a share")
    assert param_problem(ratio, 1) is None and param_problem(ratio, 0.25) is None
    for bad in (float("nan"), float("inf"), False):
        found = param_problem(ratio, bad)
        assert found is not None and found[1].startswith("expected a number, got "), found


def test_an_empty_list_in_a_default_borrows_its_siblings_item_type() -> None:
    """Pillaging a temple gains nothing by default (an empty list), yet a pack that gives
    it something gives resources, as the other buildings' gains are: not numbers."""
    gains = Param("pillage_gains", {"temple": [], "city": ["coin"]}, "what pillaging yields")
    assert param_problem(gains, {"temple": ["coin"], "city": ["coin"]}) is None
    assert param_problem(gains, {"temple": [3], "city": ["coin"]}) == \
        (("temple", 0), "expected a text, got 3")
    rows = Param("rows", [[], [1, 2]], "rows of numbers")
    assert param_problem(rows, [["a"]]) == ((0, 0), "expected a whole number, got 'a'")


def test_a_key_added_to_an_open_table_is_a_name() -> None:
    costs = Param("costs", {"city": 2}, "what each piece costs", open_keys=True)
    assert param_problem(costs, {"city": 2, "temple": 3}) is None
    assert param_problem(costs, {"city": 2, 7: 3}) == ((7,), "a key must be a name, got 7")
