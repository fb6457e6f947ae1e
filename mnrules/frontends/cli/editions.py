"""The ``mnrules editions`` commands: list, show and diff edition packs."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from ...content.ruleset import load_ruleset
from ...errors import MnrulesError
from .common import _existing, _rules


def cmd_editions_list(args: argparse.Namespace) -> int:
    from ...content.packs import list_packs

    packs = list_packs()
    shown = [p for p, qualified in packs.items() if p == qualified.split("/")[-1]
             or (p == qualified and qualified.split("/")[-1] not in packs)]
    for pack in shown:
        rules = load_ruleset(pack)
        base = rules.chain[1].split("/")[-2] if len(rules.chain) > 1 else "-"
        print(f"{pack:<4} {rules.language:<3} extends {base:<4} {rules.data.get('name', '')}"
              f" [{rules.game}]")
    for folder in getattr(args, "folders", None) or []:
        found = sorted(_existing(folder, "editions list", folder=True).rglob("pack.yaml"))
        if not found:
            raise MnrulesError(f"{folder}: no pack.yaml in this folder or below")
        for path in found:
            rules = load_ruleset(str(path))
            print(f"{path} {rules.language:<3} {rules.data.get('name', '')} [{rules.game}]")
    from ...content import games

    for problem in games.problems():   # a broken game hides only its own packs
        print(f"warning: {problem}", file=sys.stderr)
    return 0


def cmd_editions_show(args: argparse.Namespace) -> int:
    """A pack as its rules are played: every parameter with the values it may take (each
    described, with the books' sections; the default and the value in play marked), the
    cards it changes, removes or plays in a named variant, its board file and patches,
    its names and its readings."""
    import textwrap

    from ...content.ruleset import value_words

    rules = _rules(args)

    def wrap(text: str, indent: str, first: str = "") -> list[str]:
        lines = textwrap.wrap(text, 96, initial_indent=indent + first,
                              subsequent_indent=indent + ("    " if first else ""))
        return [line.replace("\u00a0", " ") for line in lines] or [indent + first]

    print(f"{rules.data.get('name', rules.pack)} [{rules.pack}, {rules.language}]")
    print("files: " + " <- ".join(rules.chain))
    source = rules.source
    board = getattr(rules.board, "file", "") or (str(source.board_file) if source else "")
    print(f"board: {board or '(none)'}")
    for step in (source.patches.get("board", []) if source else []):
        what = "" if step.verb == "delete" else f" {step.value!r}"
        print(f"  patched: {step.verb} {step.text}{what}  ({step.where})")
    print("phases: " + ", ".join(rules.name(p, "phases") for p in rules.phases))
    print("plugins: " + ", ".join(str(p) for p in rules.data.get("plugins", [])))
    print("parameters ('*': not the default; each value described: '>' in play, "
          "'(default)' the plugins' default):")
    for name in sorted(rules.params):
        p = rules.declared[name]
        value = rules.params[name]
        mark = "" if value == p.default else "  *"
        print(f"  {name} = {value!r}{mark}")
        for line in wrap(p.doc[:1].upper() + p.doc[1:] + ".", "      "):
            print(line)
        if p.options and not isinstance(p.default, list | dict):
            for option in p.options:
                chosen = "> " if option.value == value and type(option.value) is \
                    type(value) else "  "
                default = " (default)" if option.value == p.default else ""
                cite = f" [{option.cite}]".replace(" ", "\u00a0") if option.cite else ""
                for line in wrap(f"{option.doc}{cite}", "    ",
                                 f"{chosen}{option.value!r}{default}: "):
                    print(line)
        else:
            for line in wrap(value_words(p), "      ", "values: "):
                print(line)
    varied = {cid: c for cid, c in sorted(rules.cards.items()) if c.variants}
    if varied:
        print("card variants ('>' in play; a pack selects one with cards: {variant: "
              "{CARD: NAME}}):")
        for cid, card in varied.items():
            print(f"  {cid} ({card.name(rules.language)}, {card.file})")
            printed = card.text.get("en", "") if card.variant is None or \
                "text" not in card.variants[card.variant].change else ""
            for name, note in (("default", printed or "the card as its file prints it"),
                               *((v.name, v.note) for v in card.variants.values())):
                chosen = "> " if (card.variant or "default") == name else "  "
                for line in wrap(note, "    ", f"{chosen}{name}: "):
                    print(line)
    changed = [] if source is None else [
        *(f"{cid}: variant {name} ({where})" for cid, (name, where)
          in sorted(source.card_variants.items())),
        *(f"{cid}: overridden ({src.at(('cards', 'override', cid))})"
          for cid, (_, _, src) in sorted(source.card_overrides.items())),
        *(f"{cid}: removed ({where})" for cid, where in sorted(source.removed_at.items())),
        *(f"added: the cards of {folder}" for folder in source.card_dirs)]
    if changed:
        print("cards this pack changes:")
        for line in changed:
            print(f"  {line}")
    kinds = {k: v for k, v in rules.names_by_kind.items() if k}
    if kinds:
        print("names by kind: " + "; ".join(
            f"{kind} ({', '.join(list(v.values())[:3])}{', ...' if len(v) > 3 else ''})"
            for kind, v in kinds.items()))
    readings = rules.data.get("readings") or {}
    if readings:
        print("readings chosen where the book is ambiguous:")
        for key, text in readings.items():
            print(f"  {key}: {text}")
    return 0


def edition_diff(a: Any, b: Any) -> list[list[str]]:
    """Rows (what, a, b) of everything that differs between two rule sets."""
    rows: list[list[str]] = []

    def told(rules: Any, name: str, value: Any) -> str:
        """A parameter's value as its declaration describes it, with the books'
        sections ('plus_hit: +1 hit scored, and one enemy hit less [UK 4.2]')."""
        declared = rules.declared.get(name)
        for option in getattr(declared, "options", ()) or ():
            if option.value == value and type(option.value) is type(value):
                cite = f" [{option.cite}]" if option.cite else ""
                return f"{value!r}: {option.doc}{cite}"
        return repr(value)
    for name in sorted(set(a.params) | set(b.params)):
        va, vb = a.params.get(name), b.params.get(name)
        if va != vb:
            rows.append([f"param {name}", told(a, name, va), told(b, name, vb)])
    for cid in sorted(set(a.cards) | set(b.cards)):
        ca, cb = a.cards.get(cid), b.cards.get(cid)
        if ca is None or cb is None:
            rows.append([f"card {cid}", "present" if ca else "absent",
                         "present" if cb else "absent"])
            continue
        if (ca.effects or "").split() != (cb.effects or "").split():
            rows.append([f"card {cid} script", *(
                (f"(variant {c.variant}) " if c.variant else "") + " ".join(
                    (c.effects or "").split()) for c in (ca, cb))])
        if ca.bonuses != cb.bonuses:
            rows.append([f"card {cid} bonuses", str(ca.bonuses), str(cb.bonuses)])
    for key in ("plugins", "phases"):
        if a.data.get(key) != b.data.get(key):
            rows.append([key, str(a.data.get(key)), str(b.data.get(key))])
    if a.board.start_titles != b.board.start_titles:
        rows.append(["setup: starting titles", str(a.board.start_titles),
                     str(b.board.start_titles)])
    if a.board.file != b.board.file:
        rows.append(["board", a.board.file, b.board.file])
    patches = [[f"{s.verb} {s.text}" + ("" if s.verb == "delete" else f" {s.value!r}")
                for s in (r.source.patches.get("board", []) if r.source else [])]
               for r in (a, b)]
    if patches[0] != patches[1]:
        rows.append(["board patches", *("; ".join(p) or "none" for p in patches)])
    kinds = [k for k in dict.fromkeys([*a.names_by_kind, *b.names_by_kind])]
    names = [(kind, i) for kind in kinds for i in dict.fromkeys(
        [*a.names_by_kind.get(kind, {}), *b.names_by_kind.get(kind, {})])
        if a.name(i, kind or None) != b.name(i, kind or None)]
    for kind in kinds:  # every name that differs, a row per kind
        ids = [i for k, i in names if k == kind]
        if ids:
            rows.append([f"names: {kind or 'other'} ({len(ids)})",
                         *(", ".join(r.name(i, kind or None) for i in ids) for r in (a, b))])
    ra, rb = (r.data.get("readings") or {} for r in (a, b))
    for key in sorted(set(ra) | set(rb)):
        if ra.get(key) != rb.get(key):
            rows.append([f"reading {key}", *(str(r.get(key, "(none)")) for r in (ra, rb))])
    return rows


def _label(arg: str, rules: Any) -> str:
    """What a rule set is called in a diff: a file given by its path, a pack by its id."""
    p = Path(arg)
    if p.suffix in (".yaml", ".yml") or p.is_dir():
        own = rules.pack == p.stem or (p.name == "pack.yaml" and p.parent.name == rules.pack)
        return p.name if own else f"{p.name} (on {rules.pack})"
    return str(rules.pack)


def _table(rows: list[list[str]], headers: list[str], width: int = 100) -> str:
    try:
        from rich.console import Console
        from rich.table import Table
    except ImportError:
        out = [" | ".join(headers), " | ".join("---" for _ in headers)]
        out += [" | ".join(r) for r in rows]
        return "\n".join(out)
    import io

    table = Table(*headers, show_lines=True)
    for r in rows:
        table.add_row(*r)
    buf = io.StringIO()
    Console(file=buf, width=width, force_terminal=False).print(table)
    return buf.getvalue().rstrip()


def cmd_editions_diff(args: argparse.Namespace) -> int:
    a, b = load_ruleset(args.a), load_ruleset(args.b)
    rows = edition_diff(a, b)
    la, lb = _label(args.a, a), _label(args.b, b)
    if la == lb:
        la, lb = str(args.a), str(args.b)
    print(f"{la} vs {lb}: {len(rows)} difference(s)")
    print(_table(rows, ["", la, lb]))
    measured = [line for found in a.hook.mn_compare(a=a, b=b) for line in found]
    if measured:
        print("measured exactly:")
        for line in measured:
            print(f"  {line}")
    return 0


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    ed = sub.add_parser("editions", help="edition packs")
    esub = ed.add_subparsers(dest="editions_command", required=True)
    el = esub.add_parser("list", help="the installed games' packs (and those in FOLDERs)")
    el.add_argument("folders", nargs="*", metavar="FOLDER",
                    help="also list the packs (pack.yaml files) in this folder and below, "
                         "such as a game written as one .py file beside its pack")
    el.set_defaults(func=cmd_editions_list)
    es = esub.add_parser("show", help="a pack's parameters, plugins and readings")
    es.add_argument("edition")
    es.add_argument("--variant", default=None)
    es.set_defaults(func=cmd_editions_show)
    edf = esub.add_parser("diff", help="what differs between two packs, measured")
    edf.add_argument("a")
    edf.add_argument("b")
    edf.set_defaults(func=cmd_editions_diff)
