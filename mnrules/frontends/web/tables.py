"""The games a web server holds: each a :class:`Table` (one game, its seats, bots,
undo stacks and what happened), and a :class:`Replay` of a log stepped choice by choice.

Everything a client is sent is built here by :meth:`Table.view`, from the presentation
hooks for one seat: the table as that seat may know it, the map, what happened as he may
read it, and his options only when the decision is his. No state, stack, history or
other seat's link is ever put in a view. Every change goes through ``game.apply``.
"""

from __future__ import annotations

import copy
import json
import secrets
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from ...bots import Bot, make_bot
from ...content.ruleset import Ruleset
from ...core.effects import Event
from ...core.engine import Decision, Game
from ...core.state import State
from ...errors import MnrulesError
from ...language.present import Presenter, presenter
from .store import GameRecord, GameStore, StoredChoice, digest

HOST = "host"
WEB_MAX_SEARCH = 64
"""The most search a seat's bot may ask in the web app (``search:N``, ``mcts:N``
iterations a decision): a decision is never cut short, so this bounds how far a request
may overrun its budget (Mare Nostrum, 5 players: the slowest decision of a game takes
0.6 s at ``search`` (16), 2.3 s at ``search:64``, 2.8 s at ``mcts:64``, 6.4 s at
``search:200``)."""
TOKEN_BYTES = 16
"""A link's token: 128 random bits."""


@dataclass
class Budget:
    """How much bot play one request may do before it answers (the bots go on at the
    next request)."""

    choices: int = 2_000
    seconds: float = 0.5


@dataclass
class Seat:
    player: str
    token: str
    """The digest of the seat's token (:func:`mnrules.frontends.web.store.digest`)."""
    human: bool
    lang: str | None


UndoEntry = tuple[State, int, int, int]
"""What undoing a choice goes back to: the state, the choice count, the chance count and
the events heard before it."""


