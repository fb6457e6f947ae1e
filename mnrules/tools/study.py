"""A balance study a designer can send on (``mnrules study``): one command over packs ×
variants × player counts × bots, every cell on the same seeds, one report.

A *cell* is one pack (alone or with one variant), one player count and one bot in every
seat. Every cell plays the same seeds — game *i* of each plays ``seed*1000003+i``, as
``simulate`` does — so that two cells compare game for game (common random numbers).

The games are ``simulate``'s (:func:`mnrules.tools.simulate.run`, local workers or Dask)
and each cell's figures are its report (:func:`mnrules.tools.simulate.report`). Each game
goes to disk as it finishes: one JSON line (its cell, its index, its seed and the whole
:class:`~mnrules.tools.simulate.GameResult`) after a header line holding the study's
provenance, and one CSV row. A killed study loses nothing it played, memory stays flat
however many games are played, and ``--resume`` plays only the games the file lacks.
The report is then read back from the file, one cell at a time.

The report (HTML with its figures inline, and its Markdown twin) holds the configuration
and provenance, the cells out of the band the study declared before it played, where
the leader changes across player counts, packs, variants or bots, the caveats each pack
declares (its readings of the rulebook, its reconstructed board facts), and per cell the
balance table with Wilson intervals, victory paths, game length and the order of play —
all in the pack's names.
"""

from __future__ import annotations

import base64
import contextlib
import csv
import html
import io
import json
import re
import sys
from collections.abc import Collection, Iterator, Sequence
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import IO, Any

from ..errors import MnrulesError
from . import simulate as sim

FORMAT = "mnrules-study/1"
"""The first line of a study's raw data (JSON lines) names its layout."""
MAX_CELLS = 200
"""Cells a study may have (packs × variants × player counts × bots)."""
SEED_RULE = "seed*1000003+i"
MAX_GAMES = 1_000_000
"""Games a cell may play (the report reads one cell's games at a time)."""


# -- the plan -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Cell:
    """One cell of the study: a pack with or without a variant, a player count, a bot in
    every seat."""

    pack: str
    variant: str | None
    players: int
    bots: str

    @property
    def key(self) -> list[Any]:
        """The cell as each of its games' lines names it."""
        return [self.pack, self.variant, self.players, self.bots]

    @property
    def where(self) -> str:
        return self.pack + (f" + {self.variant}" if self.variant else "")

    @property
    def label(self) -> str:
        return f"{self.where}, {self.players} players, {self.bots}"

    @property
    def anchor(self) -> str:
        return "cell-" + re.sub(r"[^a-z0-9]+", "-", self.label.lower()).strip("-")


@dataclass
class Study:
    cells: list[Cell]
    games: int
    seed: int
    round_cap: int | None
    """As asked (``--round-cap``); None: each pack's own (:func:`cap`)."""
    band: tuple[float, float] | None
    """The win rates a balanced table keeps, declared before any game (fractions)."""
    notes: list[str] = field(default_factory=list)
    """What the plan decided that the command line does not say."""

    @property
    def seeds(self) -> list[int]:
        return [job.seed for job in sim.jobs_for("", None, 1, self.games, self.seed, [])]

    def cap(self, cell: Cell) -> int:
        return self.round_cap if self.round_cap is not None else \
            sim.round_cap(rules_of(cell.pack, cell.variant))

    def jobs(self, skip: Collection[tuple[int, int]] = ()
             ) -> list[tuple[Cell, int, sim.Job]]:
        """Every game still to play, as (cell, index, job), the seeds' order first: game
        0 of every cell, then game 1... so that a study stopped early has every cell
        about as far. ``skip`` holds the (cell's position, index) already played."""
        per_cell = [sim.jobs_for(c.pack, c.variant, c.players, self.games, self.seed,
                                 [c.bots], self.round_cap) for c in self.cells]
        return [(self.cells[k], i, per_cell[k][i])
                for i in range(self.games) for k in range(len(self.cells))
                if (k, i) not in skip]


def rules_of(pack: str, variant: str | None = None) -> Any:
    """A pack's rule set (with a variant), read once per process: the games' own cache."""
    return sim._rules(pack, variant)


def _words(text: str | None) -> list[str]:
    return [w.strip() for w in (text or "").split(",") if w.strip()]


def parse_band(text: str | None) -> tuple[float, float] | None:
    """``--band LOW,HIGH`` in percent: the win rates a balanced table keeps."""
    if text is None:
        return None
    parts = text.split(",")
    try:
        low, high = (float(p.strip().rstrip("%")) for p in parts)
    except ValueError:
        low = high = -1.0
    if len(parts) != 2 or not 0 <= low < high <= 100:
        raise MnrulesError(f"--band {text}: give the lowest and the highest win rate a "
                           f"balanced table keeps, in percent, low first, e.g. 12,28")
    return low / 100, high / 100


def plan(packs: str | None, variants: str | None, players: Sequence[int] | None,
         bots: str | None, games: int, seed: int, round_cap: int | None,
         band: str | None) -> Study:
    """The study's cells, every option checked before any game is played: an unknown or
    broken pack, a variant that does not load, a player count a pack does not seat or an
    unknown bot is refused with a sentence naming the option."""
    from ..bots import default_bots, make_bot
    from ..content import packs as pack_files

    if not 1 <= games <= MAX_GAMES:
        raise MnrulesError(f"--games: expected at least 1 and at most {MAX_GAMES:,}, got "
                           f"{games}")
    declared = parse_band(band)
    names = _words(packs) or [pack_files.default_pack()]
    if len(set(names)) != len(names):
        raise MnrulesError(f"--packs {packs}: a pack is named twice")
    bases: dict[str, Any] = {}
    for p in names:
        try:
            bases[p] = rules_of(p)
        except MnrulesError as exc:
            raise MnrulesError(f"--packs: {exc}") from None
    files = _words(variants)
    if len(set(files)) != len(files):
        raise MnrulesError(f"--variants {variants}: a variant is named twice")
    notes: list[str] = []
    on: dict[str, list[str | None]] = {p: [None] for p in names}
    for v in files:
        played_on = []
        own = None
        for p in names:
            try:
                rules = rules_of(p, v)
            except MnrulesError as exc:
                raise MnrulesError(f"--variants {v} on {p}: {exc} (a variant is played on "
                                   f"every pack of --packs unless it names its own with "
                                   f"extends:)") from None
            if rules.pack == bases[p].pack:
                played_on.append(p)
                on[p].append(v)
            else:
                own = rules.pack
        if not played_on:
            raise MnrulesError(f"--variants {v}: it extends {own}, which is not among "
                               f"--packs ({', '.join(names)}); add it there or leave the "
                               f"variant out")
        if len(played_on) < len(names):
            notes.append(f"The variant {v} names its own pack ({', '.join(played_on)}): "
                         f"it is played on that pack only.")
    wanted = list(dict.fromkeys(players)) if players else None
    bots_by_pack: dict[str, list[str]] = {}
    for p in names:
        given = _words(bots) if bots is not None else [default_bots(None, bases[p])]
        if not given:
            raise MnrulesError(f"--bots {bots!r}: name at least one bot, e.g. heuristic")
        if len(set(given)) != len(given):
            raise MnrulesError(f"--bots {bots}: a bot is named twice")
        for b in given:
            try:
                make_bot(b, 0, bases[p])
            except MnrulesError as exc:
                more = f" (pack {p})" if len(names) > 1 else ""
                raise MnrulesError(f"{exc}{more}") from None
        bots_by_pack[p] = given
    cells: list[Cell] = []
    for p in names:
        for chosen in on[p]:
            seating = sorted(rules_of(p, chosen).seating)
            counts = wanted if wanted is not None else seating
            for n in counts:
                if n not in seating:
                    seats = ", ".join(map(str, seating))
                    what = p + (f" + {chosen}" if chosen else "")
                    raise MnrulesError(f"--players {n}: {what} seats {seats} players")
            cells += [Cell(p, chosen, n, b) for n in counts for b in bots_by_pack[p]]
    if len(cells) > MAX_CELLS:
        raise MnrulesError(f"the study has {len(cells)} cells (packs × variants × player "
                           f"counts × bots); at most {MAX_CELLS}: split it")
    return Study(cells, games, seed, round_cap, declared, notes)


