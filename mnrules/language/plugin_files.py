"""A plugin file a modder writes beside his cards (a variant's ``plugins: [./words.py]``):
checked as it is registered, so that a misspelt hook is refused with what to fix rather
than silently never called.

Every function of the plugin whose name starts with ``mn_`` is meant as a hook: one that
names no hook the rule set knows (``mn_vocabluary``), or a hook written without its
``@hookimpl`` mark (pluggy would never call it), is refused, naming the plugin, the
function and the nearest hook.
"""

from __future__ import annotations

import inspect
from typing import Any

from ..content.yamlsource import did_you_mean
from ..errors import PackError

PREFIX = "mn_"


def check_hook_names(pm: Any, plugin: object, name: str, where: str,
                     key: str = "plugins") -> None:
    """Refuse ``plugin`` (registered on ``pm`` as ``name``, listed at ``where`` under the
    pack's ``key``) if one of its ``mn_`` functions is no hook or is not marked as one."""
    # pluggy makes a caller for any name a plugin implements: a hook is one with a spec
    hooks = sorted(h for h, caller in vars(pm.hook).items()
                   if h.startswith(PREFIX) and getattr(caller, "spec", None) is not None)
    problems = []
    for attr in sorted(dir(plugin)):
        if not attr.startswith(PREFIX):
            continue
        fn = getattr(plugin, attr, None)
        if not callable(fn):
            continue
        if inspect.ismodule(plugin) and getattr(fn, "__module__", None) != plugin.__name__:
            continue   # imported from elsewhere: that module's own business
        marked = getattr(fn, f"{pm.project_name}_impl", None) is not None
        if attr not in hooks:
            problems.append(f"{attr} is no hook" + did_you_mean(
                attr, hooks, "; the hooks are listed in mnrules/hooks/hookspecs.py"))
        elif not marked:
            problems.append(f"{attr} is not marked @hookimpl (from mnrules.hooks.hookspecs import "
                            f"hookimpl), so it would never be called")
    if problems:
        raise PackError(f"{where}: {key}: {name!r}: " + "; ".join(problems))