@dataclass
class Table:
    """One game in the server: its seats (each with a private link token), bots and what
    happened. The host's token sees every human seat in turn (several humans at one
    screen); a seat's token sees that seat only. With a ``store``, every choice is
    written there before the request that made it is answered."""

    id: str
    game: Game[Any]
    pack: str
    seats: dict[str, Seat]
    bots: dict[str, Bot]
    host: str
    """The digest of the host's token."""
    lang: str | None
    events: list[tuple[int, Event]] = field(default_factory=list)
    undo: dict[str, list[UndoEntry]] = field(default_factory=dict)
    chances: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)
    _say: dict[str, Presenter] = field(default_factory=dict)
    _told: dict[tuple[str, str | None], tuple[int, list[str]]] = field(default_factory=dict)
    kinds: dict[str, str] = field(default_factory=dict)
    """Who plays each seat: a bot's name as given, or ``human`` (what a save records)."""
    store: GameStore | None = None
    start: dict[str, Any] | None = None
    """The saved position the game started from (None: a new game from its seed)."""
    tokens: dict[str, str] = field(default_factory=dict)
    """The links' own tokens (``host`` and each human seat's), known only to the request
    that made the table: the store keeps their digests."""
    _unsaved: list[StoredChoice] = field(default_factory=list)
    saved: int = 0
    """How many of the game's choices the store holds."""
    hotseat: bool = True
    """The host's link plays every human seat; else only the first human seat, its
    own, and each other seat is played on its own link."""
    lobby: bool = False
    """Listed in the lobby while a human seat is free (no token yet: a friend joins it)."""
    watch: str = ""
    """The spectator link's token: it shows what every player sees, nothing else."""

    _boards: dict[tuple[str | None, str | None], tuple[Any, int, str]] = field(default_factory=dict)
    """Each (language, viewer)'s last board picture, with the state it was drawn from
    (the object itself, so an undo's new state never passes for it) and its choices."""

    def __post_init__(self) -> None:
        self.game.listeners.append(self._heard)
        self.game.choice_listeners.append(self._chosen)

    def _heard(self, event: Event) -> None:
        if event.kind == "chance":
            self.chances += 1
        self.events.append((self.game.state.round, event))

    def _chosen(self, decision: Decision, choice: Any) -> None:
        self._unsaved.append((decision.player, decision.kind, choice))

    def commit(self) -> None:
        """Write the choices made since the last commit (before anyone is told)."""
        if self.store is not None and self._unsaved:
            self.store.append(self.id, self.saved, self._unsaved, self.game.over)
        self.saved += len(self._unsaved)
        self._unsaved = []

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
        """The players a link plays: the host of a hotseat game every human seat, the
        host of any other game the first human seat (his own), a seat's link that seat,
        the spectator's link none."""
        key = digest(token)
        humans = [p for p, s in self.seats.items() if s.human]
        if secrets.compare_digest(key, self.host):
            return humans if self.hotseat else humans[:1]
        return [p for p, s in self.seats.items()
                if s.human and s.token and secrets.compare_digest(key, s.token)]

    def is_host(self, token: str) -> bool:
        return secrets.compare_digest(digest(token), self.host)

    def is_watch(self, token: str) -> bool:
        return bool(self.watch) and secrets.compare_digest(
            token.encode("utf-8", "replace"), self.watch.encode("utf-8", "replace"))

    def claim(self, player: str) -> str | None:
        """Join the free seat ``player``: its new link's token (None: not free)."""
        seat = self.seats.get(player)
        if seat is None or not seat.human or seat.token:
            return None
        token = secrets.token_urlsafe(TOKEN_BYTES)
        if self.store is not None and not self.store.claim(self.id, player, digest(token)):
            return None
        seat.token = digest(token)
        return token

    # -- moving on -------------------------------------------------------------------------
    def bots_to_play(self) -> bool:
        dec = self.game.pending
        return dec is not None and not self.seats[dec.player].human

    def run_bots(self, budget: Budget | None = None) -> bool:
        """Let the bots play until a human's decision or the end, or until ``budget``
        is spent; whether bots are still to play."""
        game = self.game
        deadline = None if budget is None else time.monotonic() + budget.seconds
        played = 0
        try:
            while (dec := game.pending) is not None and not self.seats[dec.player].human:
                if budget is not None and (played >= budget.choices or
                                           time.monotonic() >= deadline):  # type: ignore[operator]
                    return True
                game.apply(self.bots[dec.player].choose(game))
                played += 1
            return False
        finally:
            self.commit()
            self._trim()

    def choose(self, players: list[str], index: int, version: int,
               budget: Budget | None = None) -> None:
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
        self.commit()       # the human's choice is kept before any bot plays
        self.run_bots(budget)

    def _trim(self) -> None:
        """Drop the undo entries that can no longer be reached: only a run of a player's
        last choices, with nothing chosen or drawn after or between them, can be taken
        back (a snapshot weighs tens of kilobytes: keeping them all grows without end)."""
        for p, stack in self.undo.items():
            want, chances, keep = len(self.game.history) - 1, self.chances, 0
            for _, history, drawn, _ in reversed(stack):
                if history != want or drawn != chances:
                    break
                keep, want = keep + 1, want - 1
            if keep < len(stack):
                del stack[:len(stack) - keep]
                self.undo[p] = stack

    def can_undo(self, player: str) -> bool:
        stack = self.undo.get(player)
        if not stack:
            return False
        _, history, chances, _ = stack[-1]
        return history == len(self.game.history) - 1 and chances == self.chances

    def undo_why(self, player: str, say: Presenter) -> str:
        """Why ``player`` cannot undo now, as a sentence ("" when he can)."""
        if self.can_undo(player):
            return ""
        if self.game.pending is None:
            return say.say("ui.undo_why_over")
        stack = self.undo.get(player)
        if not stack:
            return say.say("ui.undo_why_none")
        _, _, chances, _ = stack[-1]
        if chances != self.chances:
            return say.say("ui.undo_why_drawn")
        return say.say("ui.undo_why_other")

    def take_back(self, players: list[str]) -> bool:
        """Undo the last choice of one of ``players`` if nothing has happened since (no
        other choice, no die)."""
        from ...core.start import load_game

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
                self.saved = len(self.game.history)
                if self.store is not None:
                    self.store.truncate(self.id, self.saved)
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

    def _board(self, say: Presenter, lang: str | None, viewer: str | None) -> str:
        """The map as ``viewer`` sees it, drawn again only when the game has moved: most
        of a view's work, asked by every seat and spectator that looks while nothing
        happens."""
        state, key = self.game.state, (lang, viewer)
        seen = self._boards.get(key)
        if seen is not None and seen[0] is state and seen[1] == state.choices:
            return seen[2]
        shown = self.game.rules.definition.presentation
        svg = shown.board_svg(say=say, game=self.game, viewer=viewer) or ""
        self._boards[key] = (state, state.choices, svg)
        return svg

    def view(self, players: list[str], lang: str | None = None) -> dict[str, Any]:
        """The JSON a seat's page shows: built only from what its players may know."""
        game = self.game
        lang = lang or self.lang
        say = self.say(lang)
        dec = game.pending
        viewer = _viewer(players, dec)
        shown = game.rules.definition.presentation
        out: dict[str, Any] = {
            "version": self.version,
            "lang": say.language,
            "you": [say.player(p) for p in players],
            "viewer": say.player(viewer) if viewer else "",
            "table": shown.table(say=say, game=game, viewer=viewer),
            "board": self._board(say, lang, viewer),
            "log": self.told(viewer, lang)[-400:],
            "words": {k: say.say(f"ui.{k}") for k in ("undo", "log", "options", "save",
                                                      "download_log", "nav_new",
                                                      "nav_replay", "nav_editor",
                                                      "nav_design", "nav_lobby",
                                                      "turn_title", "turn_sound",
                                                      "turn_notify", "board_label",
                                                      "watching", "options_narrow", "form_watch",
                                                      "options_all", "zoom", "zoom_in", "zoom_out",
                                                      "zoom_reset")},
            "over": dec is None,
            "can_undo": viewer is not None and self.can_undo(viewer),
            "undo_why": "" if viewer is None else self.undo_why(viewer, say),
            "your_turn": dec is not None and dec.player in players,
        }
        out["role"] = "seat" if players else "watch"
        if not players:
            out["you"] = [say.say("ui.watching")]
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

    # -- kept and rebuilt ---------------------------------------------------------------------
    def record(self) -> GameRecord:
        return GameRecord(self.id, self.pack, list(self.game.state.players),
                          self.game.state.seed, self.start, self.lang, dict(self.kinds),
                          self.host, {p: s.token for p, s in self.seats.items() if s.human},
                          time.time(), self.game.over, self.hotseat, self.lobby,
                          self.watch)

    def log_text(self) -> str:
        """The game's log as ``mnrules play --log`` writes it (``mnrules replay`` reads
        it): played again from its start, so its chance lines are the game's own."""
        import io

        from ...tools.log import Recorder

        game = _fresh_game(self.game.rules, self.game.state.players,
                           self.game.state.seed, self.start)
        out = io.StringIO()
        rec = Recorder(out)
        rec.header(game, self.pack, None, start=self.start is not None, seats=self.kinds)
        rec.attach(game)
        from ...core.engine import as_choice

        for choice in list(self.game.history):
            # a typed choice (a named tuple) goes back as the plain data a log holds
            game.apply(as_choice(json.loads(json.dumps(choice))))
        _ = game.pending
        return out.getvalue()


