"""The ``mnrules scenario run`` command: scenario files run and their expectations
checked."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ...errors import MnrulesError
from .common import _existing


def cmd_scenario_run(args: argparse.Namespace) -> int:
    from ...tools.scenario import run

    files: list[Path] = []
    for p in args.files:
        path = _existing(p, "scenario")
        # a folder's scenarios, not the packs that may sit beside them (a test game's)
        files.extend(sorted(f for f in path.rglob("*.yaml") if f.name != "pack.yaml")
                     if path.is_dir() else [path])
    failed = total = unreadable = 0
    for file in files:
        try:
            for out in run(file):
                total += 1
                if out.ok:
                    print(f"ok    {file} [{out.label}] {out.name}")
                else:
                    failed += 1
                    print(f"FAIL  {file} [{out.label}] {out.name}")
                    for f in out.failures:
                        print(f"      {f}")
        except MnrulesError as exc:  # not a scenario as written: said, and the next file
            unreadable += 1
            print(f"mnrules: error: {exc}", file=sys.stderr)
        except Exception as exc:  # the runner itself failed on this file: no traceback
            from ...tools.scenario import crash_text

            unreadable += 1
            print(f"mnrules: error: {file}: the scenario runner failed: {crash_text(exc)}",
                  file=sys.stderr)
    print(f"{total - failed} passed, {failed} failed"
          + (f", {unreadable} file(s) not run" if unreadable else ""))
    return 2 if unreadable else 1 if failed else 0


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    sc = sub.add_parser("scenario", help="scenario files")
    scs = sc.add_subparsers(dest="scenario_command", required=True)
    scr = scs.add_parser("run", help="run scenario files and check their expectations "
                         "(docs/scenarios.md)")
    scr.add_argument("files", nargs="+", help="scenario files, or folders of them")
    scr.set_defaults(func=cmd_scenario_run)
