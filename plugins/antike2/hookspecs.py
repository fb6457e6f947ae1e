"""The hooks Antike II's own plugins call on each other, beside the kernel's
(``mnrules.hooks.hookspecs``): the game adds them to the bus through its definition's
``hookspecs`` (``GAME`` in its package). Read with the kernel's module as the rules'
table of contents."""

from __future__ import annotations

from mnrules.hooks.hookspecs import hookspec


# --------------------------------------------------------------------------------------
# 1. The rondel space: what each action does
# --------------------------------------------------------------------------------------
@hookspec
def a2_actions() -> dict[str, str]:
    """The actions this plugin plays, by action id (a rondel space's action: ``marmor``,
    ``ferrum``, ``aurum``, ``templum``, ``militia``, ``scientia``, ``movere``) -> the name
    of the step that plays it (one of this plugin's ``mn_steps``).

    When a nation's marker enters a space, the rondel pushes that step with the frame
    ``{"nation": NATION, "action": ACTION}``; the step asks the action's decisions of
    ``NATION`` and returns ``DONE`` when the action is over. Two plugins may not answer
    for one action. A space whose action no plugin plays is still a legal space: entering
    it does nothing (the Movere space without the war plugins)."""
