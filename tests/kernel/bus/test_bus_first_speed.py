"""Bus.first answers a ``firstresult`` hook as pluggy's caller would — the first non-None
answer in pluggy's order, or None — and goes through pluggy for what it does not list
itself (a wrapper, a bus not flat), and anew after a plugin comes or goes."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import permutations
from typing import Any

import pluggy
import pytest

from mnrules.hooks.bus import Bus
from test_bus_call import bus_of

spec = pluggy.HookspecMarker("t")
impl = pluggy.HookimplMarker("t")


class Spec:
    @spec(firstresult=True)
    def roll(self, game: Any, battle: str) -> str:  # type: ignore[empty-body]
        ...

    @spec
    def offers(self, player: str) -> list[str]:  # type: ignore[empty-body]
        ...


class Plain:
    @impl
    def roll(self, battle: str) -> str:
        return f"plain:{battle}"


class Silent:
    @impl
    def roll(self, game: Any, battle: str) -> None:
        return None


class Early:
    @impl(tryfirst=True)
    def roll(self, game: Any) -> str:
        return f"early:{game}"


class Late:
    @impl(trylast=True)
    def roll(self, battle: str) -> str:
        return "late"


class Wrapper:
    @impl(wrapper=True)
    def roll(self, battle: str) -> Iterator[None]:
        result = yield
        return f"wrapped {result}"  # type: ignore[misc]


def bus(*plugins: object) -> Bus:
    return bus_of(Spec, *plugins)


KINDS = (Plain, Silent, Early, Late)


@pytest.mark.parametrize("order", [p for n in range(len(KINDS) + 1)
                                   for p in permutations(KINDS, n)])
def test_first_is_pluggys_answer(order: tuple[type, ...]) -> None:
    b = bus(*(k() for k in order))
    assert b.first("roll", game="g", battle="b") == b.hook.roll(game="g", battle="b")


def test_a_wrapper_or_a_bus_not_flat_goes_through_pluggy() -> None:
    b = bus(Plain(), Wrapper())
    assert b.first("roll", game="g", battle="b") == "wrapped plain:b"
    b = bus(Plain(), Silent())
    b.flat = False
    assert b.first("roll", game="g", battle="b") == "plain:b"


def test_a_plugin_registered_later_is_asked() -> None:
    b = bus(Silent())
    assert b.first("roll", game="g", battle="b") is None
    b.register(Late())
    assert b.first("roll", game="g", battle="b") == "late"
    b.register(Early(), name="early")
    assert b.first("roll", game="g", battle="b") == "early:g"
    b.unregister(name="early")
    assert b.first("roll", game="g", battle="b") == "late"


def test_call_and_first_keep_their_own_lists() -> None:
    class Offer:
        @impl
        def offers(self, player: str) -> list[str]:
            return [player]

    b = bus(Plain(), Offer())
    assert b.call("offers", player="p") == [["p"]]
    assert b.first("roll", game="g", battle="b") == "plain:b"
    assert b.call("offers", player="q") == [["q"]]
