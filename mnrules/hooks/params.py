"""Rule parameters: what an edition pack may set, and the values each accepts.

Kept apart from the decision loop (:mod:`mnrules.core.engine`, which re-exports
:class:`Param`) so that the loop may be compiled (docs/speed.md) while this, read once
per rule set, stays plain Python (a class nested in a class is beyond mypyc).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Param:
    """A rule parameter an edition pack may set, and the values it accepts.

    A value must have the default's shape: its type, and for a list or a mapping the
    type of the default's items (a whole number may stand for a decimal). Besides:

    * ``choices``: the value, or every text or number in a list or mapping value, is
      one of these;
    * ``minimum`` / ``maximum``: every number in the value lies within them;
    * ``length``: every list in the value has from ``length[0]`` to ``length[1]`` items;
    * a mapping has exactly the default's keys, or (``open_keys``) at least those;
    * ``resources``: every text in the value names a resource of the pack (coin,
      legendary, one of its goods), or ``a|b``, a choice of them, or a word of the default.

    A choice may be given as ``Param.Option(value, doc, cite)``: what choosing it means
    and where the books say so (``"FR 4.3.3"``), as ``mnrules editions show`` lists it.
    Once built, ``choices`` holds the plain values and ``options`` the described ones
    (:meth:`option` finds a value's).
    """

    @dataclass(frozen=True, slots=True)
    class Option:
        """One value a parameter may take: what it means, and the books' sections."""

        value: Any
        doc: str
        cite: str = ""

    name: str
    default: Any
    doc: str
    choices: tuple[Any, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    length: tuple[int, int] | None = None
    open_keys: bool = False
    resources: bool = False
    options: tuple[Param.Option, ...] = ()

    def __post_init__(self) -> None:
        given = tuple(c for c in self.choices if isinstance(c, Param.Option))
        if given:
            known = {repr(o.value) for o in self.options}
            options = (*self.options, *(o for o in given if repr(o.value) not in known))
            object.__setattr__(self, "options", options)
            object.__setattr__(self, "choices", tuple(
                c.value if isinstance(c, Param.Option) else c for c in self.choices))

    def option(self, value: Any) -> Param.Option | None:
        """The described choice ``value`` is (by type and value: True is not 1), if any."""
        return next((o for o in self.options if type(o.value) is type(value)
                     and o.value == value), None)
