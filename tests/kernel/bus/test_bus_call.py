"""Bus.call answers a hook as pluggy's caller would — the same results in the same order,
each implementation given only the arguments it names — and goes through pluggy for what
it does not list itself (a wrapper), and again after a plugin comes or goes."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pluggy

from mnrules.hooks.bus import Bus

spec = pluggy.HookspecMarker("t")
impl = pluggy.HookimplMarker("t")


class Spec:
    @spec
    def offers(self, game: Any, player: str) -> list[str]:  # type: ignore[empty-body]
        ...


class Both:
    @impl
    def offers(self, game: Any, player: str) -> list[str]:
        return [f"both:{player}"]


class PlayerOnly:
    @impl
    def offers(self, player: str) -> list[str]:
        return [f"player:{player}"]


class Silent:
    @impl
    def offers(self, game: Any) -> None:
        return None


class First:
    @impl(tryfirst=True)
    def offers(self, player: str) -> str:
        return "first"


class Wrapper:
    @impl(wrapper=True)
    def offers(self, player: str) -> Iterator[None]:
        result = yield
        return [*result, "wrapped"]  # type: ignore[misc]


def bus_of(specs: type, *plugins: object) -> Bus:
    """A bus of the project "t" declaring ``specs``, with ``plugins`` registered."""
    b = Bus("t")
    b.add_hookspecs(specs)
    for p in plugins:
        b.register(p)
    return b


def bus(*plugins: object) -> Bus:
    return bus_of(Spec, *plugins)


def test_call_gives_what_pluggy_gives_in_its_order() -> None:
    b = bus(Both(), PlayerOnly(), Silent(), First())
    expected = b.hook.offers(game=None, player="Rome")
    assert b.call("offers", game=None, player="Rome") == expected
    assert expected == ["first", ["player:Rome"], ["both:Rome"]]


def test_call_sees_a_plugin_registered_later() -> None:
    b = bus(Both())
    assert b.call("offers", game=None, player="Rome") == [["both:Rome"]]
    extra = PlayerOnly()
    b.register(extra)
    assert b.call("offers", game=None, player="Rome") == [["player:Rome"], ["both:Rome"]]
    b.unregister(extra)
    assert b.call("offers", game=None, player="Rome") == [["both:Rome"]]


def test_a_wrapped_hook_goes_through_pluggy() -> None:
    b = bus(Both(), Wrapper())
    assert b.call("offers", game=None, player="Rome") == [["both:Rome"], "wrapped"]


def test_a_bus_not_flat_goes_through_pluggy() -> None:
    b = bus(Both(), PlayerOnly())
    b.flat = False
    assert b.call("offers", game=None, player="Rome") == b.hook.offers(game=None,
                                                                       player="Rome")


class ModifierSpec:
    @spec
    def mn_modifiers(self, game: Any, quantity: str, ctx: Any) -> Any:
        ...


class Tax:
    """Declares the quantity it modifies, as a rule plugin does."""

    MODIFIES = frozenset({"tax"})

    @impl
    def mn_modifiers(self, quantity: str) -> str:
        return f"tax sees {quantity}"


def test_collect_asks_only_the_declaring_plugins_unless_the_bus_is_not_flat() -> None:
    """The flat lists route a quantity to the plugins declaring it; a bus not flat is
    pluggy's own call, which asks every implementation (the debugging path)."""
    b = bus_of(ModifierSpec, Tax())
    assert b.collect("mn_modifiers", "toll", game=None, quantity="toll", ctx={}) == []
    b.flat = False
    assert b.collect("mn_modifiers", "toll", game=None, quantity="toll",
                     ctx={}) == ["tax sees toll"]