# -- the raw data, streamed -----------------------------------------------------------------
def fingerprint(study: Study, cell: Cell, record: dict[str, Any]) -> dict[str, Any]:
    """What an earlier game of the cell must have been played under to be reused: the
    contents of its pack, variant and cards, and the round cap."""
    return {"pack_sha256": record.get("pack_sha256"),
            "variant_sha256": record.get("variant_sha256"),
            "cards_sha256": record.get("cards_sha256"), "round_cap": study.cap(cell)}


def game_from(data: dict[str, Any]) -> sim.GameResult:
    known = {f.name for f in fields(sim.GameResult)}
    return sim.GameResult(**{k: v for k, v in data.items() if k in known})


CSV_HEADER = ["pack", "variant", "players", "bots", "game", *sim.CSV_HEADER[1:]]


def csv_row(cell: Cell, index: int, result: sim.GameResult) -> list[Any]:
    row = next(sim._csv_rows("", [result]))
    return [cell.pack, cell.variant or "", cell.players, cell.bots, index, *row[1:]]


class Stream:
    """The study's raw data, written as each game finishes: ``FILE.jsonl`` (a header
    line, then a line per game) and ``FILE.csv`` (a row per game), each line flushed to
    the system at once, so that a study killed in any way keeps every game it played."""

    def __init__(self, jsonl: Path, table: Path) -> None:
        self.jsonl_path, self.csv_path = jsonl, table
        self._jsonl: IO[str] | None = None
        self._csv: IO[str] | None = None
        self.written = 0

    def open(self, header: dict[str, Any], provenance: dict[str, Any],
             resumed: bool) -> None:
        if resumed:
            self._jsonl = open(self.jsonl_path, "a", encoding="utf-8")  # noqa: SIM115
            self._jsonl.write(json.dumps({"resumed": provenance}) + "\n")
        else:
            self._jsonl = open(self.jsonl_path, "w", encoding="utf-8")  # noqa: SIM115
            self._jsonl.write(json.dumps(header) + "\n")
        self._jsonl.flush()
        if resumed:   # rebuilt from the lines: a row lost with a killed process comes back
            rewrite_csv(self.jsonl_path, self.csv_path, provenance)
            self._csv = open(self.csv_path, "a", encoding="utf-8", newline="")  # noqa: SIM115
        else:
            from .provenance import csv_comment

            self._csv = open(self.csv_path, "w", encoding="utf-8", newline="")  # noqa: SIM115
            self._csv.write(csv_comment(provenance))
            csv.writer(self._csv).writerow(CSV_HEADER)
        self._csv.flush()

    def write(self, cell: Cell, index: int, result: sim.GameResult) -> None:
        from .stopping import unbroken

        assert self._jsonl is not None and self._csv is not None
        line = json.dumps({"cell": cell.key, "index": index, "seed": result.seed,
                           "game": asdict(result)})
        with unbroken():   # a stop waits for the line and its row
            self._jsonl.write(line + "\n")
            self._jsonl.flush()
            csv.writer(self._csv).writerow(csv_row(cell, index, result))
            self._csv.flush()
        self.written += 1

    def close(self) -> None:
        import os

        for f in (self._jsonl, self._csv):
            if f is not None and not f.closed:
                with contextlib.suppress(OSError):
                    f.flush()
                    os.fsync(f.fileno())
                f.close()


def _lines(path: Path) -> Iterator[tuple[int, str]]:
    with open(path, encoding="utf-8") as f:
        yield from enumerate(f, 1)


def read_header(path: Path) -> dict[str, Any]:
    """The header of a study's raw data, refused with a sentence if it is not one."""
    with open(path, encoding="utf-8") as f:
        first = f.readline()
    try:
        head = json.loads(first)
    except json.JSONDecodeError:
        head = None
    if not isinstance(head, dict) or head.get("format") != FORMAT:
        raise MnrulesError(f"--resume: {path} is not a study's raw data (its first line is "
                           f"no {FORMAT} header)")
    return head


def cut_partial_line(path: Path) -> None:
    """A line cut by a killed process (the file does not end with a newline) is dropped:
    its game is played again."""
    with open(path, "r+b") as f:
        data = f.read()
        if data and not data.endswith(b"\n"):
            f.truncate(data.rfind(b"\n") + 1)


def played(path: Path, study: Study, fingerprints: list[dict[str, Any]]
           ) -> set[tuple[int, int]]:
    """The (cell's position, index) of the games an earlier run of the study wrote to
    ``path``, after checking that they were played under the same seeds and the same
    contents of the packs; refused with a sentence if not."""
    head = read_header(path)
    old = head.get("study", {})
    if old.get("seed") != study.seed:
        raise MnrulesError(f"--resume: the games in {path} were played with --seed "
                           f"{old.get('seed')}; give the same seed, or another --out")
    before = {json.dumps(c["cell"]): c.get("fingerprint") for c in old.get("cells", [])}
    position = {json.dumps(c.key): k for k, c in enumerate(study.cells)}
    for k, c in enumerate(study.cells):
        then = before.get(json.dumps(c.key))
        if then is not None and then != fingerprints[k]:
            what = [name for name in ("pack_sha256", "variant_sha256", "cards_sha256",
                                      "round_cap") if then.get(name) != fingerprints[k][name]]
            said = {"pack_sha256": "the pack's files", "variant_sha256": "the variant file",
                    "cards_sha256": "the card set", "round_cap": "the round cap"}
            raise MnrulesError(f"--resume: the games of {c.label} in {path} were played "
                               f"under other rules ({', '.join(said[w] for w in what)} "
                               f"changed since); start afresh with another --out")
    done: set[tuple[int, int]] = set()
    for number, line in _lines(path):
        if not line.startswith('{"cell"'):
            continue
        try:
            entry = json.loads(line)
        except json.JSONDecodeError:
            raise MnrulesError(f"--resume: {path}:{number}: not a whole JSON line; the "
                               f"file was changed by hand") from None
        at = position.get(json.dumps(entry["cell"]))
        index = entry.get("index")
        if at is not None and isinstance(index, int) and index < study.games:
            done.add((at, index))
    return done


