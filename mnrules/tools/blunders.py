"""The blunder check (``mnrules bots check``): seeded bot games in which every decision
is put, before it is applied, to the game's own tests (its definition's ``blunders``),
each a one-step lookahead that shows a choice strictly dominated (an attack that cannot win
and must lose a unit; a trade that buys back what the same turn sold). The kernel
knows no game's blunder: it plays the games, hands each decision and the events since
the previous one to them, and counts what comes back by kind, each finding a
sentence in the pack's language with its names.

The games are those ``simulate`` plays for the same ``--seed`` (game ``i`` plays seed
``seed * 1000003 + i``, bot ``j`` seed ``game seed * 1009 + j``), so a finding can be
replayed with ``mnrules play --seed``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from ..bots import make_bot
from ..core.effects import Event
from ..core.start import new_game
from ..language.present import Presenter, presenter

if TYPE_CHECKING:
    import argparse

    from ..content.ruleset import Ruleset
    from ..core.engine import Game


@dataclass(frozen=True)
class Finding:
    """One decision a game's check found dominated: its ``kind`` (a short name the
    counts are kept by) and a sentence in the pack's language, with where it was."""

    kind: str
    text: str
    seed: int = 0
    round: int = 0
    player: str = ""


@dataclass
class Report:
    games: int = 0
    decisions: int = 0
    findings: list[Finding] = field(default_factory=list)
    checked: Counter[str] = field(default_factory=Counter)
    """Decisions of each kind the checks looked at (the denominators)."""

    def counts(self) -> Counter[str]:
        return Counter(f.kind for f in self.findings)


def check_decision(game: Game[Any], choice: Any, events: list[Event],
                   notes: dict[str, Any], say: Presenter) -> list[Finding]:
    """The game's findings about ``choice`` at its pending decision (not yet applied),
    from the game's ``blunders``: each of the deciding player in this round unless the
    game names another player and round."""
    dec = game.pending
    assert dec is not None
    out: list[Finding] = []
    for found in game.rules.definition.blunders(game=game, player=dec.player, kind=dec.kind,
                                                choice=choice, events=events, notes=notes,
                                                say=say) or ():
        kind, text, *where = found
        player, round = where if where else (dec.player, game.state.round)
        out.append(Finding(str(kind), str(text), 0, int(round), str(player)))
    return out


def check_game(rules: Ruleset, players: int, seed: int, bots: Sequence[str],
               cap: int | None = None, say: Presenter | None = None,
               report: Report | None = None) -> Report:
    """One seeded game, as ``simulate`` plays it, every decision checked."""
    from .simulate import round_cap

    say = say or presenter(rules)
    report = report or Report()
    game = new_game(rules, players, seed=seed,
                    round_cap=cap if cap is not None else round_cap(rules))
    seats = game.state.players
    played = {p: make_bot(bots[i % len(bots)], seed * 1009 + i, rules)
              for i, p in enumerate(seats)}
    events: list[Event] = []
    game.listeners.append(events.append)
    notes: dict[str, Any] = {}
    while (dec := game.pending) is not None:
        choice = played[dec.player].choose(game)
        found = check_decision(game, choice, list(events), notes, say)
        events.clear()
        report.checked.update(notes.pop("checked", ()))
        report.findings.extend(replace(f, seed=seed) for f in found)
        game.apply(choice)
        report.decisions += 1
    game.listeners.remove(events.append)
    report.games += 1
    return report


def check(rules: Ruleset, players: int, games: int, seed: int, bots: Sequence[str],
          cap: int | None = None, progress: Callable[[int], None] | None = None,
          say: Presenter | None = None) -> Report:
    """``games`` seeded games (``simulate``'s seeds), every decision checked; the
    findings' sentences in ``say``'s language (default: the pack's)."""
    say = say or presenter(rules)
    report = Report()
    for i in range(games):
        check_game(rules, players, seed * 1_000_003 + i, bots, cap, say, report)
        if progress is not None:
            progress(1)
    return report


def format_report(report: Report, title: str, say: Presenter, show: int = 5) -> str:
    """The counts per kind (of the decisions checked), then up to ``show`` findings of
    each kind as sentences, with the game's seed and round."""
    counts = report.counts()
    lines = [f"{title}: {report.games} games, {report.decisions:,} decisions, "
             f"{len(report.findings)} strictly dominated"]
    kinds = sorted(set(counts) | set(report.checked))
    for kind in kinds:
        looked = report.checked.get(kind, 0)
        of = f" of {looked:,} checked" if looked else ""
        lines.append(f"  {kind}: {counts.get(kind, 0)}{of}")
    for kind in sorted(counts):
        lines.append(f"{kind}:")
        shown = [f for f in report.findings if f.kind == kind][:show]
        for f in shown:
            lines.append(f"  seed {f.seed}, {say.say('ui.round', round=f.round)}: {f.text}")
        if counts[kind] > len(shown):
            lines.append(f"  ... and {counts[kind] - len(shown)} more")
    return "\n".join(lines)


def command(args: argparse.Namespace) -> int:
    """``mnrules bots check``: exit 1 when any decision was found dominated."""
    from ..content.ruleset import load_ruleset

    rules = load_ruleset(args.edition, variant=args.variant)
    bots = args.bots.split(",")
    for b in bots:
        make_bot(b, 0, rules)   # a misspelt bot refused before any game
    players = args.players or max(rules.seating, default=1)
    bar: Any = None
    if not args.quiet:
        try:
            from tqdm import tqdm
            bar = tqdm(total=args.games, unit="game")
        except ImportError:
            bar = None
    say = presenter(rules, args.lang)
    try:
        report = check(rules, players, args.games, args.seed, bots, args.max_rounds,
                       bar.update if bar else None, say)
    finally:
        if bar is not None:
            bar.close()
    title = f"{args.edition}, {players} players, bots {args.bots}, seed {args.seed}"
    print(format_report(report, title, say, args.show))
    return 1 if report.findings else 0
