"""The games a web server holds: each a :class:`Table` (one game, its seats, bots,
undo stacks and what happened), and a :class:`Replay` of a log stepped choice by choice.

Everything a client is sent is built here by :meth:`Table.view`, from the presentation
hooks for one seat: the table as that seat may know it, the map, what happened as he may
read it, and his options only when the decision is his. No state, stack, history or
other seat's link is ever put in a view. Every change goes through ``game.apply``.
"""

from __future__ import annotations

import secrets
import threading
from dataclasses import dataclass, field
from typing import Any

from ..bots import Bot, make_bot
from ..effects import Event
from ..engine import Decision, Game
from ..errors import MnrulesError
from ..present import Presenter, presenter
from ..ruleset import Ruleset
from ..state import State

MAX_BOT_CHOICES = 200_000
"""Bot choices one request may make before it answers (a whole bot game takes a few
thousand)."""
HOST = "host"


@dataclass
class Seat:
    player: str
    token: str
    human: bool
    lang: str | None


@dataclass
class Table:
    """One game in the server: its seats (each with a private link token), bots and what
    happened. The host's token sees every human seat in turn (several humans at one
    screen); a seat's token sees that seat only."""

    id: str
    game: Game[Any]
    pack: str
    seats: dict[str, Seat]
    bots: dict[str, Bot]
    host: str
    lang: str | None
    events: list[tuple[int, Event]] = field(default_factory=list)
    undo: dict[str, list[tuple[State, int, int, int]]] = field(default_factory=dict)
    chances: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)
    _say: dict[str, Presenter] = field(default_factory=dict)
    _told: dict[tuple[str, str | None], tuple[int, list[str]]] = field(default_factory=dict)
    kinds: dict[str, str] = field(default_factory=dict)
    """Who plays each seat: a bot's name as given, or ``human`` (what a save records)."""

    def __post_init__(self) -> None:
        self.game.listeners.append(self._heard)

    def _heard(self, event: Event) -> None:
        if event.kind == "chance":
            self.chances += 1
        self.events.append((self.game.state.round, event))

    @property
    def version(self) -> int:
        """Choices made so far: a click sent with an older number is refused (the game
        moved on), and an undo goes back to the number it had."""
        return len(self.game.history)

    def say(self, lang: str | None) -> Presenter:
        key = lang or ""
        if key not in self._say:
            self._say[key] = presenter(self.game.rules, lang)
        return self._say[key]

    def seat_of(self, token: str) -> list[str]:
        """The players a link plays: the host plays every human seat."""
        if secrets.compare_digest(token, self.host):
            return [p for p, s in self.seats.items() if s.human]
        return [p for p, s in self.seats.items() if secrets.compare_digest(token, s.token)]

    # -- moving on -------------------------------------------------------------------------
    def run_bots(self) -> None:
        game = self.game
        for _ in range(MAX_BOT_CHOICES):
            dec = game.pending
            if dec is None or self.seats[dec.player].human:
                return
            game.apply(self.bots[dec.player].choose(game))

    def choose(self, players: list[str], index: int, version: int) -> None:
        dec = self.game.pending
        say = self.say(self.lang)  # a refusal is a sentence in the table's language
        if dec is None:
            raise MnrulesError(say.say("ui.refused_over"))
        if dec.player not in players:
            raise MnrulesError(say.say("ui.refused_not_yours"))
        if version != self.version:
            raise MnrulesError(say.say("ui.refused_moved_on"))
        if not 0 <= index < len(dec.options):
            raise MnrulesError(say.say("ui.refused_no_option"))
        self.undo.setdefault(dec.player, []).append(
            (self.game.snapshot(), len(self.game.history), self.chances, len(self.events)))
        self.game.apply(dec.options[index])
        self.run_bots()

    def can_undo(self, player: str) -> bool:
        stack = self.undo.get(player)
        if not stack:
            return False
        _, history, chances, _ = stack[-1]
        return history == len(self.game.history) - 1 and chances == self.chances

    def take_back(self, players: list[str]) -> bool:
        """Undo the last choice of one of ``players`` if nothing has happened since (no
        other choice, no die)."""
        from ..start import load_game

        for p in players:
            if self.can_undo(p):
                before, _, _, events = self.undo[p].pop()
                fresh = load_game(self.game.rules, before)
                self.game.state = fresh.state
                self.game.rng = fresh.rng
                self.game.history.pop()
                self.game._pending = None
                del self.events[events:]
                self._told.clear()
                return True
        return False

    # -- what a client is sent --------------------------------------------------------------
    def told(self, viewer: str | None, lang: str | None) -> list[str]:
        """What happened, as ``viewer`` may read it (each event rendered once)."""
        key = (lang or "", viewer)
        count, lines = self._told.get(key, (0, []))
        say = self.say(lang)
        for _, ev in self.events[count:]:
            text = say.event(self.game, ev, viewer)
            if text:
                lines.append(text)
        self._told[key] = (len(self.events), lines)
        return lines

    def view(self, players: list[str], lang: str | None = None) -> dict[str, Any]:
        """The JSON a seat's page shows: built only from what its players may know."""
        game = self.game
        lang = lang or self.lang
        say = self.say(lang)
        dec = game.pending
        viewer = _viewer(players, dec)
        hook = game.rules.hook
        out: dict[str, Any] = {
            "version": self.version,
            "you": [say.player(p) for p in players],
            "viewer": say.player(viewer) if viewer else "",
            "table": hook.mn_table(say=say, game=game, viewer=viewer),
            "board": hook.mn_board_svg(say=say, game=game, viewer=viewer) or "",
            "log": self.told(viewer, lang)[-400:],
            "words": {k: say.say(f"ui.{k}") for k in ("undo", "log", "options", "save",
                                                      "nav_new", "nav_replay", "nav_editor",
                                                      "nav_design")},
            "over": dec is None,
            "can_undo": viewer is not None and self.can_undo(viewer),
        }
        if dec is None:
            out["status"] = say.outcome(game.state.winners, game.state.victory)
            out["options"] = []
        elif dec.player in players:
            out["status"] = say.prompt(game, dec)
            out["options"] = _options(say, game, dec)
        else:
            out["status"] = say.say("ui.waiting_hidden", player=say.player(dec.player))
            out["options"] = []
        return out


