"""The event bus: a pluggy plugin manager that also keeps, for the three effect hooks,
a flat list of implementations per quantity or event kind.

A plugin may declare what it answers — ``MODIFIES`` (quantities), ``TRIGGERED_BY`` and
``REPLACES`` (event kinds), as sets — and is then only called for those; a plugin that
declares nothing is called for everything, as pluggy would. The lists are rebuilt
whenever a plugin is registered or unregistered. With ``flat = False`` every call goes
through pluggy's own hook caller instead (the benchmarks compare the two).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pluggy

Impl = Callable[..., Any]
ROUTES = {"mn_modifiers": "MODIFIES", "mn_triggers": "TRIGGERED_BY",
          "mn_replacements": "REPLACES"}


class Bus(pluggy.PluginManager):
    def __init__(self, project: str) -> None:
        super().__init__(project)
        self.version = 0
        self.flat = True
        self._routes: dict[tuple[str, str], list[Impl]] = {}
        self._routes_version = -1

    def register(self, plugin: object, name: str | None = None) -> str | None:
        out = super().register(plugin, name)
        self.version += 1
        return out

    def unregister(self, plugin: object | None = None, name: str | None = None) -> Any:
        out = super().unregister(plugin, name)
        self.version += 1
        return out

    def route(self, hook: str, key: str) -> list[Impl]:
        """The implementations of ``hook`` that answer for ``key``, in pluggy's order."""
        if self._routes_version != self.version:
            self._routes.clear()
            self._routes_version = self.version
        found = self._routes.get((hook, key))
        if found is None:
            attr = ROUTES[hook]
            found = []
            for impl in reversed(getattr(self.hook, hook).get_hookimpls()):
                declared = getattr(impl.plugin, attr, None)
                if declared is None or key in declared:
                    found.append(impl.function)
            self._routes[(hook, key)] = found
        return found

    def collect(self, hook: str, key: str, **kwargs: Any) -> list[Any]:
        """Every non-None result of ``hook`` for ``key`` (flat lists, or pluggy's caller)."""
        if not self.flat:
            results: list[Any] = getattr(self.hook, hook)(**kwargs)
            return results
        out = []
        for fn in self.route(hook, key):
            r = fn(**kwargs)
            if r is not None:
                out.append(r)
        return out