def _fresh_game(rules: Ruleset, players: list[str], seed: int,
                start: dict[str, Any] | None) -> Game[Any]:
    from ...core.start import load_game, new_game

    if start is not None:
        # a game loaded from a dict may hold its lists: the start stays as it was
        return load_game(rules, copy.deepcopy(start))
    return new_game(rules, len(players), seed=seed)


def rebuild(record: GameRecord, choices: list[StoredChoice], store: GameStore | None,
            rules: Ruleset | None = None) -> Table:
    """A stored game as it stands: made again from how it was made, its stored choices
    played through the decision loop (undo as it was: each human choice's position is
    kept while it can be taken back)."""
    from ...content.ruleset import load_ruleset
    from ...core.engine import as_choice

    rules = rules or load_ruleset(record.pack)
    game = _fresh_game(rules, record.players, record.seed, record.start)
    if list(game.state.players) != record.players:
        raise MnrulesError(f"game {record.id}: its players are no longer the pack's")
    table = _seated(game, record.pack, record.kinds, record.lang, record.id, record.host,
                    record.seats, store, record.start)
    table.hotseat, table.lobby, table.watch = record.hotseat, record.lobby, record.watch
    for n, (player, kind, choice) in enumerate(choices):
        dec = game.pending
        if dec is None or dec.player != player or dec.kind != kind:
            raise MnrulesError(f"game {record.id}: its choice {n + 1} no longer fits "
                               f"the rules (the pack changed since it was played)")
        if table.seats[player].human:
            table.undo.setdefault(player, []).append(
                (game.snapshot(), len(game.history), table.chances, len(table.events)))
        game.apply(as_choice(choice))
        table._trim()
    table._unsaved = []
    table.saved = len(game.history)
    return table


