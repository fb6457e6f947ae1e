"""Antike II's typed choices (plugins/antike2/choices.py): a step of Militia, Templum,
Scientia, founding or a bank trade receives the tuple-shaped option as the NamedTuple its
decision kind declares, by the option's first word, equal to the plain tuple it was offered
as and logged as the same JSON list."""

from __future__ import annotations

import json

import pytest

from antike2 import choices
from mnrules.core.engine import typed

TABLES = {
    "militia": (choices.MILITIA, [("done",), ("legion", "ROMA"), ("galley", "ROMA")]),
    "templum": (choices.TEMPLUM, [("done",), ("temple", "NEAPOLIS")]),
    "scientia": (choices.SCIENTIA, [("done",), ("learn", "moneta")]),
    "founding": (choices.FOUNDING, [("done",), ("found", "PAPHOS", "iron")]),
    "trade": (choices.TRADE, [("done",), ("trade", 3, 2)]),
}


@pytest.mark.parametrize("action", sorted(TABLES))
def test_each_option_arrives_typed_and_equal_to_its_tuple(action: str) -> None:
    table, options = TABLES[action]
    types = dict(table)
    assert sorted(types) == sorted(option[0] for option in options)
    for option in options:
        choice = typed(types, option)
        assert type(choice) is types[option[0]]
        assert choice == option and choice.kind == option[0]
        assert json.loads(json.dumps(choice)) == list(option)


def test_a_raised_unit_names_its_kind_and_region() -> None:
    legion = typed(dict(choices.MILITIA), ("legion", "ROMA"))
    assert isinstance(legion, choices.Raise)
    assert (legion.kind, legion.region) == ("legion", "ROMA")
    trade = typed(dict(choices.TRADE), ("trade", 3, 2))
    assert isinstance(trade, choices.Trade) and (trade.pay, trade.get) == (3, 2)
