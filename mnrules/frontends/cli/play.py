"""The ``mnrules play`` command: a game with bots or humans at the terminal, saved,
loaded and logged."""

from __future__ import annotations

import argparse
import contextlib
import sys
from pathlib import Path
from typing import Any

from ...bots import Bot, make_bot
from ...core.effects import Event
from ...core.engine import Game
from ...core.start import new_game, set_round_cap
from ...errors import MnrulesError
from ...files import check_distinct, check_writable, streaming
from ...language.present import Presenter, presenter
from ...tools.stopping import unbroken
from .common import _ending, _rules, _where_stopped, game_option, whole


def _round_lines(game: Game[Any], rnd: int, events: list[Event], say: Presenter
                 ) -> list[str]:
    """The round's summary as the presentation layer says it in the language asked: the
    game's (its presentation's ``round_summary``), else each player's report in the
    pack's names."""
    lines: list[str] | None = game.rules.definition.presentation.round_summary(
        say=say, game=game, round=rnd, events=events)
    if lines is not None:
        return lines
    return [say.say("ui.round", round=rnd),
            *(f"  {say.player(p):<9} " + ", ".join(f"{say.name(k)} {say.plain(v)}"
                                                   for k, v in r.items())
              for p, r in game.report().items())]


def _folded(text: str) -> str:
    """A name as a player may type it: any case, accents or none ("grece" for Grèce)."""
    import unicodedata

    return "".join(c for c in unicodedata.normalize("NFKD", text.casefold())
                   if not unicodedata.combining(c))


def _seat(given: str, players: list[str], say: Any) -> str:
    """The player ``--human`` names: by id (``greece``), by name in the game's language
    (``Grèce``, ``grece``) or by seat number (``2``)."""
    if given in players:
        return given
    if given.isdigit() and 1 <= int(given) <= len(players):
        return players[int(given) - 1]
    by_name = {_folded(say.player(p)): p for p in players} | {_folded(p): p for p in players}
    if _folded(given) in by_name:
        return by_name[_folded(given)]
    from ...content.yamlsource import did_you_mean

    seats = ", ".join(f"{i} {say.player(p)}" for i, p in enumerate(players, 1))
    raise MnrulesError(f"--human: {given!r} is not a player of this game"
                       + did_you_mean(given, [say.player(p) for p in players])
                       + f" (name a player or his seat: {seats})")


def _continues(path: str, game: Game, pack: str, variant: str | None) -> bool:
    """Whether ``path`` is this saved game's own log up to the save (then it goes on)."""
    from ...tools.log import LogError, read_log

    p = Path(path)
    if not p.is_file() or p.stat().st_size == 0:
        return False
    try:
        header, records = read_log(p)
    except LogError:
        return False
    from ...tools.log import file_ref

    st = game.state
    if (header.get("pack"), header.get("variant"), header.get("seed"),
            header.get("players")) != (file_ref(pack), file_ref(variant), st.seed, st.players):
        return False
    start = header.get("state")
    base = start.get("choices", 0) if isinstance(start, dict) else 0
    return base + sum(1 for _, rec in records if "choice" in rec) == st.choices


def _described(seats: dict[str, str]) -> str:
    """Who plays a game, in a few words: "heuristic bots (rome: human)", "bots greece:
    heuristic, egypt: random (rome: human)", "humans only"."""
    from ...tools.log import HUMAN

    bots = {p: k for p, k in seats.items() if k != HUMAN}
    humans = [f"{p}: human" for p, k in seats.items() if k == HUMAN]
    if not bots:
        return "humans only"
    kinds = set(bots.values())
    text = f"{next(iter(kinds))} bots" if len(kinds) == 1 else \
        "bots " + ", ".join(f"{p}: {k}" for p, k in bots.items())
    return text + (f" ({', '.join(humans)})" if humans else "")


def _seats(args: argparse.Namespace, game: Game[Any], recorded: dict[str, str] | None,
           say: Presenter) -> dict[str, str]:
    """Who plays each seat: a bot's name or ``human``. A new game's are the command
    line's (random bots unless --bots says). A loaded save's are its own unless --bots
    (the bots) or --human (the humans) say otherwise; when they do, or the save does
    not name its players, one sentence on stderr says with whom the game goes on."""
    from ...tools.log import HUMAN

    players = game.state.players
    if args.bots is not None:
        kinds = args.bots.split(",")
        if len(kinds) not in (1, len(players)):
            raise MnrulesError(f"--bots: give one bot kind or one per player "
                               f"({len(players)}), not {len(kinds)}")
        bots = {p: kinds[i % len(kinds)] for i, p in enumerate(players)}
    elif recorded is not None:
        # a seat the save had human takes the bot the others share (else random)
        shared = {k for k in recorded.values() if k != HUMAN}
        spare = next(iter(shared)) if len(shared) == 1 else "random"
        bots = {p: spare if k == HUMAN else k for p, k in recorded.items()}
    else:
        bots = dict.fromkeys(players, "random")
    if args.human is not None:
        humans = {_seat(h.strip(), players, say) for h in args.human.split(",")
                  if h.strip()}
    else:
        humans = {p for p, k in (recorded or {}).items() if k == HUMAN}
    seats = {p: HUMAN if p in humans else bots[p] for p in players}
    if args.load:
        given = " and ".join(o for o, v in (("--bots", args.bots), ("--human", args.human))
                             if v is not None)
        says = f" as {given} say{'s' if ' and ' not in given else ''}" if given else ""
        if recorded is None:
            print(f"mnrules: {args.load} does not name its players (an older save); "
                  f"going on with {_described(seats)}{says}", file=sys.stderr)
        elif seats != recorded:
            print(f"mnrules: {args.load} was played by {_described(recorded)}; going on "
                  f"with {_described(seats)}{says}", file=sys.stderr)
    return seats


