"""The typed choices of Mare Nostrum's decisions: what a step receives when a player
chooses a tuple-shaped option. Each is a NamedTuple whose first field names its kind, so
it equals the plain tuple it is offered as (options are listed as plain tuples, which is
cheap) and a log writes it as a JSON list; the kernel hands the step the typed form that
the decision kind declares (``DecisionKind.choices``)."""

from __future__ import annotations

from typing import NamedTuple


class End(NamedTuple):
    """End the turn (build) — ``("end",)``."""

    kind: str


class Done(NamedTuple):
    """Move on to the next stage (military, conquest) — ``("done",)`` or ``("pass",)``."""

    kind: str


class Place(NamedTuple):
    """Buy a marker, legion, fortress or trireme and place it — ``("legion", "LATIUM")``."""

    kind: str
    where: str


class Build(NamedTuple):
    """Buy the building of a province's printed slot — ``("building", "LATIUM", 4)``."""

    kind: str
    province: str
    slot: int


class Tile(NamedTuple):
    """Buy a face-up hero or wonder — ``("tile", "caesar")``."""

    kind: str
    card: str


class CardOffer(NamedTuple):
    """Build through a card's offer — ``("offer", "card:penthesilea#0", "legion", "LATIUM")``."""

    kind: str
    source: str
    item: str
    where: str


class Move(NamedTuple):
    """Move one trireme or legion — ``("move", "MARE IONIUM", "MARE AEGAEUM")``."""

    kind: str
    origin: str
    to: str


class Fight(NamedTuple):
    """Start the battle against ``opponent`` in ``area`` — ``("battle", "ITALIA", "greece")``."""

    kind: str
    area: str
    opponent: str


class Slot(NamedTuple):
    """Pillage or occupy a conquered province's building — ``("pillage", 2)``."""

    kind: str
    slot: int


class OccupyMarker(NamedTuple):
    """Occupy a conquered province's control marker — ``("marker",)``."""

    kind: str


class TokenFace(NamedTuple):
    """Play a trade token with one face up — ``("5/0", 5)``."""

    token: str
    value: int


class Pick(NamedTuple):
    """Take one offered resource from another player — ``("greece", "wine")``."""

    player: str
    resource: str


BUILD_ACTION = (("end", End), ("marker", Place), ("legion", Place), ("fortress", Place),
                ("trireme", Place), ("building", Build), ("tile", Tile), ("offer", CardOffer))
MOVES = (("done", Done), ("move", Move))
BATTLES = (("done", Done), ("battle", Fight))
CONQUEST = (("pass", Done), ("done", Done), ("pillage", Slot), ("occupy", Slot),
            ("marker", OccupyMarker))
TOKEN: tuple[tuple[str | None, type], ...] = ((None, TokenFace),)
PICK: tuple[tuple[str | None, type], ...] = ((None, Pick),)
