"""The typed choices of Antike II's decisions: what a step receives when a nation chooses
a tuple-shaped option. Each is a NamedTuple whose first field names its kind, so it
equals the plain tuple it is offered as and a log writes it as a JSON list; the kernel
hands the step the typed form its decision kind declares (``DecisionKind.choices``).

Choices that are one word are plain strings: a rondel space (``"militia"``), a resource
paid or taken (``"gold"``), a nation.
"""

from __future__ import annotations

from typing import NamedTuple


class Done(NamedTuple):
    """Stop: no more units, temples, know-how, cities or trades this turn — ``("done",)``."""

    kind: str


class Raise(NamedTuple):
    """Militia: raise a legion or a galley in a region of one's city —
    ``("galley", "ROMA")``."""

    kind: str
    region: str


class Temple(NamedTuple):
    """Templum: build a temple in a city of one's own — ``("temple", "NEAPOLIS")``."""

    kind: str
    region: str


class Learn(NamedTuple):
    """Scientia: learn a know-how — ``("learn", "strata")``."""

    kind: str
    know_how: str


class Found(NamedTuple):
    """Found a city in a region where one has a unit, with the token of a resource —
    ``("found", "PAPHOS", "iron")``."""

    kind: str
    region: str
    resource: str


class Trade(NamedTuple):
    """Trade with the bank (Mercatura, Commercium): pay ``pay`` resources of one's choice
    for ``get`` of one's choice, chosen after paying — ``("trade", 3, 2)``."""

    kind: str
    pay: int
    get: int


MILITIA = (("done", Done), ("legion", Raise), ("galley", Raise))
TEMPLUM = (("done", Done), ("temple", Temple))
SCIENTIA = (("done", Done), ("learn", Learn))
FOUNDING = (("done", Done), ("found", Found))
TRADE = (("done", Done), ("trade", Trade))