def _viewer(players: list[str], dec: Decision | None) -> str | None:
    if dec is not None and dec.player in players:
        return dec.player
    return players[0] if players else None


def _options(say: Presenter, game: Game[Any], dec: Decision) -> list[dict[str, Any]]:
    shown = game.rules.definition.presentation
    out = []
    for i, opt in enumerate(dec.options):
        out.append({"key": i, "text": say.option(game, dec, opt),
                    "group": shown.option_group(say=say, game=game, decision=dec,
                                                option=opt) or "",
                    "places": list(shown.option_places(game=game, decision=dec,
                                                       option=opt) or [])})
    return out


def new_table(rules: Ruleset, pack: str, players: int, seats: dict[str, str], seed: int,
              lang: str | None, store: GameStore | None = None,
              budget: Budget | None = None, hotseat: bool = False,
              lobby: bool = False) -> Table:
    """A new game: ``seats`` says for each player "human" or a bot kind."""
    from ...core.start import new_game

    game = new_game(rules, players, seed=seed)
    return seat_table(game, pack, seats, lang, store=store, budget=budget, new=True,
                      hotseat=hotseat, lobby=lobby)


def search_budget(kind: str) -> int:
    """The search a bot's name asks a decision: the number its argument starts with
    (``search:N``, ``mcts:N+width=4``, whatever the game calls its searching bots), 0
    for a bot whose argument is no number (``heuristic:trader``) or that has none."""
    head = kind.partition(":")[2].split("+")[0]
    return int(head) if head.isdigit() else 0


def seat_table(game: Game[Any], pack: str, seats: dict[str, str], lang: str | None,
               recorded: dict[str, str] | None = None, store: GameStore | None = None,
               budget: Budget | None = None, new: bool = False, hotseat: bool = False,
               lobby: bool = False) -> Table:
    """A table for ``game``: each player is what ``seats`` says ("human" or a bot's
    name), else what ``recorded`` says (a save's own seats), else a random bot. A bot is
    seeded as ``mnrules play`` seeds it, so a save goes on as the straight game. With a
    ``store`` the table is kept there before its first bot plays. ``hotseat``: the host's
    link plays every human seat (else its own, the first). ``lobby``: the human seats
    after the host's are free, listed in the lobby for friends to join (no link yet)."""
    from ...tools.log import HUMAN, MAX_BOT_NAME

    players = game.state.players
    unknown = set(seats) - set(players)
    if unknown:
        raise MnrulesError(f"seats: {', '.join(sorted(unknown))} not in this game "
                           f"({', '.join(players)})")
    kinds: dict[str, str] = {}
    say = presenter(game.rules, lang)
    for p in players:
        kind = seats.get(p) or (recorded or {}).get(p) or "random"
        if len(kind) > MAX_BOT_NAME:
            raise MnrulesError(f"seats: {p}: a bot's name of at most {MAX_BOT_NAME} "
                               f"characters")
        if search_budget(kind) > WEB_MAX_SEARCH:
            raise MnrulesError(say.say("ui.refused_bot_budget", player=say.player(p),
                                       bot=kind, limit=WEB_MAX_SEARCH))
        kinds[p] = kind
    tokens = {HOST: secrets.token_urlsafe(TOKEN_BYTES)}
    humans = [p for p in players if kinds[p] == HUMAN]
    tokens.update({p: secrets.token_urlsafe(TOKEN_BYTES)
                   for p in (humans[:1] if lobby and not hotseat else humans)})
    # a loaded game is kept from its position; a new one is made again from its seed
    start = None if new else game.snapshot().to_dict()
    table = _seated(game, pack, kinds, lang, secrets.token_urlsafe(TOKEN_BYTES),
                    digest(tokens[HOST]),
                    {p: digest(t) for p, t in tokens.items() if p != HOST}, store, start)
    table.tokens = tokens
    table.hotseat, table.lobby = hotseat, lobby and not hotseat
    table.watch = secrets.token_urlsafe(TOKEN_BYTES)
    if store is not None:
        store.create(table.record())
    table.run_bots(budget)
    return table


