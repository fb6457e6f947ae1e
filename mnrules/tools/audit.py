"""The log auditor (``mnrules audit LOG...``): a saved game's rules checked again, from
the book's side.

A log is replayed through the one decision loop (:func:`mnrules.log.replay`), and at
every step a game's own auditor re-derives the facts it can check cheaply: what a
phase produced, what a purchase cost, that the box was never exceeded, that a declared
winner met the condition. The auditor lives in the game's package (its ``audit``
module, found through the game the pack names, so the kernel names none) and is
written apart from the rule plugins: it reads the pack's data (``rules.params``,
``rules.components``, the board) and the state, never a plugin's functions, so that
a rule bug shows up as a finding rather than being checked against itself.

A game's ``audit`` module provides ``Auditor(rules, say)``, an object with ``start``,
``event`` and ``after`` (:class:`mnrules.log.Watcher`), ``finish(game)`` and a list
``findings`` of :class:`Finding`. Exit codes: 0 when every log audits clean, 1 when
there are findings (a log that diverges from the rules is one), 2 when a log cannot be
read or its game has no auditor.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from ..content.ruleset import Ruleset, load_ruleset
from ..errors import MnrulesError
from ..language.present import Presenter, presenter
from .log import LogError, Watcher, _found_ref, read_log, replay

if TYPE_CHECKING:
    import argparse

    from ..core.effects import Event
    from ..core.engine import Game


@dataclass(frozen=True)
class Finding:
    """One rule the log breaks: which check (``kind``), the round and the player, and a
    sentence in the pack's language saying what the book says and what the log shows."""

    kind: str
    round: int
    player: str
    text: str


class GameAuditor(Watcher, Protocol):
    findings: list[Finding]

    def finish(self, game: Game[Any]) -> None: ...


class Findings:
    """What a game's auditor shares: its findings, each a sentence of the pack's
    ``audit.KEY`` messages, and those about a standing fact said once."""

    def __init__(self, say: Presenter) -> None:
        self.say = say
        self.findings: list[Finding] = []
        self._reported: set[tuple[str, str, str]] = set()

    def event(self, game: Game[Any], event: Event) -> None:
        """An event of the replay, handed to the auditor's ``_on_KIND`` if it has one."""
        handler = getattr(self, f"_on_{event.kind}", None)
        if handler is not None:
            handler(game, event)

    def _find(self, game: Game[Any], kind: str, player: str | None, key: str,
              **values: Any) -> None:
        text = self.say.say(f"audit.{key}", player=self.say.player(player) if player else "",
                            **values)
        self.findings.append(Finding(kind, game.state.round, player or "", text))

    def _once(self, game: Game[Any], kind: str, player: str | None, key: str, what: str,
              **values: Any) -> None:
        """A finding about a standing fact (the box): said once, not at every step."""
        mark = (key, player or "", what)
        if mark not in self._reported:
            self._reported.add(mark)
            self._find(game, kind, player, key, **values)


@dataclass
class Audit:
    """The audit of one log."""

    path: str
    say: Presenter
    choices: int = 0
    findings: list[Finding] = field(default_factory=list)


class AuditError(MnrulesError):
    """A log the auditor cannot audit (its game has no auditor)."""


def auditor(rules: Ruleset, say: Presenter) -> GameAuditor:
    """The auditor of the game ``rules`` plays: ``<game package>.audit.Auditor``."""
    from ..content import games

    pkg = games.package(rules.game, f"pack {rules.pack}") if rules.game in \
        games.installed() else None
    module: Any = None
    if pkg is not None:
        try:
            module = importlib.import_module(f"{pkg.__name__}.audit")
        except ModuleNotFoundError as exc:
            if exc.name != f"{pkg.__name__}.audit":
                raise
    if module is None or not hasattr(module, "Auditor"):
        raise AuditError(f"the game {rules.game!r} has no auditor (a module "
                         f"<its package>.audit with a class Auditor)")
    made: GameAuditor = module.Auditor(rules, say)
    return made


def audit_log(path: str | Path, rules: Ruleset | None = None,
              lang: str | None = None) -> Audit:
    """Replay the log ``path`` under its game's auditor: every finding, and a divergence
    from the rules as one more (the log's choice is one the rules do not allow)."""
    header, _ = read_log(path)
    if rules is None:
        variant = header.get("variant")
        try:
            rules = load_ruleset(_found_ref(header["pack"], path), variant=None
                                 if variant is None else _found_ref(variant, path))
        except MnrulesError as exc:
            raise LogError(f"{path}: pack: {exc}") from None
        except (OSError, ValueError) as exc:
            raise LogError(f"{path}: pack: cannot be read: {exc}") from None
    say = presenter(rules, lang)
    watch = auditor(rules, say)
    result = replay(path, rules, watch=watch)
    game = result.game
    out = Audit(str(path), say, result.choices)
    if result.divergence is not None:
        out.findings.append(Finding(
            "replay", game.state.round, game.pending.player if game.pending else "",
            say.say("audit.divergence", divergence=result.divergence)))
    else:
        watch.finish(game)
    out.findings[:0] = watch.findings
    return out


def command(args: argparse.Namespace) -> int:
    """``mnrules audit LOG...``: each log's findings, one sentence a line, and a summary."""
    worst = 0
    for path in args.logs:
        try:
            result = audit_log(path, lang=args.lang)
        except MnrulesError as exc:
            print(f"{path}: {exc}" if not str(exc).startswith(str(path)) else str(exc),
                  file=sys.stderr)
            worst = 2
            continue
        say = result.say
        for f in result.findings:
            print(say.say("audit.finding", file=path, round=f.round, text=f.text))
        print(say.say("audit.done", file=path, choices=say.count(result.choices, "choice"),
                      findings=say.count(len(result.findings), "finding")))
        if result.findings and worst == 0:
            worst = 1
    return worst


def summary(audits: Sequence[Audit]) -> dict[str, int]:
    """Findings counted by kind over several audits."""
    counts: dict[str, int] = {}
    for a in audits:
        for f in a.findings:
            counts[f.kind] = counts.get(f.kind, 0) + 1
    return counts