def _viewer(players: list[str], dec: Decision | None) -> str | None:
    if dec is not None and dec.player in players:
        return dec.player
    return players[0] if players else None


def _options(say: Presenter, game: Game[Any], dec: Decision) -> list[dict[str, Any]]:
    hook = game.rules.hook
    out = []
    for i, opt in enumerate(dec.options):
        out.append({"key": i, "text": say.option(game, dec, opt),
                    "group": hook.mn_option_group(say=say, game=game, decision=dec,
                                                  option=opt) or "",
                    "places": list(hook.mn_option_places(game=game, decision=dec,
                                                         option=opt) or [])})
    return out


def new_table(rules: Ruleset, pack: str, players: int, seats: dict[str, str], seed: int,
              lang: str | None) -> Table:
    """A new game: ``seats`` says for each player "human" or a bot kind."""
    from ..start import new_game

    game = new_game(rules, players, seed=seed)
    return seat_table(game, pack, seats, lang)


def seat_table(game: Game[Any], pack: str, seats: dict[str, str], lang: str | None,
               recorded: dict[str, str] | None = None) -> Table:
    """A table for ``game``: each player is what ``seats`` says ("human" or a bot's
    name), else what ``recorded`` says (a save's own seats), else a random bot. A bot is
    seeded as ``mnrules play`` seeds it, so a save goes on as the straight game."""
    from ..log import HUMAN, MAX_BOT_NAME

    players = game.state.players
    unknown = set(seats) - set(players)
    if unknown:
        raise MnrulesError(f"seats: {', '.join(sorted(unknown))} not in this game "
                           f"({', '.join(players)})")
    bots: dict[str, Bot] = {}
    table_seats: dict[str, Seat] = {}
    kinds: dict[str, str] = {}
    for i, p in enumerate(players):
        kind = seats.get(p) or (recorded or {}).get(p) or "random"
        if len(kind) > MAX_BOT_NAME:
            raise MnrulesError(f"seats: {p}: a bot's name of at most {MAX_BOT_NAME} "
                               f"characters")
        human = kind == HUMAN
        if not human:
            bots[p] = make_bot(kind, game.state.seed * 1009 + i, game.rules)
        table_seats[p] = Seat(p, secrets.token_urlsafe(12), human, lang)
        kinds[p] = kind
    table = Table(secrets.token_urlsafe(8), game, pack, table_seats, bots,
                  secrets.token_urlsafe(12), lang, kinds=kinds)
    table.run_bots()
    return table


