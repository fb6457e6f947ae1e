"""The designer's page: a small simulation run in the server's background, with its
progress, then the report ``mnrules simulate`` prints and each player's win rate for a
figure. The games are the simulator's own (:func:`mnrules.tools.simulate.play_one`)."""

from __future__ import annotations

import secrets
import threading
from dataclasses import dataclass, field
from typing import Any

from ...errors import MnrulesError

MAX_GAMES = 200


@dataclass
class Simulation:
    id: str
    edition: str
    total: int
    done: int = 0
    report: str = ""
    rates: dict[str, float] = field(default_factory=dict)
    error: str = ""
    lock: threading.Lock = field(default_factory=threading.Lock)

    def status(self) -> dict[str, Any]:
        with self.lock:
            return {"id": self.id, "done": self.done, "total": self.total,
                    "finished": bool(self.report or self.error), "report": self.report,
                    "rates": dict(self.rates), "error": self.error}


def start(edition: str, players: int, games: int, seed: int, bots: str) -> Simulation:
    from ...content.packs import list_packs

    if edition not in list_packs():
        raise MnrulesError(f"edition: {edition!r} is not a bundled edition")
    if not 1 <= games <= MAX_GAMES:
        raise MnrulesError(f"games: from 1 to {MAX_GAMES} in the browser (mnrules simulate "
                           f"runs more)")
    from ...bots import bot_kinds
    from ...content.ruleset import load_ruleset

    rules = load_ruleset(edition)
    if players not in rules.seating:
        raise MnrulesError(f"players: this game plays with "
                           f"{', '.join(map(str, sorted(rules.seating)))} players")
    kinds = bots.split(",")
    known = {"random", *bot_kinds(rules)}
    if any(k.partition(":")[0] not in known for k in kinds):
        raise MnrulesError(f"bots: one of {', '.join(sorted(known))}")
    sim = Simulation(secrets.token_urlsafe(8), edition, games)
    thread = threading.Thread(target=_run, args=(sim, players, seed, kinds), daemon=True)
    thread.start()
    return sim


def _run(sim: Simulation, players: int, seed: int, bots: list[str]) -> None:
    from ...content.ruleset import load_ruleset
    from ...language.present import presenter
    from ...tools.simulate import Names, format_report, jobs_for, play_one, report

    results = []
    try:
        for job in jobs_for(sim.edition, None, players, sim.total, seed, bots):
            results.append(play_one(job))
            with sim.lock:
                sim.done += 1
        rep = report(results)
        # the page reads as the CLI's report does: the pack's names, never its ids
        names = Names(presenter(load_ruleset(sim.edition)))
        with sim.lock:
            sim.rates = {names.player(p): rep.win_rate[p] for p in rep.players}
            sim.report = format_report(rep, f"{sim.edition}: {sim.total} games", names)
    except MnrulesError as exc:
        with sim.lock:
            sim.error = str(exc)
