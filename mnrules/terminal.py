"""Human play in the terminal: each human sees only his own view, the numbered legal
choices (or types a few words of one), and may undo within his own decisions.

Commands at the prompt: a number, or words that pick out one option;
``v`` shows the board as you know it, ``s`` your screen, ``u`` undoes your last choice
(only while no other player has chosen and no die was rolled since), ``h`` helps,
``q`` quits.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import IO, Any

from .effects import Event
from .engine import Choice, Decision, Game
from .state import State

HELP = __doc__ or ""


def option_text(dec: Decision, i: int) -> str:
    opt = dec.options[i]
    if dec.labels:
        return dec.labels[i]
    if isinstance(opt, tuple):
        return " ".join(str(x) for x in opt)
    return str(opt)


def match_option(dec: Decision, text: str) -> int | None:
    """The option a human means: its number, or the one option containing all his words."""
    text = text.strip().lower()
    if text.isdigit():
        i = int(text) - 1
        return i if 0 <= i < len(dec.options) else None
    words = text.split()
    if not words:
        return None
    hits = [i for i in range(len(dec.options))
            if all(w in option_text(dec, i).lower() for w in words)]
    exact = [i for i in hits if option_text(dec, i).lower() == text]
    if len(exact) == 1:
        return exact[0]
    return hits[0] if len(hits) == 1 else None


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
    _events: list[Event] = field(default_factory=list)
    _chances: int = 0

    def say(self, text: str) -> None:
        print(text, file=self.out, flush=True)

    def watch(self, game: Game[Any]) -> None:
        game.listeners.append(self._seen)

    def _seen(self, event: Event) -> None:
        if event.kind == "chance":
            self._chances += 1
        else:
            self._events.append(event)

    def summarise(self) -> None:
        """What the bots did since the human last looked, briefly."""
        for ev in self._events:
            if ev.kind == "built" and ev.player not in self.humans:
                self.say(f"  {ev.player} builds {' '.join(str(x) for x in ev.data['action'])}")
            elif ev.kind == "battle":
                self.say(f"  battle in {ev.data['area']}: {ev.player} vs "
                         f"{ev.data['defender']}, hits {ev.data['hits']}")
            elif ev.kind == "move" and ev.player not in self.humans:
                self.say(f"  {ev.player} moves a {ev.data['kind']} {ev.data['from']} -> "
                         f"{ev.data['to']}")
            elif ev.kind in ("title", "convert", "pillage", "game_over"):
                self.say(f"  {ev.kind}: {ev.player or ''} {ev.data}")
        self._events.clear()

    def play(self, game: Game[Any], stop: int | None = None) -> bool:
        """Run the game to its end (or the start of round ``stop``); False if a human quit."""
        self.watch(game)
        while (dec := game.pending) is not None and (stop is None or game.state.round < stop):
            if dec.player not in self.humans:
                game.apply(self.bots[dec.player].choose(game))
                continue
            self.summarise()
            choice = self.ask(game, dec)
            if choice is None:
                return False
            if choice == "undo":
                continue
            self.undo.setdefault(dec.player, []).append(
                (game.snapshot(), len(game.history), self._chances))
            game.apply(choice)
        self.summarise()
        state = game.state
        if state.finished:
            self.say(f"Game over: {', '.join(state.winners) or 'nobody'} "
                     f"({state.victory or 'no victory'})")
        return True

    def ask(self, game: Game[Any], dec: Decision) -> Choice | str | None:
        self.say(f"\n== {dec.player}: {dec.prompt}")
        for i in range(len(dec.options)):
            self.say(f"  {i + 1:>3}. {option_text(dec, i)}")
        while True:
            try:
                text = self.read(f"{dec.player}> ")
            except EOFError:
                return None
            cmd = text.strip().lower()
            if cmd in ("q", "quit"):
                return None
            if cmd in ("h", "help", "?"):
                self.say(HELP)
                continue
            if cmd == "v":
                self.say(game.rules.hook.mn_describe(game=game, player=dec.player,
                                                     what="board") or "")
                continue
            if cmd == "s":
                self.say(game.rules.hook.mn_describe(game=game, player=dec.player,
                                                     what="screen") or "")
                continue
            if cmd == "u":
                if self._undo(game, dec.player):
                    self.say("undone.")
                    return "undo"
                self.say("nothing of yours to undo (another player chose, or a die was "
                         "rolled, since)")
                continue
            picked = match_option(dec, text)
            if picked is None:
                self.say("type an option's number or words that pick out one option "
                         "(h for help)")
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
        from .start import load_game

        fresh = load_game(game.rules, before)
        game.state = fresh.state
        game.rng = fresh.rng
        game.history.pop()
        game._pending = None
        for told in self.on_undo:
            told()
        return True
