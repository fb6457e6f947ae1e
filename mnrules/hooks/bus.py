"""The event bus: a pluggy plugin manager that also keeps, for the three effect hooks,
a flat list of implementations per quantity or event kind.

A plugin may declare what it answers — ``MODIFIES`` (quantities), ``TRIGGERED_BY`` and
``REPLACES`` (event kinds), as sets — and is then only called for those; a plugin that
declares nothing is called for everything, as pluggy would. The lists are rebuilt
whenever a plugin is registered or unregistered. With ``flat = False`` every call goes
through pluggy's own hook caller instead (the benchmarks compare the two).

Every name the bus routes is checked against the rules' contract
(:mod:`mnrules.hooks.contract`) the first time it meets it, when it builds that name's list: a
fold of an undeclared quantity, a perform of an undeclared event, is refused, naming the
nearest declared name. Later calls find the list built and check nothing.
:meth:`Bus.check_emit` does the same for events only emitted, and :func:`check_routes`
checks the plugins' ``MODIFIES``/``TRIGGERED_BY``/``REPLACES`` sets.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any, TypeVar, overload

import pluggy

from ..content.yamlsource import suggest
from .contract import Contract, ContractError

Impl = Callable[..., Any]
ROUTES = {"mn_modifiers": "MODIFIES", "mn_triggers": "TRIGGERED_BY",
          "mn_replacements": "REPLACES"}
USES = {"mn_modifiers": "game.fold", "mn_triggers": "game.perform",
        "mn_replacements": "game.perform"}


F = TypeVar("F", bound=Callable[..., object])
CardRoute = tuple[bool, list[tuple[Impl, str, str]]]
"""A route of the decision loop: whether any implementation is a card, and each
implementation with its card ("" for none) and holder key (:meth:`Bus.card_route`)."""
CallRoute = tuple[bool, list[tuple[Impl, str, str, tuple[str, ...]]]]
"""The same for a hook of game and player, with the arguments each implementation takes."""


class ImplMarker:
    """pluggy's ``@hookimpl``, which also marks a function compiled by mypyc (the optional
    compiled core, docs/speed.md): such a function takes no attribute and has no code
    object, from which pluggy reads the arguments to pass, so it is marked through a
    plain-Python function of the same required arguments that calls it."""

    def __init__(self, project: str) -> None:
        self.project_name = project
        self._mark = pluggy.HookimplMarker(project)

    @overload
    def __call__(self, function: F, **opts: Any) -> F: ...

    @overload
    def __call__(self, function: None = None, **opts: Any) -> Callable[[F], F]: ...

    def __call__(self, function: Any = None, **opts: Any) -> Any:
        if function is None:
            return lambda f: self(f, **opts)
        if not hasattr(function, "__code__") and callable(function):
            function = python_wrapper(function)
        return self._mark(function, **opts)


def python_wrapper(function: Callable[..., Any], names: tuple[str, ...] | None = None,
                   name: str | None = None) -> Callable[..., Any]:
    """A plain-Python function with ``function``'s required parameters (by name) that
    calls it with them: what pluggy can read. Without ``names``, ``function`` must have
    a signature (mypyc's functions carry their text signature); a bound method of a
    compiled class is given its hook's parameter ``names`` (and the hook's ``name``)."""
    if names is None:
        sig = inspect.signature(function)
        names = tuple(p.name for p in sig.parameters.values()
                      if p.default is p.empty and p.kind in (p.POSITIONAL_OR_KEYWORD,
                                                             p.POSITIONAL_ONLY))
    if not all(n.isidentifier() for n in names):  # pragma: no cover - a broken signature
        raise TypeError(f"cannot wrap {function!r}: parameters {names}")
    args = ", ".join(names)
    name = name or function.__name__
    scope: dict[str, Any] = {"_compiled": function}
    exec(f"def {name}({args}):\n    return _compiled({args})\n", scope)
    wrapper: Callable[..., Any] = scope[name]
    wrapper._mn_target = function  # type: ignore[attr-defined]  # what the bus calls
    wrapper.__doc__ = function.__doc__
    wrapper.__module__ = getattr(function, "__module__", None) or __name__
    wrapper.__qualname__ = getattr(function, "__qualname__", name)
    return wrapper


def target(function: Impl) -> Impl:
    """What the bus's own lists call for an implementation: the compiled function or the
    card's method itself, not the plain-Python wrapper pluggy was given to read its
    parameters (:func:`python_wrapper`; one Python call fewer per answer)."""
    found: Impl = getattr(function, "_mn_target", function)
    return found


class Bus(pluggy.PluginManager):
    def __init__(self, project: str) -> None:
        super().__init__(project)
        self.version = 0
        self.flat = True
        self._routes: dict[tuple[str, str], list[Impl]] = {}
        self._routes_version = -1
        self._calls: dict[str, list[tuple[Impl, tuple[str, ...]]] | None] = {}
        self._calls_version = -1
        self._contract: Contract | None = None
        self._contract_version = -1
        # the event kinds emit has checked, this version (Game.emit reads it first: an
        # event kind checked once costs no call after)
        self.emittable: set[str] = set()
        self._new_version()

    def _new_version(self) -> None:
        """Forget what was routed: a plugin came or went. (The card-aware routes are new
        tables, never cleared in place: a loop holding one reads a whole old table.)"""
        self.emittable.clear()
        # The decision loop's routes (Game.fold, perform, ask), one table per hook, read
        # by the loop as attributes: a route is one dictionary lookup, with no method
        # call on the bus (a generic call with its arguments parsed, under the compiled
        # core). Each entry: whether any implementation is a card, and every
        # implementation with the card it is ("" for none) and whose holding of it
        # decides whether it answers (Game._unheld): every game on this bus shares them.
        self.folds: dict[str, CardRoute] = {}
        self.replaced: dict[str, CardRoute] = {}
        self.triggered: dict[str, CardRoute] = {}
        self.asked: dict[str, CallRoute] = {}
        # the 'holder' words (copies of a card's power) of every card routed so far: while
        # one may name a holder, the loop asks every card (Game._held)
        self.holder_words: tuple[Any, ...] = ()

    def register(self, plugin: object, name: str | None = None) -> str | None:
        out = super().register(plugin, name)
        self.version += 1
        self._new_version()
        return out

    def unregister(self, plugin: object | None = None, name: str | None = None) -> Any:
        out = super().unregister(plugin, name)
        self.version += 1
        self._new_version()
        return out

    # -- the decision loop's routes, with the cards they call ---------------------------------
    def card_route(self, hook: str, key: str) -> CardRoute:
        """:meth:`route` of an effect hook for ``key``, each implementation with its card
        and holder key, kept in that hook's table (:attr:`folds`, :attr:`replaced`,
        :attr:`triggered`)."""
        table = self.folds if hook == "mn_modifiers" else \
            self.replaced if hook == "mn_replacements" else self.triggered
        found = table.get(key)
        if found is None:
            entries = self._cards_of(self.route(hook, key), hook, key)
            found = table[key] = (any(card for _, card, _ in entries), entries)
        return found

    def card_calls(self, hook: str) -> CallRoute | None:
        """:meth:`plain`'s implementations of ``hook`` (a hook of game and player) with
        their cards and the arguments each takes, kept in :attr:`asked`; None if the
        call must go through pluggy (not kept: :meth:`plain` answers it, and a bus made
        flat again lists the hook then)."""
        found = self.asked.get(hook)
        if found is not None:
            return found
        impls = self.plain(hook)
        if impls is None:
            return None
        listed = [(fn, card, key, names) for (fn, card, key), (_, names)
                  in zip(self._cards_of([fn for fn, _ in impls], hook, ""), impls,
                         strict=True)]
        found = self.asked[hook] = (any(e[1] for e in listed), listed)
        return found

    def _cards_of(self, fns: list[Any], hook: str, key: str) -> list[tuple[Any, str, str]]:
        """Each implementation with the card it belongs to (a plugin naming its
        ``card_id``, the effect language's compiled cards) and the key of whose holding
        decides whether it answers: the player under that key in a fold's context, the
        event's own player for "*", anyone for ""; a plain plugin answers always."""
        out: list[tuple[Any, str, str]] = []
        for fn in fns:
            owner = getattr(fn, "__self__", None)
            asks = getattr(owner, "card_holder_key", None)
            card = getattr(owner, "card_id", "")
            if asks is None or not isinstance(card, str) or not card:
                out.append((fn, "", ""))
                continue
            words = tuple(getattr(owner, "others", ()))
            if words != self.holder_words:
                self.holder_words = self.holder_words + tuple(
                    w for w in words if w not in self.holder_words)
            out.append((fn, card, str(asks(hook, key))))
        return out

    @property
    def contract(self) -> Contract | None:
        """The rules' contract as the registered plugins declare it (rebuilt after a plugin
        comes or goes, and then checked against their routes); None on a bus without the
        ``mn_contract`` hook, which checks nothing."""
        if self._contract_version != self.version:
            self._contract = None
            if hasattr(self.hook, "mn_contract"):
                contract = Contract.of(self)
                check_routes(self, contract)
                self._contract = contract
            self._contract_version = self.version
        return self._contract

    def check_contract(self) -> Contract:
        """The contract, built and checked now (call it when a rule set is assembled): a
        name declared twice, or a ``MODIFIES``/``TRIGGERED_BY``/``REPLACES`` set naming
        an undeclared one, is refused here rather than at the first fold."""
        contract = self.contract
        if contract is None:
            raise ContractError("this bus has no mn_contract hook (add mnrules.hooks.hookspecs)")
        return contract

    def check_emit(self, kind: str) -> None:
        """Refuse an event kind no plugin declares (``Game.emit`` calls this first)."""
        if kind not in self.emittable:
            contract = self.contract
            if contract is not None:
                contract.event(kind, "game.emit")
            self.emittable.add(kind)

    def route(self, hook: str, key: str) -> list[Impl]:
        """The implementations of ``hook`` that answer for ``key``, in pluggy's order."""
        if self._routes_version != self.version:
            self._routes.clear()
            self._routes_version = self.version
        found = self._routes.get((hook, key))
        if found is None:
            contract = self.contract
            if contract is not None:  # a name met for the first time: is it declared?
                if hook == "mn_modifiers":
                    contract.quantity(key, USES[hook])
                else:
                    contract.event(key, USES[hook], performed=True)
            attr = ROUTES[hook]
            found = []
            for impl in reversed(getattr(self.hook, hook).get_hookimpls()):
                declared = getattr(impl.plugin, attr, None)
                if declared is None or key in declared:
                    found.append(target(impl.function))
            self._routes[(hook, key)] = found
        return found

    def call(self, hook: str, **kwargs: Any) -> Any:
        """``hook``'s results as pluggy's caller gives them (a list of every non-None
        answer, in its order; a ``firstresult`` hook's one answer), without its dispatch
        per call: the implementations and the arguments each takes are listed once per
        bus version. A hook with a wrapper, or a bus not ``flat``, goes through pluggy.
        (Typed ``Any`` as pluggy's own caller is: a compiled bus would otherwise refuse
        a first result that is no list.)"""
        impls = self.plain(hook)
        if impls is None:
            return getattr(self.hook, hook)(**kwargs)
        out: list[Any] = []
        for fn, names in impls:
            r = fn(*[kwargs[n] for n in names])
            if r is not None:
                out.append(r)
        return out

    def first(self, hook: str, **kwargs: Any) -> Any:
        """A ``firstresult`` hook's answer as pluggy's caller gives it (the first
        non-None answer, in its order, or None), without its dispatch per call (the
        battle roll and its odds); a hook with a wrapper, or a bus not ``flat``, goes
        through pluggy."""
        if self._calls_version != self.version:
            self._calls.clear()
            self._calls_version = self.version
        key = hook + " (first)"
        impls = self._calls.get(key, ())
        if impls == ():
            impls = self._plain_impls(hook, first=True)
            self._calls[key] = impls
        if impls is None or not self.flat:
            return getattr(self.hook, hook)(**kwargs)
        for fn, names in impls:
            r = fn(*[kwargs[n] for n in names])
            if r is not None:
                return r
        return None

    def plain(self, hook: str) -> list[tuple[Impl, tuple[str, ...]]] | None:
        """What :meth:`call` calls for ``hook`` (each implementation with the names of
        the arguments it takes), or None if the call must go through pluggy."""
        if not self.flat:
            return None
        if self._calls_version != self.version:
            self._calls.clear()
            self._calls_version = self.version
        if hook not in self._calls:
            self._calls[hook] = self._plain_impls(hook)
        return self._calls[hook]

    def _plain_impls(self, hook: str,
                     first: bool = False) -> list[tuple[Impl, tuple[str, ...]]] | None:
        caller = getattr(self.hook, hook)
        firstresult = caller.spec is not None and bool(caller.spec.opts.get("firstresult"))
        if firstresult != first:
            return None   # (a list for call, one answer for first: pluggy's own says)
        found = []
        for impl in reversed(caller.get_hookimpls()):
            if impl.hookwrapper or getattr(impl, "wrapper", False) or impl.kwargnames:
                return None
            found.append((target(impl.function), tuple(impl.argnames)))
        return found

    def collect(self, hook: str, key: str, **kwargs: Any) -> list[Any]:
        """Every non-None result of ``hook`` for ``key`` (flat lists, or pluggy's caller)."""
        if not self.flat:
            self.route(hook, key)  # the name is checked as on the flat path
            results: list[Any] = getattr(self.hook, hook)(**kwargs)
            return results
        out = []
        for fn in self.route(hook, key):
            r = fn(**kwargs)
            if r is not None:
                out.append(r)
        return out


def check_routes(bus: pluggy.PluginManager, contract: Contract) -> None:
    """Refuse a plugin whose ``MODIFIES``, ``TRIGGERED_BY`` or ``REPLACES`` names something
    the contract does not declare (a quantity; an event that is performed): such a plugin
    would silently never be called for it. All problems are reported at once."""
    problems: list[str] = []
    for name, plugin in bus.list_name_plugin():
        for hook, attr in ROUTES.items():
            declared = getattr(plugin, attr, None)
            if declared is None:
                continue
            where = f"plugin {name!r}: {attr}"
            if isinstance(declared, str | bytes) or not isinstance(declared, set | frozenset):
                problems.append(f"{where} must be a set of names, not {declared!r}")
                continue
            for key in sorted(declared, key=str):
                if hook == "mn_modifiers":
                    if key not in contract.quantities:
                        hint = suggest(str(key), contract.quantities)
                        problems.append(f"{where} names {key!r}, which no plugin declares "
                                        f"as a quantity" + _hint(hint))
                else:
                    event = contract.events.get(key)
                    if event is None:
                        hint = suggest(str(key), contract.events)
                        problems.append(f"{where} names {key!r}, which no plugin declares "
                                        f"as an event" + _hint(hint))
                    elif not event.performed:
                        problems.append(f"{where} names {key!r}, an event {event.owner!r} "
                                        f"only emits: nothing performs it, so this plugin "
                                        f"would never be called for it")
    if problems:
        raise ContractError("the rules' contract is broken (declare names with "
                            "mn_contract, see mnrules.hooks.contract):\n  " + "\n  ".join(problems))


def _hint(hint: str | None) -> str:
    return f"; did you mean {hint!r}?" if hint else ""
