"""``docs/rules.md``: the rules' contract of a rule set, phase by phase.

For each phase of the pack's ``phases`` list, the plugins that take part in it (the one
providing its step, and those whose ``Part`` names it) with their steps (``mn_steps``),
decision kinds, the quantities they fold, the events they perform or emit (their
``mn_contract``) and their parameters (``mn_params``); then the plugins that serve the
whole game, then the kernel. ``mnrules rules --edition PACK --markdown > docs/rules.md``
(or ``python -m mnrules.tools.rules_doc [PACK]``) writes it; ``tests/test_contract.py`` keeps
it current. Without ``--markdown`` the command prints the same text without its marks.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from ..hooks.contract import KERNEL, Contract, DecisionKind, EventKind, Pairs, Quantity

if TYPE_CHECKING:
    from ..content.ruleset import Ruleset
    from ..core.engine import Param


def _cell(text: str) -> str:
    return " ".join(text.split())


def _code(value: Any) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return f"`{text}`"


def _pairs(label: str, pairs: Pairs) -> str:
    if not pairs:
        return ""
    return f" {label}: " + "; ".join(f"`{k}` {_cell(v)}" for k, v in pairs) + "."


def _by_plugin(rules: Ruleset, hook: str) -> dict[str, Any]:
    """Each plugin's own answer to an argument-less hook, by plugin name, in the order
    the plugins were registered."""
    out: dict[str, Any] = {}
    for impl in getattr(rules.hook, hook).get_hookimpls():
        answer = impl.function()
        if answer:
            out[impl.plugin_name] = answer
    return out


def _quantity(q: Quantity) -> str:
    facts = [q.value]
    if q.subject:
        facts.append(f"whose: `{q.subject}`")
    if q.word:
        facts.append(f"card word `{q.word}`")
    return (f"  - `{q.name}` ({', '.join(facts)}): {_cell(q.meaning)}"
            + _pairs("Context", q.context))


def _event(e: EventKind) -> str:
    facts = ["performed" if e.performed else "emitted only"]
    if e.reported:
        facts.append("once done: triggers only")
    if e.word:
        facts.append(f"card word `{e.word}`")
    player = f" Player: {_cell(e.player)}." if e.player else ""
    return (f"  - `{e.name}` ({', '.join(facts)}): {_cell(e.meaning)}{player}"
            + _pairs("Data", e.data))


def _param(p: Param) -> str:
    facts = [f"default {_code(p.default)}"]
    if p.choices:
        facts.append(f"choices {', '.join(_code(c) for c in p.choices)}")
    low, high = p.minimum, p.maximum
    if low is not None and high is not None:
        facts.append(f"numbers from {low} to {high}")
    elif low is not None or high is not None:
        facts.append(f"numbers at least {low}" if low is not None else
                     f"numbers at most {high}")
    if p.length:
        facts.append(f"lists of {p.length[0]} to {p.length[1]} items")
    return f"  - `{p.name}` ({'; '.join(facts)}): {_cell(p.doc)}"


def _section(owner: str, contract: Contract, steps: Iterable[str],
             params: list[Param]) -> list[str]:
    part = contract.parts.get(owner)
    lines = [f"### `{owner}`", ""]
    if part is not None:
        lines += [_cell(part.meaning), ""]
    mine = contract.owned_by(owner)
    if steps:
        lines.append("- Steps: " + ", ".join(f"`{s}`" for s in steps))
    decisions = [d for d in mine if isinstance(d, DecisionKind)]
    if decisions:
        lines.append("- Decisions:")
        lines += [f"  - `{d.name}`: {_cell(d.meaning)}" for d in decisions]
    quantities = [q for q in mine if isinstance(q, Quantity)]
    if quantities:
        lines.append("- Quantities it folds (`game.fold`):")
        lines += [_quantity(q) for q in quantities]
    events = [e for e in mine if isinstance(e, EventKind)]
    if events:
        lines.append("- Events it performs (`game.perform`) or only emits (`game.emit`):")
        lines += [_event(e) for e in events]
    if params:
        lines.append("- Parameters (`mn_params`):")
        lines += [_param(p) for p in params]
    if lines[-1] != "":
        lines.append("")
    return lines


def render_rules_doc(rules: Ruleset) -> str:
    """The Markdown text of ``docs/rules.md`` for a rule set."""
    contract = rules.pm.contract
    if contract is None:
        raise ValueError("this rule set's bus has no mn_contract hook")
    steps: dict[str, dict[str, Any]] = _by_plugin(rules, "mn_steps")
    params: dict[str, list[Param]] = _by_plugin(rules, "mn_params")
    kernel = list(dict.fromkeys(d.owner for d in KERNEL))
    owners = [name for name, _ in rules.pm.list_name_plugin()]
    owners += [o for o in contract.owners if o not in owners]
    owners = [o for o in owners if o in steps or o in params or contract.owned_by(o)]

    def phase_of(owner: str) -> str:
        part = contract.parts.get(owner)
        if part is not None and part.phase in rules.phases:
            return part.phase
        return next((s for s in steps.get(owner, ()) if s in rules.phases), "")

    def section(owner: str) -> list[str]:
        return _section(owner, contract, steps.get(owner, {}), params.get(owner, []))

    lines = [f"# The rules' contract: {rules.data.get('name', rules.pack)}", "",
             "Every name the rule plugins share, declared once by the plugin that owns it "
             "(its `mn_contract` hook, `mnrules/hooks/contract.py`): the quantities folded "
             "through modifiers (`game.fold`), the events performed (`game.perform`: "
             "replacements and triggers act on them, card scripts may react) or only "
             "emitted (`game.emit`: logs and other observers see them), and the kinds of "
             "decisions asked; with each plugin's steps and parameters. Folding, "
             "performing or emitting a name no plugin declares is refused.", "",
             f"Generated from the `{rules.pack}` pack by `mnrules rules --edition "
             f"{rules.pack} --markdown > docs/rules.md`; do not edit by hand.", ""]
    placed: set[str] = set()
    for number, phase in enumerate(rules.phases, 1):
        lines += [f"## Phase {number}: {rules.name(phase, 'phases')} (`{phase}`)", ""]
        here = [o for o in owners if o not in kernel and phase_of(o) == phase]
        here.sort(key=lambda o: phase not in steps.get(o, {}))  # the phase's step first
        for owner in here:
            lines += section(owner)
            placed.add(owner)
    rest = [o for o in owners if o not in kernel and o not in placed]
    if rest:
        lines += ["## Throughout the game", ""]
        for owner in rest:
            lines += section(owner)
    lines += ["## The kernel", ""]
    for owner in kernel:
        lines += section(owner)
    return "\n".join(lines).rstrip("\n") + "\n"


def plain(markdown: str) -> str:
    """The rules page for a terminal: the same text without its Markdown marks (headings
    underlined, no backticks)."""
    out: list[str] = []
    for line in markdown.splitlines():
        text = line.replace("`", "")
        marks = len(text) - len(text.lstrip("#"))
        if marks and text[marks:marks + 1] == " ":
            text = text[marks + 1:]
            out.append(text)
            if marks <= 2:
                out.append(("=" if marks == 1 else "-") * len(text))
            continue
        out.append(text)
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> None:
    from ..content.ruleset import load_ruleset
    args = sys.argv[1:] if argv is None else argv
    sys.stdout.write(render_rules_doc(load_ruleset(args[0] if args else None)))


if __name__ == "__main__":
    main()