def read_cell(path: Path, cell: Cell, games: int) -> list[sim.GameResult]:
    """A cell's games from the raw data, in seed order (only its own lines are parsed)."""
    prefix = '{"cell": ' + json.dumps(cell.key) + ","
    found: dict[int, sim.GameResult] = {}
    for _, line in _lines(path):
        if line.startswith(prefix):
            entry = json.loads(line)
            if entry["index"] < games:
                found[entry["index"]] = game_from(entry["game"])
    return [found[i] for i in sorted(found)]


def rewrite_csv(jsonl: Path, table: Path, provenance: dict[str, Any]) -> None:
    """The CSV rebuilt from the JSON lines (on --resume)."""
    from ..files import write_atomic
    from .provenance import csv_comment

    buf = io.StringIO(newline="")
    buf.write(csv_comment(provenance))
    w = csv.writer(buf)
    w.writerow(CSV_HEADER)
    for _, line in _lines(jsonl):
        if line.startswith('{"cell"'):
            entry = json.loads(line)
            p, v, n, b = entry["cell"]
            w.writerow(csv_row(Cell(p, v, n, b), entry["index"], game_from(entry["game"])))
    write_atomic(table, buf.getvalue())


# -- what each cell says --------------------------------------------------------------------
@dataclass
class Row:
    """One player of one cell."""

    player: str
    name: str
    wins: int
    shared: int
    rate: float
    interval: tuple[float, float]
    fair: str
    """Against the fair share 1/players at 95%: "above", "below" or "even"."""
    band: str | None
    """Against the declared band: "above", "below", "within" or "straddles" (None: no
    band declared)."""


@dataclass
class CellResult:
    cell: Cell
    game: str
    """The game the pack plays (leaders are compared within one game)."""
    names: sim.Names
    report: sim.Report
    rows: list[Row]
    cap: int

    @property
    def leaders(self) -> list[str]:
        """The players with the highest win rate (none if nobody won a game)."""
        top = max((r.rate for r in self.rows), default=0.0)
        return [r.player for r in self.rows if r.rate == top] if top > 0 else []

    def row(self, player: str) -> Row | None:
        return next((r for r in self.rows if r.player == player), None)

    @property
    def out(self) -> list[Row]:
        return [r for r in self.rows if r.band in ("above", "below")]


def against(interval: tuple[float, float], low: float, high: float) -> str:
    """Where an interval lies against [low, high]: wholly "above" or "below" it, wholly
    "within" it, or "straddles" a bound."""
    lo, hi = interval
    if lo > high:
        return "above"
    if hi < low:
        return "below"
    if lo >= low and hi <= high:
        return "within"
    return "straddles"


def cell_result(study: Study, cell: Cell, results: list[sim.GameResult]) -> CellResult:
    from ..language.present import presenter

    rules = rules_of(cell.pack, cell.variant)
    rep = sim.report(results, rules.seating.get(cell.players))
    names = sim.Names(presenter(rules))
    fair = 1 / cell.players
    rows = []
    for p in rep.players:
        lo, hi = rep.interval[p]
        rows.append(Row(p, names.player(p), rep.wins[p], rep.shared[p], rep.win_rate[p],
                        (lo, hi), "above" if lo > fair else "below" if hi < fair else "even",
                        against((lo, hi), *study.band) if study.band else None))
    return CellResult(cell, str(rules.game), names, rep, rows, study.cap(cell))


@dataclass
class Change:
    """The leader differs between cells that differ in one dimension only."""

    dimension: str
    """"player count", "pack", "variant" or "bot"."""
    fixed: str
    """What the cells compared share, in words."""
    leaders: list[tuple[str, CellResult]]
    """Each cell's value of the dimension and the cell."""
    clear: bool
    """In every cell the leader's interval lies above every other leader's: the change
    is no chance of the sample."""


DIMENSIONS = ("player count", "pack", "variant", "bot")


def _value(cell: Cell, dimension: str) -> str:
    if dimension == "player count":
        return f"{cell.players} players"
    if dimension == "pack":
        return cell.pack
    if dimension == "variant":
        return f"variant {cell.variant}" if cell.variant else "the pack alone"
    return cell.bots


def _where(cell: Cell, dimension: str) -> str:
    """The cell's value of ``dimension`` as a sentence says where a player leads."""
    if dimension == "pack":
        return f"in {cell.pack}"
    if dimension == "variant":
        return f"with the variant {cell.variant}" if cell.variant else "in the pack alone"
    if dimension == "bot":
        return f"under {cell.bots}"
    return f"at {cell.players} players"


def _fixed(cell: Cell, dimension: str) -> str:
    """What the cells compared along ``dimension`` share, in words."""
    parts = []
    if dimension == "pack":
        parts.append(f"variant {cell.variant}" if cell.variant else "each pack alone")
    else:
        parts.append(cell.pack if dimension == "variant" else cell.where)
    if dimension != "player count":
        parts.append(f"{cell.players} players")
    if dimension != "bot":
        parts.append(cell.bots)
    return ", ".join(parts)


def _clear(cells: Sequence[CellResult], heads: set[str]) -> bool:
    """In every cell, its leaders' intervals lie wholly above those of the players who
    lead another cell of the group."""
    for c in cells:
        lows = [r.interval[0] for r in c.rows if r.player in c.leaders]
        highs = [r.interval[1] for r in c.rows
                 if r.player in heads and r.player not in c.leaders]
        if highs and min(lows) <= max(highs):
            return False
    return True


def leader_changes(cells: Sequence[CellResult]) -> list[Change]:
    """Where the leader changes across player counts, packs, variants or bots, the other
    dimensions held: each group of cells that differ in that dimension alone (and play
    the same game), whose leaders are not all the same."""
    out: list[Change] = []
    for dim in DIMENSIONS:
        groups: dict[tuple[Any, ...], list[CellResult]] = {}
        for c in cells:
            k = c.cell
            rest = {"player count": (k.pack, k.variant, k.bots),
                    "pack": (c.game, k.variant, k.players, k.bots),
                    "variant": (k.pack, k.players, k.bots),
                    "bot": (k.pack, k.variant, k.players)}[dim]
            groups.setdefault(rest, []).append(c)
        for group in groups.values():
            decided = [c for c in group if c.leaders]
            if len(decided) < 2 or len({tuple(c.leaders) for c in decided}) < 2:
                continue
            heads = {p for c in decided for p in c.leaders}
            out.append(Change(dim, _fixed(decided[0].cell, dim),
                              [(_where(c.cell, dim), c) for c in decided],
                              _clear(decided, heads)))
    return out


# -- caveats the packs declare --------------------------------------------------------------
@dataclass
class Caveats:
    where: str
    pack_name: str
    readings: list[tuple[str, str]]
    reconstructed: list[tuple[str, int | None]]
    """Board areas the board file marks reconstructed, with the fewest players they are
    in play for (None: every count)."""
    partly: list[tuple[str, str]]
    """Areas whose own note says a part of them (a link, a covering) is reconstructed."""
    areas: int
    notes: list[str]