# -- replays ------------------------------------------------------------------------------


@dataclass
class Replay:
    """A log stepped through: the game after ``step`` of its choices."""

    id: str
    rules: Ruleset
    header: dict[str, Any]
    choices: list[Any]
    rounds: list[int] = field(default_factory=list)   # the step each round starts at
    game: Game[Any] | None = None
    step: int = 0
    events: list[tuple[int, Event]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def fresh(self) -> Game[Any]:
        from ..start import new_game

        self.events = []
        game = new_game(self.rules, self.header["players"], seed=self.header["seed"],
                        round_cap=self.header.get("round_cap"))
        game.listeners.append(lambda e: self.events.append((game.state.round, e)))
        self.game, self.step = game, 0
        return game

    def go(self, step: int) -> Game[Any]:
        step = max(0, min(step, len(self.choices)))
        game = self.game
        if game is None or step < self.step:
            game = self.fresh()
        from ..engine import as_choice

        while self.step < step and game.pending is not None:
            game.apply(as_choice(self.choices[self.step]))
            self.step += 1
        return game

    def view(self, lang: str | None) -> dict[str, Any]:
        game = self.game or self.go(0)
        say = presenter(self.rules, lang)
        log = [text for _, ev in self.events if (text := say.event(game, ev, None))]
        return {"step": self.step, "steps": len(self.choices), "rounds": self.rounds,
                "round": game.state.round,
                "table": game.rules.hook.mn_table(say=say, game=game, viewer=None),
                "board": game.rules.hook.mn_board_svg(say=say, game=game, viewer=None) or "",
                "log": log[-400:],
                # the page's own words in the log's language
                "where": say.say("ui.replay_where", step=self.step, steps=len(self.choices),
                                 round=game.state.round),
                "words": {k: say.say(f"ui.{k}") for k in (
                    "replay_open", "replay_prev_round", "replay_prev", "replay_next",
                    "replay_next_round", "nav_new", "nav_replay", "nav_editor",
                    "nav_design")}}


def new_replay(text: str) -> Replay:
    """A replay of a log's text: its pack must be a bundled one (no file of the request's
    is ever read or run), its choices are checked as the log reader checks them."""
    import tempfile
    from pathlib import Path

    from ..log import read_log
    from ..packs import list_packs
    from ..ruleset import load_ruleset

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "game.jsonl"
        path.write_text(text, encoding="utf-8")
        header, records = read_log(path)
    pack = str(header.get("pack") or "")
    if pack not in list_packs() or header.get("variant"):
        raise MnrulesError("replay: the web app replays logs of the bundled editions only "
                           f"({', '.join(p for p in list_packs() if '/' not in p)})")
    if isinstance(header.get("state"), dict):
        raise MnrulesError("replay: a log that starts from a saved game is replayed with "
                           "mnrules replay")
    choices = [rec["choice"] for _, rec in records if "choice" in rec]
    replay = Replay(secrets.token_urlsafe(8), load_ruleset(pack), header, choices)
    game = replay.fresh()
    from ..engine import as_choice

    rounds, last = [0], game.state.round
    for i, choice in enumerate(choices):
        if game.pending is None:
            raise MnrulesError(f"replay: the game is over after {i} choices; the log goes on")
        game.apply(as_choice(choice))
        if game.state.round != last:
            rounds.append(i + 1)
            last = game.state.round
    replay.rounds = rounds
    replay.fresh()
    return replay
