"""Where a result file came from: enough to send it as evidence and to play it again.

Every result file (``simulate --out``, ``sweep``, ``rate``, ``skill``) carries the same
record, made here once: the command as typed, the engine's version and git commit (when
it runs from a checkout), a digest of the contents of the pack, of each variant and of
the card set, the bots with their settings, the seeds and the round cap. A digest is of
contents, not of paths, so that the same pack read from another folder gives the same one.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import shlex
import subprocess
import sys
from collections.abc import Callable, Sequence
from dataclasses import asdict, is_dataclass
from pathlib import Path
from typing import Any

from ..bots import make_bot
from ..errors import MnrulesError
from ..version import __version__

SCHEMA = 1
"""The version of this record's layout (a reader tells old files from new)."""


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _files_digest(paths: Sequence[Path]) -> str:
    """One digest over files' contents in the given order (each prefixed by its length,
    so that moving bytes from one file to the next changes it)."""
    h = hashlib.sha256()
    for p in paths:
        data = p.read_bytes()
        h.update(len(data).to_bytes(8, "big"))
        h.update(data)
    return h.hexdigest()


def _plain(value: Any) -> Any:
    if is_dataclass(value) and not isinstance(value, type):
        return asdict(value)
    return str(value)


def cards_digest(rules: Any) -> str:
    """The card set as the game plays it (after the pack's and the variant's changes)."""
    cards = {c: _plain(card) for c, card in sorted(rules.cards.items())}
    text = json.dumps(cards, sort_keys=True, default=_plain, ensure_ascii=False)
    return _sha(text.encode())


def commit() -> str | None:
    """The git commit the engine runs from, with ``-dirty`` if its files were changed;
    None outside a checkout or without git (a wheel, a container)."""
    here = Path(__file__).resolve().parents[1]   # the kernel's folder, mnrules/
    with contextlib.suppress(OSError, subprocess.SubprocessError):
        head = subprocess.run(["git", "-C", str(here), "rev-parse", "HEAD"],
                              capture_output=True, text=True, timeout=5, check=True)
        dirty = subprocess.run(["git", "-C", str(here), "status", "--porcelain",
                                "--untracked-files=no", "--", "."],
                               capture_output=True, text=True, timeout=10, check=True)
        return head.stdout.strip() + ("-dirty" if dirty.stdout.strip() else "")
    return None


Loader = Callable[[str, str | None], Any]
"""A rule set by pack and variant (``load_ruleset``, or a caller's cache of it)."""


def _load(pack: str, variant: str | None) -> Any:
    from ..content.ruleset import load_ruleset

    return load_ruleset(pack, variant=variant)


def pack_record(pack: str, variant: str | None = None,
                load: Loader | None = None) -> dict[str, Any]:
    """A pack (and a variant on it) by the digests of what they contain; ``load`` gives
    the rule sets (default: read afresh)."""
    load = load or _load
    base = load(pack, None)
    rules = load(pack, variant) if variant else base
    files: list[Path] = []
    if base.source is not None:
        # a game without a map (a test's tic-tac-toe) names a board file it never reads
        named = [Path(f) for f in base.source.chain] + [Path(base.source.board_file)]
        files = [f for f in named if f.is_file()]
    out: dict[str, Any] = {"pack": pack, "game": rules.game,
                           "pack_sha256": _files_digest(files) if files else None,
                           "variant": variant,
                           "variant_sha256": _sha(Path(variant).read_bytes())
                           if variant else None,
                           "cards_sha256": cards_digest(rules),
                           "cards": len(rules.cards)}
    return out


def command_line(argv: Sequence[str] | None = None) -> str:
    """The command as a shell would take it again."""
    words = list(sys.argv[1:] if argv is None else argv)
    return "mnrules " + " ".join(shlex.quote(w) for w in words)


def _attributes(obj: Any) -> dict[str, Any]:
    """An object's attributes: its ``__dict__``, or, for a class the compiled core built
    natively (no ``__dict__``), the attributes mypyc lists (or its slots)."""
    found = getattr(obj, "__dict__", None)
    if isinstance(found, dict):
        return found
    listed: Any = getattr(type(obj), "__mypyc_attrs__", None) or getattr(
        type(obj), "__slots__", ())
    names: tuple[str, ...] = tuple(listed)
    return {n: getattr(obj, n) for n in names if hasattr(obj, n)}


def bot_settings(bot: Any) -> dict[str, Any]:
    """A bot's settings: its plain public attributes (numbers, words, a profile), without
    its seed (each seat's is derived from the game's) and its caches."""
    out: dict[str, Any] = {}
    for key, value in _attributes(bot).items():
        if key.startswith("_") or key in ("seed", "searched"):
            continue
        if isinstance(value, (bool, int, float, str)):
            out[key] = value
        elif is_dataclass(value) and not isinstance(value, type):
            out[key] = json.loads(json.dumps(asdict(value), default=str))
        elif hasattr(value, "depth") and hasattr(value, "values"):  # a search policy
            out[key] = type(value).__name__
    return out


def bots_record(bots: Sequence[str], rules: Any = None) -> list[dict[str, Any]]:
    """Each bot as named, with the settings it plays with (its defaults spelt out when
    the bot says them: a bot's defaults may change between versions)."""
    out: list[dict[str, Any]] = []
    for name in dict.fromkeys(bots):
        kind, _, arg = name.partition(":")
        entry: dict[str, Any] = {"name": name, "kind": kind, "arg": arg}
        with contextlib.suppress(MnrulesError):   # refused earlier, with its own message
            entry["settings"] = bot_settings(make_bot(name, 0, rules))
        out.append(entry)
    return out


def provenance(*, packs: Sequence[tuple[str, str | None]], bots: Sequence[str],
               seeds: Sequence[int] | dict[str, Any], round_cap: int | str | None,
               argv: Sequence[str] | None = None, rules: Any = None,
               load: Loader | None = None, **more: Any) -> dict[str, Any]:
    """The record every result file carries (see the module's docstring). ``seeds`` is
    the list of seeds played or a rule that gives them (``{"first": 1, "games": 100,
    "rule": "seed*1000003+i"}``); ``load`` gives the packs' rule sets (default: read
    afresh); ``more`` adds command-specific settings."""
    if rules is None and packs:   # a game's own bots are known to its rules alone
        from ..content.ruleset import load_ruleset

        rules = load_ruleset(packs[0][0], variant=packs[0][1])
    record: dict[str, Any] = {"schema": SCHEMA, "command": command_line(argv),
                              "engine": "mnrules", "version": __version__,
                              "commit": commit(),
                              "python": sys.version.split()[0],
                              "packs": [pack_record(p, v, load) for p, v in packs],
                              "bots": bots_record(bots, rules),
                              "seeds": list(seeds) if not isinstance(seeds, dict) else seeds,
                              "round_cap": round_cap}
    record.update(more)
    return record


def seed_rule(first: int, games: int) -> dict[str, Any]:
    """The seeds of ``jobs_for``: game i of a run plays ``first*1000003+i``."""
    return {"first": first, "games": games, "rule": "first*1000003+i"}


def csv_comment(record: dict[str, Any]) -> str:
    """The record as the first line of a CSV file: ``# provenance: {...}`` (readers that
    take ``#`` for a comment skip it; pandas: ``comment="#"``)."""
    return "# provenance: " + json.dumps(record, sort_keys=True, ensure_ascii=False) + "\n"