def caveats(pack: str, variant: str | None, most: int) -> Caveats:
    """What a pack declares about its own reliability: the readings it takes where the
    rulebook is ambiguous, and the board facts its board file marks reconstructed (in
    play at ``most`` players or fewer), whatever the game (the board's ``provinces``,
    ``regions`` and ``seas`` with their ``provenance``)."""
    from ..language.present import presenter

    rules = rules_of(pack, variant)
    say = presenter(rules)
    readings = [(str(k), str(v)) for k, v in (rules.data.get("readings") or {}).items()]
    notes = rules.data.get("notes") or []
    notes = [notes] if isinstance(notes, str) else [str(n) for n in notes]
    recon: list[tuple[str, int | None]] = []
    partly: list[tuple[str, str]] = []
    areas = 0
    for area_id, least, provenance, note in rules.definition.board_areas(
            rules=rules, players=most):
        areas += 1
        name = say.name(area_id)
        if str(provenance).startswith("reconstructed"):
            recon.append((name, least))
        elif "reconstruct" in str(note):
            partly.append((name, " ".join(str(note).split())))
    return Caveats(rules.pack if variant is None else f"{pack} + {variant}",
                   say.pack_name(), readings, recon, partly, areas, notes)


# -- the document: one model, written as HTML and as Markdown -------------------------------
@dataclass(frozen=True)
class S:
    """A piece of text with a style: "b" (strong), "code", "out" (flagged), "a" (a link
    to ``href`` in the HTML; plain in the Markdown)."""

    text: str
    style: str = ""
    href: str = ""


Text = str | S | list[str | S]


@dataclass
class Heading:
    level: int
    text: str
    anchor: str = ""


@dataclass
class Para:
    text: Text


@dataclass
class Items:
    items: list[Text]


@dataclass
class Table:
    header: list[str]
    rows: list[list[Text]]


@dataclass
class Figure:
    png: bytes
    alt: str


@dataclass
class Pre:
    text: str


@dataclass
class Fold:
    summary: str
    blocks: list[Any]


Block = Heading | Para | Items | Table | Figure | Pre | Fold

CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;max-width:72rem;margin:2rem auto;
padding:0 1rem;color:#1d1d1f;line-height:1.45}
h1{font-size:1.7rem}h2{margin-top:2.2rem;border-bottom:1px solid #ccc}h3{margin-top:1.6rem}
table{border-collapse:collapse;margin:.6rem 0;font-size:.92rem}
th,td{border:1px solid #c8c8c8;padding:.25rem .55rem;text-align:left;vertical-align:top}
th{background:#f0f0f0}td{font-variant-numeric:tabular-nums}
.out{color:#a11d1d}code{background:#f4f4f4;padding:0 .2rem;font-size:.88em;overflow-wrap:anywhere}
pre{background:#f7f7f7;padding:.6rem;overflow-x:auto;font-size:.82rem}
img{max-width:100%;height:auto}details{margin:.6rem 0}
"""


def _pieces(text: Text) -> list[str | S]:
    return text if isinstance(text, list) else [text]


def _html_text(text: Text) -> str:
    out = []
    for p in _pieces(text):
        if isinstance(p, str):
            out.append(html.escape(p))
        elif p.style == "b":
            out.append(f"<strong>{html.escape(p.text)}</strong>")
        elif p.style == "out":
            out.append(f'<strong class="out">{html.escape(p.text)}</strong>')
        elif p.style == "code":
            out.append(f"<code>{html.escape(p.text)}</code>")
        elif p.style == "a":
            out.append(f'<a href="{html.escape(p.href)}">{html.escape(p.text)}</a>')
        else:
            out.append(html.escape(p.text))
    return "".join(out)


def _html_blocks(blocks: Sequence[Any]) -> list[str]:
    out: list[str] = []
    for b in blocks:
        if isinstance(b, Heading):
            anchor = f' id="{html.escape(b.anchor)}"' if b.anchor else ""
            out.append(f"<h{b.level}{anchor}>{html.escape(b.text)}</h{b.level}>")
        elif isinstance(b, Para):
            out.append(f"<p>{_html_text(b.text)}</p>")
        elif isinstance(b, Items):
            out.append("<ul>" + "".join(f"<li>{_html_text(i)}</li>" for i in b.items)
                       + "</ul>")
        elif isinstance(b, Table):
            head = "".join(f"<th>{html.escape(h)}</th>" for h in b.header)
            body = "".join("<tr>" + "".join(f"<td>{_html_text(c)}</td>" for c in row)
                           + "</tr>" for row in b.rows)
            thead = f"<thead><tr>{head}</tr></thead>" if any(b.header) else ""
            out.append(f"<table>{thead}<tbody>{body}</tbody></table>")
        elif isinstance(b, Figure):
            data = base64.b64encode(b.png).decode("ascii")
            out.append(f'<figure><img src="data:image/png;base64,{data}" '
                       f'alt="{html.escape(b.alt)}"><figcaption>{html.escape(b.alt)}'
                       f"</figcaption></figure>")
        elif isinstance(b, Pre):
            out.append(f"<pre>{html.escape(b.text)}</pre>")
        elif isinstance(b, Fold):
            out.append(f"<details><summary>{html.escape(b.summary)}</summary>"
                       + "\n".join(_html_blocks(b.blocks)) + "</details>")
    return out


def to_html(title: str, blocks: Sequence[Any]) -> str:
    """The report as one HTML file: its figures inline, no script, nothing fetched."""
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<title>{html.escape(title)}</title><style>{CSS}</style></head><body>\n"
            + "\n".join(_html_blocks(blocks)) + "\n</body></html>\n")


_MD_SPECIAL = re.compile(r"([\\`*_<])")


def _md_text(text: Text, in_table: bool = False) -> str:
    out = []
    for p in _pieces(text):
        raw = p if isinstance(p, str) else p.text
        if isinstance(p, S) and p.style == "code":
            piece = f"`{raw}`"
        else:
            piece = _MD_SPECIAL.sub(r"\\\1", raw)
            if isinstance(p, S) and p.style in ("b", "out") and piece.strip():
                # CommonMark takes no "** " for strong: the spaces go outside
                core = piece.strip()
                start = piece[:len(piece) - len(piece.lstrip())]
                end = piece[len(piece.rstrip()):]
                piece = f"{start}**{core}**{end}"
        out.append(piece.replace("|", "\\|") if in_table else piece)
    return "".join(out).replace("\n", " ")


def _md_blocks(blocks: Sequence[Any]) -> list[str]:
    out: list[str] = []
    for b in blocks:
        if isinstance(b, Heading):
            out.append("#" * b.level + " " + _md_text(b.text))
        elif isinstance(b, Para):
            out.append(_md_text(b.text))
        elif isinstance(b, Items):
            out.append("\n".join("- " + _md_text(i) for i in b.items))
        elif isinstance(b, Table):
            lines = ["| " + " | ".join(_md_text(h, True) for h in b.header) + " |",
                     "|" + "---|" * len(b.header)]
            lines += ["| " + " | ".join(_md_text(c, True) for c in row) + " |"
                      for row in b.rows]
            out.append("\n".join(lines))
        elif isinstance(b, Figure):
            out.append(f"*Figure (in the HTML report): {_md_text(b.alt)}*")
        elif isinstance(b, Pre):
            out.append("```\n" + b.text + "\n```")
        elif isinstance(b, Fold):
            out.append(f"**{_md_text(b.summary)}**")
            out.extend(_md_blocks(b.blocks))
    return out


def to_markdown(blocks: Sequence[Any]) -> str:
    """The report as Markdown: the same blocks, each figure named where it stands."""
    return "\n\n".join(_md_blocks(blocks)) + "\n"


# -- figures ---------------------------------------------------------------------------------
def _png(fig: Any) -> bytes:
    import matplotlib.pyplot as plt

    buf = io.BytesIO()
    try:
        fig.savefig(buf, dpi=90, format="png")
    finally:
        plt.close(fig)
    return buf.getvalue()


def _shade(ax: Any, band: tuple[float, float] | None) -> None:
    if band is not None:
        ax.axhspan(band[0], band[1], color="#7fbf7f", alpha=0.22, zorder=0,
                   label=f"declared band {band[0]:.0%}–{band[1]:.0%}")


def cell_figure(c: CellResult, band: tuple[float, float] | None) -> bytes:
    """The cell's win rates and game lengths (``simulate --plot``'s figure), the
    declared band shaded."""
    fig = sim.figure(c.report, c.cell.label, name="this cell", names=c.names)
    _shade(fig.axes[0], band)
    if band is not None:
        fig.axes[0].legend(fontsize=8)
    return _png(fig)


def summary_figure(cells: Sequence[CellResult], band: tuple[float, float] | None) -> bytes:
    """Every player's win rate in every cell of one game, side by side, with its
    interval; the fair share of each cell dashed and the declared band shaded."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    players = _players(cells)
    names = {p: _name(cells, p) for p in players}
    width = min(22.0, max(7.0, 0.9 * len(cells) * max(1, len(players)) / 3))
    fig, ax = plt.subplots(figsize=(width, 4.6))
    step = 0.8 / max(1, len(players))
    colours = plt.get_cmap("tab10")
    for k, p in enumerate(players):
        xs, ys, lo, hi = [], [], [], []
        for i, c in enumerate(cells):
            r = c.row(p)
            if r is None:
                continue
            xs.append(i - 0.4 + step * (k + 0.5))
            ys.append(r.rate)
            lo.append(r.rate - r.interval[0])
            hi.append(r.interval[1] - r.rate)
        ax.bar(xs, ys, step * 0.92, yerr=[lo, hi], capsize=2, label=names[p],
               color=colours(k % 10))
    for i, c in enumerate(cells):
        ax.hlines(1 / c.cell.players, i - 0.45, i + 0.45, colors="grey", linestyles="--",
                  linewidth=1)
    _shade(ax, band)
    ax.set_xticks(range(len(cells)), [c.cell.label.replace(", ", "\n") for c in cells],
                  fontsize=8)
    ax.set_ylabel("win rate (95% Wilson interval)")
    ax.set_title("Win rates in every cell (dashed: the fair share 1/players)")
    ax.legend(fontsize=8, ncol=min(6, len(players) + (band is not None)))
    fig.tight_layout()
    return _png(fig)


def _players(cells: Sequence[CellResult]) -> list[str]:
    """The players of cells of one game: the largest table's seating first."""
    biggest = max(cells, key=lambda c: len(c.rows))
    order = [r.player for r in biggest.rows]
    for c in cells:
        order += [r.player for r in c.rows if r.player not in order]
    return order


def _name(cells: Sequence[CellResult], player: str) -> str:
    return next(r.name for c in cells for r in c.rows if r.player == player)


# -- the report ------------------------------------------------------------------------------
def joined(words: Sequence[str], last: str = "and") -> str:
    """"a", "a and b", "a, b and c"."""
    items = list(words)
    return ", ".join(items[:-1]) + f" {last} " + items[-1] if len(items) > 1 else \
        "".join(items)


def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def interval(iv: tuple[float, float]) -> str:
    return f"[{pct(iv[0])}, {pct(iv[1])}]"


VERDICT = {"above": "above the band", "below": "below the band", "within": "within the band",
           "straddles": "overlaps a bound"}
FAIR = {"above": "above", "below": "below", "even": "consistent with it"}


def _seeds_text(study: Study) -> str:
    seeds = study.seeds
    shown = ", ".join(map(str, seeds)) if len(seeds) <= 6 \
        else ", ".join(map(str, seeds[:5])) + f", …, {seeds[-1]}"
    return (f"game i of every cell plays seed {study.seed}×1000003+i ({shown}: "
            f"{len(seeds)} seeds, the same in every cell)")


def _out_sentence(c: CellResult) -> list[str | S]:
    parts: list[str | S] = [S(c.cell.label, "a", "#" + c.cell.anchor), ": "]
    for k, r in enumerate(c.out):
        if k:
            parts.append("; ")
        parts += [S(f"{r.name} {VERDICT[r.band or '']}", "out"),
                  f" ({pct(r.rate)} {interval(r.interval)})"]
    return parts


def _change_sentence(ch: Change) -> list[str | S]:
    said = {"player count": "with the player count", "pack": "from pack to pack",
            "variant": "with the variant", "bot": "with the bots"}[ch.dimension]
    parts: list[str | S] = [S(f"The leader changes {said}", "b"), f" ({ch.fixed}): "]
    for k, (value, c) in enumerate(ch.leaders):
        lead = " and ".join(c.row(p).name for p in c.leaders)  # type: ignore[union-attr]
        rate = c.row(c.leaders[0]).rate   # type: ignore[union-attr]
        parts.append(("; " if k else "") + f"{lead} {value} ({pct(rate)})")
    parts.append(". " + ("In every cell the leader's interval lies above the other "
                         "leaders': the change is no chance of the sample."
                         if ch.clear else "The intervals overlap: more games are needed "
                         "to tell whether the leader truly changes."))
    return parts


def findings(study: Study, cells: Sequence[CellResult]) -> list[Any]:
    """The report's opening: what was played, the band's verdicts, the leader changes."""
    total = study.games * len(cells)
    packs = list(dict.fromkeys(c.cell.pack for c in cells))
    variants = list(dict.fromkeys(c.cell.variant for c in cells if c.cell.variant))
    counts = list(dict.fromkeys(c.cell.players for c in cells))
    bots = list(dict.fromkeys(c.cell.bots for c in cells))
    blocks: list[Any] = [Para(
        f"This study played {study.games:,} games in each of {len(cells)} cells "
        f"({total:,} games): pack{'s' * (len(packs) > 1)} {joined(packs)}"
        + (f", alone and with the variant{'s' * (len(variants) > 1)} "
           f"{joined(variants)}" if variants else "")
        + f"; {joined([str(n) for n in counts])} players; "
        f"{joined(bots, 'or')} in every seat. Every cell played the same seeds, so cells "
        f"compare game for game.")]
    blocks += [Para(n) for n in study.notes]
    if study.band is None:
        blocks.append(Para([S("No balance band was declared", "b"), " for this study "
                            "(--band LOW,HIGH before it plays): no cell is judged out of "
                            "a band. Each player is compared with the fair share "
                            "1/players only."]))
    else:
        low, high = study.band
        out = [c for c in cells if c.out]
        blocks.append(Para(["Declared before any game was played: a balanced table keeps "
                            "every player's win rate within ", S(f"{pct(low)}–{pct(high)}",
                                                                   "b"),
                            ". A cell is out of the band when a player's 95% interval lies "
                            "wholly outside it."]))
        if out:
            blocks.append(Para([S(f"{len(out)} of {len(cells)} cells are out of the band:",
                                  "b")]))
            blocks.append(Items([_out_sentence(c) for c in out]))
        else:
            blocks.append(Para([S("No cell is out of the band.", "b")]))
        inside = [c for c in cells if c.rows and all(r.band == "within" for r in c.rows)]
        open_ = len(cells) - len(out) - len(inside)
        blocks.append(Para(f"{len(inside)} of {len(cells)} cells have every interval "
                           f"within the band"
                           + (f"; in the other {open_} an interval overlaps a bound: "
                              f"more games would tell in or out" if open_ else "")
                           + "."))
    changes = leader_changes(cells)
    decided = [c for c in cells if c.leaders]
    if changes:
        blocks.append(Items([_change_sentence(ch) for ch in changes]))
    elif not decided:
        blocks.append(Para("No cell has a leader: nobody won a game."))
    elif len(cells) > 1:
        heads = {p for c in decided for p in c.leaders}
        blocks.append(Para("The leader does not change between the cells compared"
                           + (": " + _name(decided, next(iter(heads))) + " leads every "
                              "cell anybody won" if len(heads) == 1 else "") + "."))
    capped = [c for c in cells if c.report.unfinished]
    if capped:
        blocks.append(Para(
            "Some games reached the round cap undecided (nobody's win; they lower every "
            "win rate): " + "; ".join(f"{c.cell.label} {c.report.unfinished} of "
                                      f"{c.report.games} (cap {c.cap})" for c in capped)
            + "."))
    return blocks


def summary(study: Study, cells: Sequence[CellResult], figures: bool) -> list[Any]:
    """Per game, each player's win rate in every cell side by side."""
    blocks: list[Any] = [Heading(2, "Every cell side by side", "summary"),
                         Para("Each player's win rate with its 95% interval; the cell's "
                              "leader in bold" + ("; ▲ / ▼ a player above or below the "
                                                  "declared band" if study.band else "")
                              + "; — where the player does not play.")]
    games = list(dict.fromkeys(c.game for c in cells))
    for game in games:
        group = [c for c in cells if c.game == game]
        players = _players(group)
        if len(games) > 1:
            packs = joined(list(dict.fromkeys(c.cell.pack for c in group)))
            blocks.append(Heading(3, f"{packs}: {joined([_name(group, p) for p in players])}"))
        rows: list[list[Text]] = []
        for c in group:
            row: list[Text] = [S(c.cell.label, "a", "#" + c.cell.anchor)]
            for p in players:
                r = c.row(p)
                if r is None:
                    row.append("—")
                    continue
                mark = {"above": " ▲", "below": " ▼"}.get(r.band or "", "")
                text = f"{pct(r.rate)} {interval(r.interval)}{mark}"
                style = "out" if mark else "b" if p in c.leaders else ""
                row.append(S(text, style))
            row.append(f"{c.report.rounds_mean:.1f}")
            rows.append(row)
        blocks.append(Table(["cell", *(_name(group, p) for p in players), "rounds (mean)"],
                            rows))
        if figures:
            of = joined(list(dict.fromkeys(c.cell.pack for c in group)))
            blocks.append(Figure(summary_figure(group, study.band),
                                 f"Win rates in every cell of {of} with their 95% intervals"))
    return blocks


def configuration(study: Study, cells: Sequence[CellResult], record: dict[str, Any],
                  data: Sequence[str], resumed: int) -> list[Any]:
    blocks: list[Any] = [Heading(2, "Configuration and provenance", "provenance")]
    caps = dict.fromkeys(f"{c.cell.pack} {c.cap}" for c in cells)
    rows: list[list[Text]] = [
        ["command", S(str(record["command"]), "code")],
        ["engine", f"mnrules {record['version']}"
         + (f", commit {record['commit']}" if record.get("commit") else
            ", outside a git checkout (no commit)")],
        ["Python", str(record.get("python", ""))],
        ["games per cell", f"{study.games:,}"],
        ["seeds", _seeds_text(study)],
        ["round cap", "rounds after which a game stops undecided: " + (
            str(study.round_cap) + " (--round-cap)" if study.round_cap is not None else
            ", ".join(caps) + " (each pack's own)")],
        ["band", "none declared" if study.band is None else
         f"{pct(study.band[0])}–{pct(study.band[1])}, declared before any game"],
        ["raw data", [*(piece for d in data for piece in (S(d, "code"), " ")),
                      "(a line, or a row, per game with its cell; a game's result depends "
                      "on its pack, variant, players, seed and bots only, never on --jobs)"
                      ]]]
    if resumed:
        rows.append(["resumed", f"{resumed:,} games were played by an earlier run of this "
                                f"study and read back from the raw data"])
    blocks.append(Table(["", ""], rows))
    blocks.append(Para("The packs, by the SHA-256 of their contents (the pack chain and "
                       "its board, the variant file, the card set as played):"))
    blocks.append(Table(
        ["pack", "name", "variant", "pack files", "variant file", "card set"],
        [[S(p["pack"], "code"), p.get("name", ""),
          S(p["variant"], "code") if p.get("variant") else "—",
          S(str(p.get("pack_sha256") or "—"), "code"),
          S(str(p.get("variant_sha256")), "code") if p.get("variant_sha256") else "—",
          [S(str(p.get("cards_sha256")), "code"), f" ({p.get('cards')} cards)"]]
         for p in record["packs"]]))
    blocks.append(Para("The bots, each playing every seat of its cells, with the settings "
                       "they play with:"))
    bot_rows: list[list[Text]] = []
    for game, entries in record.get("bots_by_game", {}).items():
        packs = joined(list(dict.fromkeys(c.cell.pack for c in cells if c.game == game)))
        for b in entries:
            bot_rows.append([S(b["name"], "code"), packs,
                             settings_text(b.get("settings") or {}) or "—"])
    blocks.append(Table(["bot", "in the cells of", "settings"], bot_rows))
    return blocks


def settings_text(settings: dict[str, Any]) -> str:
    """A bot's settings in words: "depth 0; profile balanced (every victory path by its
    tiles...): tiles 1.0, cities 1.0, ..."."""
    parts = []
    for key, value in settings.items():
        if isinstance(value, dict):
            name = value.get("name")
            said = value.get("summary")
            rest = ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in value.items()
                             if k not in ("name", "summary"))
            head = f"{key.replace('_', ' ')} {name}" if name else key.replace("_", " ")
            parts.append(head + (f" ({said})" if said else "") + (f": {rest}" if rest else ""))
        else:
            parts.append(f"{key.replace('_', ' ')} {value}")
    return "; ".join(parts)


def caveat_blocks(found: Sequence[Caveats], fewest: int, most: int) -> list[Any]:
    blocks: list[Any] = [Heading(2, "Caveats the packs declare", "caveats"),
                         Para("What each pack says of its own reliability: the readings it "
                              "takes where its rulebook is ambiguous, and the board facts "
                              "its board file marks as reconstructed rather than read from "
                              f"the printed board (areas in play at {most} players or "
                              "fewer). A result that leans on them is only as good as "
                              "they are.")]
    alone = {cv.where: cv for cv in found}
    for cv in found:
        base = alone.get(cv.where.split(" + ")[0])
        if base is not None and base is not cv and \
                (base.readings, base.reconstructed, base.partly, base.notes) == \
                (cv.readings, cv.reconstructed, cv.partly, cv.notes):
            blocks.append(Para([S(cv.where, "b"), f": the same readings and board facts as "
                                f"{base.where} alone."]))
            continue
        blocks.append(Heading(3, f"{cv.where} — {cv.pack_name}"))
        if cv.readings:
            blocks.append(Para(f"{len(cv.readings)} readings of the rulebook:"))
            blocks.append(Items([[S(k, "b"), f": {v}"] for k, v in cv.readings]))
        else:
            blocks.append(Para("The pack declares no readings."))
        if cv.reconstructed:
            listed = ", ".join(n + (f" (from {least} players)" if least is not None and
                                    least > fewest else "") for n, least in cv.reconstructed)
            verb = "is" if len(cv.reconstructed) == 1 else "are"
            blocks.append(Para(f"{len(cv.reconstructed)} of the {cv.areas} board areas in "
                               f"play {verb} reconstructed: {listed}."))
        else:
            blocks.append(Para(f"No board area in play is marked reconstructed "
                               f"({cv.areas} areas)."))
        if cv.partly:
            blocks.append(Para("Partly reconstructed, as their notes say:"))
            blocks.append(Items([[S(n, "b"), f": {note}"] for n, note in cv.partly]))
        for note in cv.notes:
            blocks.append(Para(note))
    return blocks


def cell_blocks(study: Study, c: CellResult, figures: bool) -> list[Any]:
    rep, names = c.report, c.names
    n = rep.games
    blocks: list[Any] = [Heading(3, c.cell.label, c.cell.anchor)]
    if n < study.games:
        blocks.append(Para([S(f"Only {n} of the {study.games} games of this cell are in "
                              f"the raw data.", "out")]))
    blocks.append(Para(
        f"{n} games; {rep.unfinished} reached the round cap of {c.cap} undecided "
        f"(completion {pct(rep.completion)}); {rep.shared_games} won by more than one "
        f"player (a shared win counts for each winner, so win rates may sum above 100%). "
        f"The fair share is {pct(1 / c.cell.players)}."))
    header = ["player", "wins", "shared", "win rate", "95% interval", "against the fair share"]
    if study.band is not None:
        header.append("against the band")
    rows: list[list[Text]] = []
    for r in c.rows:
        row: list[Text] = [S(r.name, "b") if r.player in c.leaders else r.name, str(r.wins),
                           str(r.shared), pct(r.rate), interval(r.interval), FAIR[r.fair]]
        if r.band is not None:
            row.append(S(VERDICT[r.band], "out") if r.band in ("above", "below")
                       else VERDICT[r.band])
        rows.append(row)
    blocks.append(Table(header, rows))
    if figures:
        blocks.append(Figure(cell_figure(c, study.band),
                             f"{c.cell.label}: win rates with their 95% intervals, and the "
                             f"games' lengths"))
    by = "; ".join(f"{names.player(p)}: {names.paths(paths) or 'no win'}"
                   for p, paths in rep.paths_by_player.items())
    blocks.append(Para([S("Victory paths: ", "b"), (names.paths(rep.paths) or "none")
                        + f". Per player: {by}."]))
    blocks.append(Para([S("Game length: ", "b"),
                        f"mean {rep.rounds_mean:.1f} rounds (sd {rep.rounds_sd:.1f}); "
                        f"10th, 50th and 90th percentiles {rep.rounds_p10:g}, "
                        f"{rep.rounds_p50:g} and {rep.rounds_p90:g} rounds."]))
    blocks += order_blocks(c)
    blocks.append(Fold("Every figure of this cell (simulate's report)",
                       [Pre(sim.format_report(rep, c.cell.label, names))]))
    return blocks


def order_blocks(c: CellResult) -> list[Any]:
    """The order of play: each position's win rate (whoever held it), and who went first
    in each phase, as the report measures them."""
    rep, names = c.report, c.names
    fixed = all(len(s["held_by"]) <= 1 for s in rep.seats)
    blocks: list[Any] = [Para([S("Order of play: ", "b"),
                               "the win rate of whoever held each position in the order "
                               "of play (1: the first player), less the fair share."
                               + (" The seating is fixed: each position is always one "
                                  "player's, so its row repeats that player's; who went "
                                  "first in each phase follows." if fixed else "")])]
    rows: list[list[Text]] = []
    for s in rep.seats:
        held = ", ".join(f"{names.player(p)} {k}" for p, k in s["held_by"].items())
        rows.append([str(s["position"]), pct(s["win_rate"]), interval(s["interval"]),
                     f"{100 * s['advantage']:+.1f} points", held])
    blocks.append(Table(["position", "win rate", "95% interval", "advantage",
                         "held by (games)"], rows))
    if rep.first_to_act:
        rows = []
        for f in rep.first_to_act:
            shares = ", ".join(f"{names.player(p)} {x:.0%}" for p, x in f["share"].items())
            rows.append([names.phase(f["phase"]), shares,
                         f"{pct(f['win_rate'])} {interval(f['interval'])} of "
                         f"{f['games']} games", f"{100 * f['advantage']:+.1f} points"])
        blocks.append(Para("First to act in each phase: each player's share of the rounds "
                           "he made the phase's first decision, and the win rate of the "
                           "player who went first most often in a game."))
        blocks.append(Table(["phase", "share of rounds first", "most often first won",
                             "advantage"], rows))
    return blocks


READ = ("win rate", "advantage by position", "first to act", "completion", "duration")


def reading_blocks(study: Study) -> list[Any]:
    items: list[Text] = [[S(k, "b"), f": {sim.DEFINITIONS[k]}"] for k in READ]
    items.append([S("against the fair share", "b"), ": above or below 1/players when the "
                  "95% interval lies wholly above or below it, else consistent with it."])
    items.append([S("against the band", "b"), ": above or below the band when the 95% "
                  "interval lies wholly outside it (the cell is then out of the band), "
                  "within it when wholly inside, else it overlaps a bound."])
    items.append([S("leader", "b"), ": the player with the highest win rate in a cell; a "
                  "change of leader between cells is flagged, and called no chance of the "
                  "sample only when in every cell compared the leader's interval lies above "
                  "the other leaders'."])
    return [Heading(2, "How to read this report", "reading"), Items(items)]


def document(study: Study, cells: Sequence[CellResult], record: dict[str, Any],
             data: Sequence[str], resumed: int) -> tuple[str, list[Any]]:
    """The report's title and blocks."""
    figures = _can_draw()
    packs = ", ".join(dict.fromkeys(c.cell.pack for c in cells))
    title = f"Balance study: {packs}, {study.games:,} games a cell"
    blocks: list[Any] = [Heading(1, title), Heading(2, "Findings", "findings"),
                         *findings(study, cells)]
    if not figures:
        blocks.append(Para("The figures are left out: matplotlib is not installed "
                           "(pip install 'mnrules[sim]')."))
    blocks += summary(study, cells, figures)
    blocks += configuration(study, cells, record, data, resumed)
    most = max(c.cell.players for c in cells)
    seen = dict.fromkeys((c.cell.pack, c.cell.variant) for c in cells)
    fewest = min(c.cell.players for c in cells)
    blocks += caveat_blocks([caveats(p, v, most) for p, v in seen], fewest, most)
    blocks.append(Heading(2, "Cell by cell", "cells"))
    blocks.append(Items([[S(c.cell.label, "a", "#" + c.cell.anchor)] for c in cells]))
    for c in cells:
        blocks += cell_blocks(study, c, figures)
    blocks += reading_blocks(study)
    return title, blocks


def _can_draw() -> bool:
    try:
        import matplotlib
        matplotlib.use("Agg")
    except ImportError:
        return False
    return True


def _plain(text: Text) -> str:
    return "".join(p if isinstance(p, str) else p.text for p in _pieces(text))


def text_summary(study: Study, cells: Sequence[CellResult]) -> str:
    """The findings as the terminal shows them: the report's opening, as plain text."""
    out = []
    for b in findings(study, cells):
        if isinstance(b, Para):
            out.append(_plain(b.text))
        elif isinstance(b, Items):
            out.append("\n".join("- " + _plain(i) for i in b.items))
    return "\n\n".join(out)


# -- the command -----------------------------------------------------------------------------
OUT_FORMATS = (".html", ".md")


@dataclass(frozen=True)
class Outputs:
    html: Path | None
    markdown: Path
    jsonl: Path
    csv: Path

    @property
    def reports(self) -> list[Path]:
        return [p for p in (self.html, self.markdown) if p is not None]


def outputs(out: str) -> Outputs:
    path = Path(out)
    suffix = path.suffix.lower()
    if suffix not in OUT_FORMATS:
        raise MnrulesError(f"--out {out}: give a file ending in .html (its Markdown twin "
                           f".md is written beside it) or .md")
    return Outputs(path if suffix == ".html" else None, path.with_suffix(".md"),
                   path.with_suffix(".jsonl"), path.with_suffix(".csv"))


def command(args: Any) -> int:
    """``mnrules study``: plan and check, play (streaming every game to disk), report."""
    from ..files import check_writable, write_atomic
    from .provenance import bots_record, pack_record, provenance, seed_rule

    if args.scheduler and args.backend != "dask":
        raise MnrulesError("--scheduler: only with --backend dask")
    out = outputs(args.out)
    for p in (*out.reports, out.jsonl, out.csv):
        check_writable(p, "--out")
    if out.jsonl.exists() and not args.resume:
        raise MnrulesError(f"--out {args.out}: {out.jsonl} already holds a study's games; "
                           f"give --resume to go on with them, or another --out")
    study = plan(args.packs, args.variants, args.players, args.bots, args.games, args.seed,
                 args.round_cap, args.band)
    pairs = list(dict.fromkeys((c.pack, c.variant) for c in study.cells))
    records = {pv: pack_record(*pv, load=rules_of) for pv in pairs}
    prints = [fingerprint(study, c, records[(c.pack, c.variant)]) for c in study.cells]
    resuming = args.resume and out.jsonl.exists()
    done: set[tuple[int, int]] = set()
    if resuming:
        cut_partial_line(out.jsonl)
        done = played(out.jsonl, study, prints)
    games_by: dict[str, Any] = {}
    for c in study.cells:
        games_by.setdefault(str(rules_of(c.pack).game), rules_of(c.pack))
    bots = list(dict.fromkeys(c.bots for c in study.cells))
    caps = {c.pack: study.cap(c) for c in study.cells}
    record = provenance(
        packs=pairs, bots=bots, seeds=seed_rule(study.seed, study.games),
        round_cap=study.round_cap if study.round_cap is not None else
        (next(iter(caps.values())) if len(set(caps.values())) == 1 else None),
        argv=getattr(args, "argv", None), rules=rules_of(*pairs[0]), load=rules_of,
        round_caps=caps, players=sorted({c.players for c in study.cells}),
        games=study.games, band=list(study.band) if study.band else None,
        bots_by_game={g: bots_record([c.bots for c in study.cells
                                      if str(rules_of(c.pack).game) == g], r)
                      for g, r in games_by.items()})
    for p in record["packs"]:
        p["name"] = str(rules_of(p["pack"], p["variant"]).data.get("name", p["pack"]))
    header = {"format": FORMAT, "provenance": record,
              "study": {"seed": study.seed, "games": study.games, "rule": SEED_RULE,
                        "band": record["band"],
                        "cells": [{"cell": c.key, "label": c.label, "fingerprint": f}
                                  for c, f in zip(study.cells, prints, strict=True)]},
              "definitions": sim.DEFINITIONS}
    jobs = study.jobs(done)
    workers = sim.worker_count(args.jobs, max(1, len(jobs)))
    if not args.quiet:
        said = (f"study: {len(study.cells)} cells × {study.games:,} games on the same seeds"
                + (f"; {len(done):,} already in {out.jsonl}" if done else "")
                + (f"; {len(jobs):,} to play with {workers} worker" + "s" * (workers != 1)
                   + f"; each game written to {out.jsonl} as it ends" if jobs else
                   "; none left to play"))
        print(said, file=sys.stderr)
    stream = Stream(out.jsonl, out.csv)
    stream.open(header, record, resuming)
    try:
        def finished(k: int, result: sim.GameResult) -> None:
            cell, index, _ = jobs[k]
            stream.write(cell, index, result)

        if jobs:
            sim.run([j for _, _, j in jobs], workers, args.backend, args.scheduler,
                    show_progress=not args.quiet, deadline=args.game_deadline,
                    on_result=finished)
    except KeyboardInterrupt:
        stream.close()
        with contextlib.suppress(OSError):
            print(f"mnrules: the {len(done) + stream.written:,} games played so far are in "
                  f"{out.jsonl}; the same command with --resume goes on from there",
                  file=sys.stderr)
        raise
    finally:
        stream.close()
    cells = [cell_result(study, c, read_cell(out.jsonl, c, study.games))
             for c in study.cells]
    data = [str(out.jsonl), str(out.csv)]
    title, blocks = document(study, cells, record, data, len(done))
    print(text_summary(study, cells))
    if out.html is not None:
        write_atomic(out.html, to_html(title, blocks))
    write_atomic(out.markdown, to_markdown(blocks))
    print(f"report written to {' and '.join(map(str, out.reports))}; every game in "
          f"{out.jsonl} and {out.csv}")
    return 0