def cmd_play(args: argparse.Namespace) -> int:
    from ...tools.log import HUMAN, load_saved, save

    check_distinct(("--log", args.log), ("--save", args.save))
    check_distinct(("--load", args.load), ("--log", args.log))
    for option in ("log", "save"):
        if getattr(args, option):
            check_writable(getattr(args, option), f"--{option}")
    recorded: dict[str, str] | None = None
    if args.load:
        saved = load_saved(args.load)
        game, pack, variant, recorded = saved.game, saved.pack, saved.variant, saved.seats
        rules = game.rules
        cap = game.state.vars.get("round_cap")
        if args.max_rounds is not None and args.max_rounds != cap:
            print(f"mnrules: {args.load}'s game "
                  + (f"ends undecided after {cap} rounds" if cap is not None
                     else "has no round cap")
                  + f"; going on with --max-rounds {args.max_rounds}", file=sys.stderr)
            set_round_cap(game, args.max_rounds)
    else:
        rules = _rules(args)
        pack, variant = args.edition, args.variant
        game = new_game(rules, args.players or max(rules.seating, default=1), seed=args.seed,
                        round_cap=args.max_rounds)
    say = presenter(rules, args.lang)  # a misspelt --lang is refused before any play
    # --rounds stops the driver at a round's start (the game itself goes on, so a save
    # taken then can be continued), rounds that ask nothing included; a game with no
    # --rounds plays to a victory.
    stop = game.state.round + args.rounds if args.rounds is not None else None
    game.max_rounds = stop
    events: list[Event] = []
    game.listeners.append(events.append)
    players = game.state.players
    seats = _seats(args, game, recorded, say)
    humans = {p for p, k in seats.items() if k == HUMAN}
    # bot seeds come from the game's own seed and the seat, so a loaded save plays on
    # identically with the bots it records
    bots: dict[str, Bot] = {p: make_bot(seats[p], game.state.seed * 1009 + i, game.rules)
                            for i, p in enumerate(players) if seats[p] != HUMAN}
    goes_on = bool(args.load and args.log and _continues(args.log, game, pack, variant))
    with contextlib.ExitStack() as closing:
        log_file = closing.enter_context(streaming(args.log, append=goes_on)) \
            if args.log else None
        rec: Any = None
        if log_file is not None:
            from ...tools.log import Recorder

            rec = Recorder(log_file)
            if not goes_on:
                # a log of a loaded game starts from the saved position, so it replays
                rec.header(game, pack, variant, start=bool(args.load), seats=seats)
            rec.attach(game)
        print(say.say("play.header", game=say.pack_name(),
                      players_count=say.count(len(players), "player"),
                      players=", ".join(say.player(p) for p in players),
                      seed=game.state.seed))
        if humans:
            from ..terminal import Terminal

            terminal = Terminal(humans, dict(bots),
                                on_undo=[rec.undo] if rec is not None else [],
                                lang=args.lang)
            terminal.play(game, stop)  # a human who quits has been told; the end says where
        else:
            rnd = game.state.round
            decisions = 0
            while (dec := game.pending) is not None and (stop is None
                                                         or game.state.round < stop):
                choice = bots[dec.player].choose(game)
                with unbroken():  # a stop leaves the log with this choice's draws or neither
                    game.apply(choice)
                decisions += 1
                if game.state.round != rnd or game.over:
                    print("\n".join(_round_lines(game, rnd, events, say)))
                    events.clear()
                    rnd = game.state.round
        state = game.state
        where = _where_stopped(game, say)  # before a save plays on to its decision
        if args.save:
            # a save is taken at a decision, as every snapshot: the start of the next round
            # is played first, with the log still listening
            game.max_rounds = None
            save(game, pack, variant, args.save, seats)
            print(say.say("play.saved", file=args.save, round=state.round))
        print(_ending(game, say, where))
    return 0


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    play = sub.add_parser("play", help="play a game with bots and print a summary")
    play.add_argument("--players", type=whole(1), default=None,
                      help="players (default: the most the game seats)")
    play.add_argument("--bots", default=None,
                      help="bot kind (random, heuristic, search[:ITERATIONS]), or one per "
                      "player, comma-separated (default: random; with --load, the save's "
                      "own)")
    play.add_argument("--seed", type=int, default=1,
                      help="the game's seed: its dice, draws and the bots' choices "
                      "(default: 1)")
    play.add_argument("--rounds", type=whole(0), default=None,
                      help="stop after this many rounds (default: play to a victory)")
    play.add_argument("--max-rounds", type=whole(1), default=None,
                      help="end the game undecided after this many rounds (default: no "
                      "limit; unlike --rounds, the game is over)")
    play.add_argument("--edition", default=None,
                      help="the edition pack: an id (en, fr, antike2, ...) or a pack file "
                      "(default: the game's base pack)")
    play.add_argument("--variant", default=None, help="a variant file on top of the edition")
    play.add_argument("--lang", default=None,
                      help="print names in this language (one the game's packs are in: "
                      "en, fr, nl, pl, uk)")
    play.add_argument("--human", default=None,
                      help="players played by humans at this terminal, comma-separated: "
                           "by name in the game's language (accents optional), id or seat "
                           "number (1 is the first); with --load the save's own humans "
                           "unless given ('' for none)")
    play.add_argument("--log", default=None,
                      help="write a JSON-lines log of the game (mnrules replay reads it)")
    play.add_argument("--save", default=None, help="save the game when play stops")
    play.add_argument("--load", default=None,
                      help="go on with a saved game (its pack, variant, seed, round "
                      "cap and players: each seat's bot or human)")
    play.set_defaults(func=cmd_play)
    game_option(play)