def _seated(game: Game[Any], pack: str, kinds: dict[str, str], lang: str | None,
            table_id: str, host: str, tokens: dict[str, str], store: GameStore | None,
            start: dict[str, Any] | None) -> Table:
    from ...tools.log import HUMAN

    bots: dict[str, Bot] = {}
    table_seats: dict[str, Seat] = {}
    for i, p in enumerate(game.state.players):
        human = kinds[p] == HUMAN
        if not human:
            bots[p] = make_bot(kinds[p], game.state.seed * 1009 + i, game.rules)
        table_seats[p] = Seat(p, tokens.get(p, ""), human, lang)
    return Table(table_id, game, pack, table_seats, bots, host, lang, kinds=kinds,
                 store=store, start=start)


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
    # where the log leaves the rules (``mnrules replay``'s words); its choices stop there
    divergence: str | None = None

    def fresh(self) -> Game[Any]:
        from ...core.start import new_game

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
        from ...core.engine import as_choice

        while self.step < step and game.pending is not None:
            game.apply(as_choice(self.choices[self.step]))
            self.step += 1
        return game

    def view(self, lang: str | None) -> dict[str, Any]:
        game = self.game or self.go(0)
        say = presenter(self.rules, lang)
        log = [text for _, ev in self.events if (text := say.event(game, ev, None))]
        shown = game.rules.definition.presentation
        return {"step": self.step, "steps": len(self.choices), "rounds": self.rounds,
                "round": game.state.round,
                "table": shown.table(say=say, game=game, viewer=None),
                "board": shown.board_svg(say=say, game=game, viewer=None) or "",
                "log": log[-400:],
                # the page's own words in the log's language
                "where": say.say("ui.replay_where", step=self.step, steps=len(self.choices),
                                 round=game.state.round),
                "divergence": "" if self.divergence is None
                else say.say("replay.divergence", divergence=self.divergence),
                "words": {k: say.say(f"ui.{k}") for k in (
                    "replay_open", "replay_prev_round", "replay_prev", "replay_next",
                    "replay_next_round", "nav_new", "nav_replay", "nav_editor",
                    "nav_design", "nav_lobby", "replay_file", "board_label",
                    "zoom", "zoom_in", "zoom_out", "zoom_reset")},
                "lang": say.language}


def new_replay(text: str) -> Replay:
    """A replay of a log's text: its pack must be a bundled one (no file of the request's
    is ever read or run), its choices are checked as the log reader checks them."""
    import tempfile
    from pathlib import Path

    from ...content.packs import list_packs
    from ...content.ruleset import load_ruleset
    from ...tools.log import read_log
    from ...tools.log import replay as replay_log

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "game.jsonl"
        path.write_text(text, encoding="utf-8")
        header, records = read_log(path)
        pack = str(header.get("pack") or "")
        if pack not in list_packs() or header.get("variant"):
            raise MnrulesError("replay: the web app replays logs of the bundled editions "
                               f"only ({', '.join(p for p in list_packs() if '/' not in p)})")
        if isinstance(header.get("state"), dict):
            raise MnrulesError("replay: a log that starts from a saved game is replayed "
                               "with mnrules replay")
        rules = load_ruleset(pack)
        # read as ``mnrules replay`` reads it: each record's player and kind, and the
        # chance records, against the game; a log that leaves the rules is shown up to
        # where it does, and says where
        rounds = _Rounds()
        checked = replay_log(path, rules, watch=rounds)
    choices = [rec["choice"] for _, rec in records if "choice" in rec][:checked.choices]
    replay = Replay(secrets.token_urlsafe(8), rules, header, choices,
                    divergence=checked.divergence)
    replay.rounds = rounds.starts
    replay.fresh()
    return replay


class _Rounds:
    """The step each round starts at, seen as the log is read (a replay's watcher)."""

    def __init__(self) -> None:
        self.starts = [0]
        self._round = 0
        self._steps = 0

    def start(self, game: Game[Any]) -> None:
        self._round = game.state.round

    def event(self, game: Game[Any], event: Event) -> None:
        pass

    def after(self, game: Game[Any], line: int) -> None:
        self._steps += 1
        if game.state.round != self._round:
            self.starts.append(self._steps)
            self._round = game.state.round
