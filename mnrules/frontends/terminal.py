"""Human play in the terminal: each human reads, in his language, what happened since he
last chose (others' moves, trade, production, battles with their dice), the question and
his legal options, grouped and keyed; he types a key or a few words of one option, and
may undo within his own decisions.

Every word comes from the presentation layer (:mod:`mnrules.language.present`), so the terminal
knows no game. Option keys are stable: while a player answers questions of one kind in a
row (a build turn), an option keeps its number and a new one takes the next free number,
so numbers never shift when an option disappears. A menu is printed again only when it
changed (``l`` lists it again).

Commands at the prompt: a key, or words that pick out one option; ``v`` shows the table
as you know it, ``s`` your screen, ``l`` the options again, ``u`` undoes your last choice
(only while no other player has chosen and no die was rolled since), ``h`` helps, ``q``
quits.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import IO, Any

from ..core.effects import Event
from ..core.engine import Choice, Decision, Game
from ..core.state import State
from ..language.present import Presenter, presenter
from ..tools.stopping import unbroken

WIDTH = 100


def option_text(dec: Decision, i: int, say: Presenter | None = None,
                game: Game[Any] | None = None) -> str:
    """Option ``i`` as words (the presenter's sentence when there is one)."""
    if say is not None and game is not None:
        return say.option(game, dec, dec.options[i])
    if dec.labels:
        return dec.labels[i]
    opt = dec.options[i]
    return " ".join(str(x) for x in opt) if isinstance(opt, tuple) else str(opt)


def match_option(dec: Decision, text: str, texts: Sequence[str] | None = None,
                 keys: Sequence[int] | None = None) -> int | None:
    """The option a human means: its key, or the one option whose words contain all his
    words (an exact match wins)."""
    text = text.strip().lower()
    shown = list(texts) if texts is not None else [option_text(dec, i)
                                                   for i in range(len(dec.options))]
    numbers = list(keys) if keys is not None else list(range(1, len(dec.options) + 1))
    if text.isdigit():
        return numbers.index(int(text)) if int(text) in numbers else None
    words = text.split()
    if not words:
        return None
    hits = word_hits(shown, words)
    exact = [i for i in hits if shown[i].lower() == text]
    if len(exact) == 1:
        return exact[0]
    return hits[0] if len(hits) == 1 else None


def word_hits(texts: Sequence[str], words: Sequence[str]) -> list[int]:
    """The options (by index) whose text holds every one of a human's words."""
    return [i for i, t in enumerate(texts) if all(w in t.lower() for w in words)]


def key_spans(keys: Sequence[int]) -> str:
    """Keys as a player reads them: runs joined ("2–6, 9")."""
    out: list[str] = []
    ordered = sorted(keys)
    i = 0
    while i < len(ordered):
        j = i
        while j + 1 < len(ordered) and ordered[j + 1] == ordered[j] + 1:
            j += 1
        out.append(str(ordered[i]) if i == j else
                   f"{ordered[i]}, {ordered[j]}" if j == i + 1 else f"{ordered[i]}–{ordered[j]}")
        i = j + 1
    return ", ".join(out)


def no_match(say: Any, text: str, texts: Sequence[str], keys: Sequence[int]) -> str:
    """Why what a human typed picks no option: a key not offered now (keys are stable, so
    a gone option's key stays unused), words that fit several options, or none."""
    typed = text.strip()
    if typed.isdigit():
        return str(say.say("ui.no_key", number=typed, keys=key_spans(keys)))
    words = typed.lower().split()
    if not words:
        return str(say.say("ui.pick_one"))
    hits = [keys[i] for i in word_hits(texts, words)]
    if len(hits) > 1:
        return str(say.say("ui.ambiguous", text=typed, keys=key_spans(hits)))
    return str(say.say("ui.no_match", text=typed))


class _Screen:
    """Where the terminal writes: rich colour when rich is installed and the output is a
    terminal, plain text otherwise (a pipe, a test)."""

    def __init__(self, out: IO[str], colour: bool | None) -> None:
        self.out = out
        self.console: Any = None
        try:
            from rich.console import Console
        except ImportError:
            return
        self.console = Console(file=out, highlight=False, soft_wrap=True, emoji=False,
                               force_terminal=colour, no_color=colour is False)

    def say(self, text: str, style: str = "") -> None:
        if self.console is None:
            print(text, file=self.out, flush=True)
            return
        from rich.markup import escape

        self.console.print(f"[{style}]{escape(text)}[/]" if style else escape(text))
        self.out.flush()

    def table(self, title: str, head: Sequence[str], rows: Sequence[Sequence[str]],
              labelled: Callable[[str, str], str] = lambda h, v: f"{h}: {v}") -> None:
        if self.console is None or not head:
            self.say(title, "bold")
            if head:
                self.say("  " + " | ".join(head))
            for row in rows:
                self.say("  " + " | ".join(row))
            return
        widths = [max(len(h), *(len(r[j]) for r in rows if j < len(r))) if rows else len(h)
                  for j, h in enumerate(head)]
        if sum(widths) + 3 * (len(head) - 1) > self.console.width and len(head) > 2:
            # too wide for this terminal: a row per line, each value with its column's
            # name, rather than headers and names broken mid-word
            self.say(title, "bold")
            for row in rows:
                self.say(f"  {row[0]} \u2014 " + "; ".join(
                    labelled(h, v) for h, v in zip(head[1:], row[1:], strict=False) if v))
            return
        from rich.table import Table

        t = Table(title=title, title_justify="left", show_edge=False, pad_edge=False)
        for h in head:
            # a narrow terminal wraps a cell's words rather than cutting them off with "…"
            t.add_column(h, overflow="fold")
        for row in rows:
            t.add_row(*row)
        self.console.print(t)


@dataclass
class Terminal:
    """The humans' side of one game; bots answer everything else."""

    humans: set[str]
    bots: dict[str, Any]
    read: Callable[[str], str] = input
    out: IO[str] = field(default_factory=lambda: sys.stdout)
    undo: dict[str, list[tuple[State, int, int]]] = field(default_factory=dict)
    on_undo: list[Callable[[], None]] = field(default_factory=list)
    """Told when a choice is undone (the log takes it out)."""
    lang: str | None = None
    colour: bool | None = None
    """Colour on (True), off (False) or when the output is a terminal (None)."""
    _events: list[Event] = field(default_factory=list)
    _chances: int = 0
    _say: Presenter | None = None
    _keys: dict[tuple[str, str], dict[Choice, int]] = field(default_factory=dict)
    _shown: dict[str, tuple[str, tuple[str, ...]]] = field(default_factory=dict)
    _screen: _Screen | None = None

    @property
    def screen(self) -> _Screen:
        if self._screen is None:
            self._screen = _Screen(self.out, self.colour)
        return self._screen

    def say(self, text: str, style: str = "") -> None:
        self.screen.say(text, style)

    def watch(self, game: Game[Any]) -> None:
        game.listeners.append(self._seen)
        if self._say is None:
            self._say = presenter(game.rules, self.lang)

    def _seen(self, event: Event) -> None:
        if event.kind == "chance":
            self._chances += 1
        self._events.append(event)

    def summarise(self, game: Game[Any], viewer: str | None) -> None:
        """What happened since the human last looked, as he may know it."""
        say = self._presenter(game)
        for ev in self._events:
            text = say.event(game, ev, viewer)
            if not text:
                continue
            style = "bold cyan" if ev.kind == "phase_start" else \
                "bold red" if ev.kind == "battle" else \
                "bold magenta" if ev.kind == "game_over" else ""
            self.say(f"  {text}", style)
        self._events.clear()

    def _presenter(self, game: Game[Any]) -> Presenter:
        if self._say is None:
            self._say = presenter(game.rules, self.lang)
        return self._say

    def play(self, game: Game[Any], stop: int | None = None) -> bool:
        """Run the game to its end (or the start of round ``stop``); False if a human quit."""
        self.watch(game)
        last: str | None = None
        while (dec := game.pending) is not None and (stop is None or game.state.round < stop):
            if dec.player not in self.humans:
                choice = self.bots[dec.player].choose(game)
                with unbroken():  # a stop leaves the log with this choice's draws or neither
                    game.apply(choice)
                continue
            last = dec.player
            self.summarise(game, dec.player)
            choice = self.ask(game, dec)
            if choice is None:
                self.say(self._presenter(game).say("ui.quit"))
                return False
            if choice == "undo":
                continue
            self.undo.setdefault(dec.player, []).append(
                (game.snapshot(), len(game.history), self._chances))
            with unbroken():
                game.apply(choice)
        self.summarise(game, last if len(self.humans) == 1 else next(iter(self.humans)))
        return True

    # -- the menu -------------------------------------------------------------------------
    def _numbers(self, dec: Decision) -> list[int]:
        """Stable keys: an option keeps its key while its player answers questions of the
        same kind; a new one takes the next free key."""
        kind = (dec.player, dec.kind)
        if kind not in self._keys:
            self._keys = {k: v for k, v in self._keys.items() if k[0] != dec.player}
        keys = self._keys.setdefault(kind, {})
        out = []
        used = set(keys.values())
        free = 1
        for opt in dec.options:
            if opt not in keys:
                while free in used:
                    free += 1
                keys[opt] = free
                used.add(free)
            out.append(keys[opt])
        return out

    def menu(self, game: Game[Any], dec: Decision, texts: Sequence[str],
             numbers: Sequence[int], force: bool = False) -> None:
        say = self._presenter(game)
        self.say(f"\n== {say.prompt(game, dec)}", "bold yellow")
        shown = (dec.kind, tuple(texts))
        if not force and self._shown.get(dec.player) == shown:
            self.say("  " + say.say("ui.same_options"), "dim")
            return
        self._shown[dec.player] = shown
        groups: dict[str, list[int]] = {}
        heading = game.rules.definition.presentation.option_group
        for i, opt in enumerate(dec.options):
            head = heading(say=say, game=game, decision=dec, option=opt) or ""
            groups.setdefault(head, []).append(i)
        for head, items in groups.items():
            cells = [f"{numbers[i]:>3}. {texts[i]}" for i in items]
            if head:
                line = f"  {head}: " + "  ".join(c.strip() for c in cells)
                if len(line) <= WIDTH:
                    self.say(line)
                    continue
                self.say(f"  {head}", "bold")
            if len(cells) > 1 and max(len(c) for c in cells) < WIDTH // 3:
                width = max(len(c) for c in cells) + 2
                per = max(1, (WIDTH - 2) // width)
                for j in range(0, len(cells), per):
                    self.say("  " + "".join(c.ljust(width) for c in cells[j:j + per]).rstrip())
            else:
                for c in cells:
                    self.say(f"  {c}")

    def show_table(self, game: Game[Any], player: str) -> None:
        say = self._presenter(game)
        shown = game.rules.definition.presentation
        table = shown.table(say=say, game=game, viewer=player)
        if table is None:
            self.say(shown.describe(say=say, game=game, player=player, what="board") or "")
            return
        self.say(table["title"], "bold")
        for sec in table["sections"]:
            notes = sec.get("notes") or []
            if sec.get("head"):
                self.screen.table(sec["title"], sec["head"], sec["rows"],
                                  lambda h, v: say.say("ui.labelled", label=h, value=v))
            else:
                # a section without columns is a list of labelled values, read as such;
                # its notes, when it has some, already say the same in a sentence
                self.say(sec["title"], "bold")
                for row in [] if notes else sec["rows"]:
                    self.say("  " + say.say("ui.labelled", label=row[0],
                                            value=say.join(list(row[1:]))))
            for note in notes:
                self.say(f"  {note}")

    def ask(self, game: Game[Any], dec: Decision) -> Choice | str | None:
        say = self._presenter(game)
        texts = say.options(game, dec)
        numbers = self._numbers(dec)
        self.menu(game, dec, texts, numbers)
        while True:
            try:
                text = self.read(f"{say.name(dec.player)}> ")
            except EOFError:
                return None
            cmd = text.strip().lower()
            if cmd in ("q", "quit"):
                return None
            if cmd in ("h", "help", "?"):
                self.say(say.say("ui.help"))
                continue
            if cmd == "l":
                self.menu(game, dec, texts, numbers, force=True)
                continue
            if cmd == "v":
                self.show_table(game, dec.player)
                continue
            if cmd == "s":
                self.say(game.rules.definition.presentation.describe(
                    say=say, game=game, player=dec.player, what="screen") or "")
                continue
            if cmd == "u":
                if self._undo(game, dec.player):
                    self.say(say.say("ui.undone"), "green")
                    self._shown.pop(dec.player, None)
                    return "undo"
                self.say(say.say("ui.cannot_undo"), "red")
                continue
            picked = match_option(dec, text, texts, numbers)
            if picked is None:
                self.say(no_match(say, text, texts, numbers), "red")
                continue
            return dec.options[picked]

    def _undo(self, game: Game[Any], player: str) -> bool:
        """Back to before this player's last choice, if nothing has happened since."""
        stack = self.undo.get(player)
        if not stack:
            return False
        before, history_len, chances = stack[-1]
        if history_len != len(game.history) - 1 or chances != self._chances:
            return False
        stack.pop()
        from ..core.start import load_game

        fresh = load_game(game.rules, before)
        game.state = fresh.state
        game.rng = fresh.rng
        game.history.pop()
        game._pending = None
        self._events.clear()
        for told in self.on_undo:
            told()
        return True
