"""The ``mnrules`` command: play games, check maps (and more as the project grows).

Every error a user can cause is printed as one clear message (exit 2), never as a
traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from ..bots import STUDY_BOTS, Bot, default_bots, make_bot
from ..content.ruleset import load_ruleset
from ..core.effects import Event
from ..core.engine import Game
from ..core.start import new_game, set_round_cap
from ..errors import DataFileError, MnrulesError
from ..files import check_distinct, check_writable, streaming, write_atomic
from ..language.present import Presenter, presenter
from ..tools.stopping import Stopped, stop_signals, unbroken

MAX_GAMES = 1_000_000      # simulate keeps every game's result in memory


def whole(low: int | None = None, high: int | None = None) -> Callable[[str], int]:
    """An argparse type: a whole number within bounds, refused with a usage error."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") \
                from None
        if low is not None and value < low:
            raise argparse.ArgumentTypeError(f"expected {low} or more, not {value}")
        if high is not None and value > high:
            raise argparse.ArgumentTypeError(f"expected at most {high:,}, not {value}")
        return value
    return parse


def player_counts(text: str) -> list[int]:
    """An argparse type: comma-separated player counts (the game refuses those it does
    not seat)."""
    out = []
    for part in text.split(","):
        try:
            n = int(part)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected player counts such as 3,4,5, not "
                                             f"{text!r}") from None
        if not 1 <= n <= 99:
            raise argparse.ArgumentTypeError(f"{n} players: expected 1 to 99")
        out.append(n)
    return out


def _existing(path: str, what: str, folder: bool | None = None) -> Path:
    """A file or folder the command reads: refused now, naming it, if it is not there."""
    p = Path(path)
    if not p.exists():
        raise MnrulesError(f"{what} {path}: no such file or folder")
    if folder is True and not p.is_dir():
        raise MnrulesError(f"{what} {path}: not a folder")
    if folder is False and p.is_dir():
        raise MnrulesError(f"{what} {path}: a folder, not a file")
    return p


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
    from ..content.yamlsource import did_you_mean

    seats = ", ".join(f"{i} {say.player(p)}" for i, p in enumerate(players, 1))
    raise MnrulesError(f"--human: {given!r} is not a player of this game"
                       + did_you_mean(given, [say.player(p) for p in players])
                       + f" (name a player or his seat: {seats})")


def _continues(path: str, game: Game, pack: str, variant: str | None) -> bool:
    """Whether ``path`` is this saved game's own log up to the save (then it goes on)."""
    from ..tools.log import LogError, read_log

    p = Path(path)
    if not p.is_file() or p.stat().st_size == 0:
        return False
    try:
        header, records = read_log(p)
    except LogError:
        return False
    from ..tools.log import file_ref

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
    from ..tools.log import HUMAN

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
    from ..tools.log import HUMAN

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
    from ..tools.log import HUMAN, load_saved, save

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
            from ..tools.log import Recorder

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
            from .terminal import Terminal

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


def _ending(game: Game[Any], say: Presenter, where: str) -> str:
    """How the game stands when a command leaves it: its winners and victory, or that it
    goes on."""
    state = game.state
    if not state.finished:
        return say.say("play.stopped", where=where)
    victory = say.name(state.victory, "victories") if state.victory \
        else say.say("play.no_victory")
    if not state.winners:
        return say.say("play.over_nobody", where=where, victory=victory)
    return say.counted("play.over", len(state.winners), where=where,
                       winners=say.players(state.winners), victory=victory)


def _where_stopped(game: Game[Any], say: Presenter) -> str:
    """When play stopped, truly: "in round 7 (Build phase)" when a round was under way
    (a victory, a human quitting), "after 6 rounds" when the game ended between rounds
    (the round cap), "at the start of round 4" when the driver stopped there."""
    from ..tools.simulate import rounds_played

    state = game.state
    if state.phase:
        return say.say("play.in_round", round=state.round,
                       phase=say.name(state.phase, "phases"))
    if state.finished:
        n = rounds_played(state)
        return say.say("play.after_rounds", n=n, rounds=say.count(n, "round"))
    return say.say("play.at_start", round=state.round)


def cmd_scenario_run(args: argparse.Namespace) -> int:
    from ..tools.scenario import run

    files: list[Path] = []
    for p in args.files:
        path = _existing(p, "scenario")
        # a folder's scenarios, not the packs that may sit beside them (a test game's)
        files.extend(sorted(f for f in path.rglob("*.yaml") if f.name != "pack.yaml")
                     if path.is_dir() else [path])
    failed = total = unreadable = 0
    for file in files:
        try:
            for out in run(file):
                total += 1
                if out.ok:
                    print(f"ok    {file} [{out.label}] {out.name}")
                else:
                    failed += 1
                    print(f"FAIL  {file} [{out.label}] {out.name}")
                    for f in out.failures:
                        print(f"      {f}")
        except MnrulesError as exc:  # not a scenario as written: said, and the next file
            unreadable += 1
            print(f"mnrules: error: {exc}", file=sys.stderr)
        except Exception as exc:  # the runner itself failed on this file: no traceback
            from ..tools.scenario import crash_text

            unreadable += 1
            print(f"mnrules: error: {file}: the scenario runner failed: {crash_text(exc)}",
                  file=sys.stderr)
    print(f"{total - failed} passed, {failed} failed"
          + (f", {unreadable} file(s) not run" if unreadable else ""))
    return 2 if unreadable else 1 if failed else 0


"""The figures ``simulate --plot`` draws (matplotlib's own writers, nothing external)."""
OUT_FORMATS = (".json", ".csv")


DEFAULT_BOTS = STUDY_BOTS
ROUND_CAP_HELP = ("stop a game undecided after this many rounds (default: the pack's "
                  "round_cap parameter, else 60; --max-rounds is the same option)")


def cmd_simulate(args: argparse.Namespace) -> int:
    from ..tools import simulate as sim

    if not 1 <= args.games <= MAX_GAMES:
        raise MnrulesError(f"--games: expected at least 1 and at most {MAX_GAMES:,}, got "
                           f"{args.games}")
    if args.scheduler and args.backend != "dask":
        raise MnrulesError("--scheduler: only with --backend dask")
    check_distinct(("--out", args.out), ("--plot", args.plot))
    if args.out:
        if Path(args.out).suffix.lower() not in OUT_FORMATS:
            raise MnrulesError(f"--out {args.out}: give a file ending in .json (the report "
                               f"and every game) or .csv (one row per game)")
        check_writable(args.out, "--out")
    if args.plot:
        sim.check_plot_format(args.plot)
        check_writable(args.plot, "--plot")
    if args.compare:  # refused before any game is played, naming the option
        try:
            load_ruleset(args.compare)
        except MnrulesError as exc:
            raise MnrulesError(f"--compare: {exc}") from None
    jobs_n = sim.worker_count(args.jobs, args.games)
    rules = load_ruleset(args.edition, variant=args.variant)  # a broken pack is refused now
    args.bots = default_bots(args.bots, rules)
    bots = args.bots.split(",")
    for b in bots:
        make_bot(b, 0, rules)  # a misspelt bot likewise, before any game starts
    if args.players is None:
        args.players = max(rules.seating, default=1)
    jobs = sim.jobs_for(args.edition, args.variant, args.players, args.games, args.seed, bots,
                        args.round_cap)
    title = f"{args.edition}{' + ' + args.variant if args.variant else ''}, " \
            f"{args.players} players, bots {args.bots}, seed {args.seed}"
    results = sim.run(jobs, jobs_n, args.backend, args.scheduler,
                      show_progress=not args.quiet, deadline=args.game_deadline)
    rep = sim.report(results, rules.seating.get(args.players))
    names = sim.Names(presenter(rules))  # the pack's names, never its ids
    print(sim.format_report(rep, title, names))
    if args.explain:
        print(sim.format_definitions())
    side = None
    name = args.edition + (f" + {args.variant}" if args.variant else "")
    if args.compare:
        other = [sim.Job(args.compare, None, j.players, j.seed, j.bots, j.round_cap)
                 for j in jobs]
        results_b = sim.run(other, jobs_n, args.backend, args.scheduler,
                            show_progress=not args.quiet, deadline=args.game_deadline)
        rules_b = load_ruleset(args.compare)
        side = sim.compared(args.compare, results, results_b,
                            rules_b.seating.get(args.players) or rep.players)
        print(sim.format_report(side.report, f"{args.compare}, same seeds",
                                sim.Names(presenter(rules_b))))
        print(sim.format_compare(side.rows, side.more, name, args.compare, names))
    if args.out:
        from ..tools.provenance import provenance, seed_rule

        packs = [(args.edition, args.variant)] + ([(args.compare, None)] if args.compare
                                                  else [])
        record = provenance(packs=packs, bots=bots, seeds=seed_rule(args.seed, args.games),
                            round_cap=args.round_cap or sim.round_cap(rules),
                            argv=args.argv, rules=rules, players=args.players,
                            games=args.games)
        sim.write_out(args.out, results, rep, side, name, record)
        print(f"results written to {args.out}")
    if args.plot:
        sim.plot(args.plot, rep, title, side, name, names)
        print(f"figure written to {args.plot}")
    return 0


def cmd_rate(args: argparse.Namespace) -> int:
    from ..tools.rating import command

    return command(args)


def cmd_skill(args: argparse.Namespace) -> int:
    from ..tools.skill import command

    return command(args)


def cmd_bots_check(args: argparse.Namespace) -> int:
    from ..tools.blunders import command

    return command(args)


def cmd_sweep(args: argparse.Namespace) -> int:
    from ..tools.sweep import command

    return command(args)


def cmd_fuzz(args: argparse.Namespace) -> int:
    import time

    from ..content import packs
    from ..tools.fuzz import fuzz, write_log

    check_writable(Path(args.logs) / "fuzz-failure-1.jsonl", "--logs")
    editions = args.editions.split(",") if args.editions else None
    if args.variant and not editions:
        # a variant is played on one edition: the game's base pack unless --editions says
        editions = [packs.default_pack()]
    # every pack (and the variant on each) refused before any game
    rules = {e: load_ruleset(e, variant=args.variant) for e in editions or []}
    bar: Any = None
    if not args.quiet:
        try:
            from tqdm import tqdm
            bar = tqdm(total=args.games, unit="game")
        except ImportError:
            bar = None
    t = time.perf_counter()
    try:
        games, decisions, failures = fuzz(args.games, args.seed, editions, args.players,
                                          args.round_cap, bar.update if bar else None,
                                          rules_for=rules.__getitem__ if rules else None)
    finally:
        if bar is not None:
            bar.close()
    dt = max(time.perf_counter() - t, 1e-9)
    print(f"{games} games, {decisions} choices, every invariant checked after each; "
          f"{len(failures)} failure(s); {dt:.0f} s ({decisions / dt:,.0f} choices/s)")
    for i, f in enumerate(failures, 1):
        print(f.describe())
        path = str(Path(args.logs) / f"fuzz-failure-{i}.jsonl")
        write_log(f, path, variant=args.variant)
        print(f"  log: {path} (mnrules replay {path})")
    return 1 if failures else 0


def cmd_replay(args: argparse.Namespace) -> int:
    from ..tools.log import replay

    if args.out:
        check_distinct(("the log", args.log), ("--out", args.out))
        check_writable(args.out, "--out")
    result = replay(args.log, until_round=args.round)
    say = presenter(result.game.rules, args.lang)
    print(say.say("replay.done", file=args.log, choices=say.count(result.choices, "choice"),
                  chances=say.count(len(result.chances), "chance")))
    print(_ending(result.game, say, _where_stopped(result.game, say)))
    if args.out:
        write_atomic(args.out, result.game.snapshot().to_json())
        print(say.say("replay.written", file=args.out))
    if result.divergence:
        print(say.say("replay.divergence", divergence=result.divergence), file=sys.stderr)
        return 1
    return 0


def cmd_audit(args: argparse.Namespace) -> int:
    from ..tools.audit import command

    return command(args)


def cmd_map_check(args: argparse.Namespace) -> int:
    """Check the pack's board file (or FILE instead): its structure as the game reads it,
    then the rules' own checks (``mn_check_board``). A FILE that names its game (a
    top-level ``game:`` key) is read by that game, under its first bundled pack unless
    --edition names one. With neither FILE nor --edition: the default pack's board, then
    every game's further board files (``editions/<game>/boards/*.yaml``)."""
    from ..content import packs

    if args.file:
        path = Path(args.file)
        game = _board_game(path)
        if args.edition or not game:
            return _check_map(args.edition or packs.default_pack(), path)
        return _check_map(packs.first_pack(game), path, game)
    if args.edition:
        return _check_map(args.edition, None)
    from ..content import games

    code = _check_map(packs.default_pack(), None)
    for game in games.installed():
        folder = games.editions_dir(game)
        for board in sorted((folder / "boards").glob("*.yaml")) if folder else ():
            code = max(code, _check_map(packs.first_pack(game), board, game))
    return code


def _board_game(path: Path) -> str:
    """The game a board file says it is for (its top-level ``game:`` key), or ""."""
    from ..content.yamlsource import load_yaml

    data = load_yaml(path).data
    game = data.get("game") if isinstance(data, dict) else None
    return game if isinstance(game, str) else ""


def _check_map(edition: str | None, file: Path | None, game: str = "") -> int:
    """Check one board file (``file``, or the pack's own) under ``edition``; a game with
    no pack yet has its file read by the game's ``load_board`` alone."""
    if edition is None:
        from ..content.ruleset import board_loader, game_module

        assert file is not None
        loader = board_loader(game_module(game, str(file)))
        if loader is None:
            raise MnrulesError(f"{file}: game {game!r} reads no board file")
        try:
            board = loader(path=file, data={}, where=lambda *key: str(file))
        except DataFileError as exc:
            print(exc, file=sys.stderr)
            return 1
        print(f"{file}: ok ({board})")
        return 0
    rules = load_ruleset(edition)
    if file is not None:
        load = rules.definition.load_board
        if load is None:
            raise MnrulesError(f"{file}: game {rules.game!r} reads no board file")
        try:
            rules.board = load(path=file, data=rules.data, where=lambda *key: edition)
        except DataFileError as exc:  # the file's own structure: every problem, exit 1
            print(exc, file=sys.stderr)
            return 1
    if rules.board is None:
        raise MnrulesError(f"{edition}: this pack names no board file")
    problems = [p for found in rules.hook.mn_check_board(rules=rules) for p in found]
    where = str(file) if file is not None else str(getattr(rules.board, "file", "")
                                                      or edition)
    for p in problems:
        print(f"{where}: {p}", file=sys.stderr)
    if problems:
        return 1
    print(f"{where}: ok ({rules.board})")
    return 0


def _rules_with_cards(args: argparse.Namespace) -> Any:
    """The rule set of --edition (and --variant), with the cards of each --cards folder
    beside the game's bundled ones (its own folder of cards/, not another game's)."""
    from ..content import games, packs
    from ..content.yamlsource import pointed

    variant = getattr(args, "variant", None)
    extra = [_existing(d, "--cards", folder=True) for d in getattr(args, "cards", None) or []]
    try:
        if not extra:
            return load_ruleset(args.edition, variant=variant)
        source = packs.read(variant, default_base=args.edition) if variant else \
            packs.read(args.edition)
        game = str(source.data.get("game") or "")
        bundled = games.cards_dir(game) if game and not game.endswith(".py") else None
        dirs = [bundled] if bundled is not None else []
        return load_ruleset(args.edition, card_dirs=[*dirs, *extra], variant=variant)
    except MnrulesError as exc:    # a pack's or card's error: its line, with a caret
        raise MnrulesError(pointed(str(exc))) from None


def _find_card(rules: Any, name: str) -> Any:
    from ..content.yamlsource import suggest

    for card in rules.cards.values():
        if name in (card.id, *card.names.values()) or name.lower() == card.name().lower():
            return card
    hint = suggest(name, list(rules.cards))
    raise MnrulesError(f"no card named {name!r}" + (f"; did you mean {hint!r}?" if hint
                                                     else ""))


def cmd_cards_list(args: argparse.Namespace) -> int:
    rules = _rules_with_cards(args)
    lang = args.lang or rules.data.get("language", "en")
    say = presenter(rules, args.lang)
    for card in sorted(rules.cards.values(), key=lambda c: (c.kind, c.id)):
        # the id is what `cards show` takes; the rest is as the pack names it
        bonus = ", ".join(f"{say.name(k, 'tracks')} +{v}" for k, v in card.bonuses.items()
                          if v)
        print(f"{card.id:<18} {say.name(card.kind, 'card_kinds'):<18} "
              f"{card.name(lang):<22} {bonus}")
    return 0


def cmd_cards_check(args: argparse.Namespace) -> int:
    """Check card files under the edition (and variant) they are for: each file's errors,
    with file, line, column and a caret; exit 1 if any."""
    from ..content.card_check import card_files, check_cards
    from ..content.ruleset import vocabulary

    rules = _rules_with_cards(args)
    checked = check_cards(rules, vocabulary(rules), card_files(args.paths))
    for c in checked:
        if c.ok:
            print(f"{c.file}: ok")
        for error in c.errors:
            print(error, file=sys.stderr)
    bad = sum(1 for c in checked if not c.ok)
    print(f"{len(checked)} card file(s) checked, {bad} with errors")
    return 1 if bad else 0


def cmd_cards_show(args: argparse.Namespace) -> int:
    from ..content.ruleset import vocabulary
    from ..language.explain import Explainer
    from ..language.highlight import colour_wanted, highlight
    from ..language.syntax import parse_script
    from ..language.texts import load_texts

    rules = _rules_with_cards(args)
    card = _find_card(rules, args.name)
    texts = load_texts(rules, args.lang)
    lang = texts.lang
    say = presenter(rules, args.lang)
    print(f"{card.name(lang)} ({say.name(card.kind, 'card_kinds')}) — {card.file}")
    if card.bonuses:
        print(say.say("cards.bonuses", bonuses=", ".join(
            f"{texts.name('track', k)} +{v}" for k, v in card.bonuses.items())))
    # the printed text, in this language, if the card plays as printed; else its text
    # from the script, so a variant or a pack's override never shows another rule's text
    change = rules.source.card_overrides.get(card.id) if rules.source is not None else None
    replaced = card.variant is not None or (change is not None and "effects" in change[0])
    printed = card.text.get(lang)
    if printed and not replaced:
        print(say.say("cards.text", text=printed))
    elif card.effects:
        writer = Explainer(vocabulary(rules), texts)
        for rule in parse_script(card.effects, card.file, *card.effects_at):
            print(say.say("cards.explained", text=writer.rule(rule)))
    script = card.effects or "# no power\n"
    print(highlight(script, rules) if colour_wanted(sys.stdout) else script, end="")
    return 0


def cmd_cards_explain(args: argparse.Namespace) -> int:
    """A card's text from its script, in the pack's language or --lang's; given a card
    file or folder, each card of it (the failing ones reported with their caret, exit 1)."""
    from ..content.card_check import card_files, check_cards
    from ..content.ruleset import vocabulary
    from ..language.explain import card_lines
    from ..language.texts import load_texts

    if not args.name.strip():     # Path('') is the current folder: never meant
        raise MnrulesError("cards explain: name a card (its id or name), a card file or a "
                           "folder of cards")
    target = Path(args.name)
    as_file = target.exists() and (target.is_dir() or target.suffix in (".yaml", ".yml"))
    try:
        rules = _rules_with_cards(args)
    except MnrulesError:
        if as_file or not getattr(args, "cards", None):
            raise
        return _explain_among_broken(args)    # another card of --cards is broken
    vocab = vocabulary(rules)
    texts = load_texts(rules, args.lang)
    named = any(args.name in (c.id, *c.names.values()) for c in rules.cards.values())
    if not (target.exists() and (as_file or not named)):
        print("\n".join(card_lines(_find_card(rules, args.name), vocab, texts)))
        return 0
    checked = check_cards(rules, vocab, card_files([target]))
    texts = replace(texts, cards={**texts.cards, **{c.card.id: c.card.name(texts.lang)
                                                     for c in checked if c.card}})
    for c in checked:
        if c.ok and c.card is not None:
            print("\n".join(card_lines(c.card, vocab, texts)))
        for error in c.errors:
            print(error, file=sys.stderr)
    bad = sum(1 for c in checked if not c.ok)
    if bad:
        print(f"{bad} of {len(checked)} card file(s) with errors, not explained",
              file=sys.stderr)
    return 1 if bad else 0


def _explain_among_broken(args: argparse.Namespace) -> int:
    """``cards explain NAME --cards DIR`` when some card of DIR is broken: NAME
    explained all the same (from the pack, or from its own file, checked), the broken
    files named in one sentence; the loading error itself when NAME is one of them."""
    from ..content.card_check import card_files, check_cards
    from ..content.ruleset import vocabulary
    from ..language.explain import card_lines
    from ..language.texts import load_texts

    folders = [_existing(d, "--cards", folder=True) for d in args.cards]
    rules = _rules_with_cards(argparse.Namespace(**{**vars(args), "cards": []}))
    vocab = vocabulary(rules)
    checked = check_cards(rules, vocab, card_files(folders))
    broken = [c for c in checked if not c.ok]
    name = args.name
    found = [c.card for c in checked if c.ok and c.card is not None
             and (name in (c.card.id, *c.card.names.values())
                  or name.lower() == c.card.name().lower())]
    card = found[0] if found else None
    if card is None:
        mine = [c for c in broken if c.card is not None and
                name in (c.card.id, *c.card.names.values())]
        if mine or any(c.card is None for c in broken):
            _rules_with_cards(args)            # its own error, as ever (file, line, caret)
        card = _find_card(rules, name)
    texts = load_texts(rules, args.lang)
    texts = replace(texts, cards={**texts.cards, **{c.card.id: c.card.name(texts.lang)
                                                     for c in checked if c.card}})
    print("\n".join(card_lines(card, vocab, texts)))
    say = presenter(rules, args.lang)
    print(say.say("cards.others_broken",
                  files=", ".join(str(c.file) for c in broken)), file=sys.stderr)
    return 0


def cmd_cards_textmate(args: argparse.Namespace) -> int:
    """The TextMate grammar of scripts (editors/mnrules-effects.tmLanguage.json), from
    the grammar and the edition's vocabulary."""
    from ..content.ruleset import vocabulary
    from ..language.highlight import textmate_json

    if args.in_yaml:
        text = textmate_json(None, in_yaml=True)
    else:       # the game's plugin words, and those of the variant's plugins
        rules = _rules_with_cards(args)
        text = textmate_json(vocabulary(rules), args.variant or args.edition)
    if args.output:
        check_writable(args.output)
        write_atomic(args.output, text)
        print(f"TextMate grammar written to {args.output}")
    else:
        print(text, end="")
    return 0


def cmd_cards_words(args: argparse.Namespace) -> int:
    """Every word a script may use, with its meaning; with --lang, its text in that
    language as the packs' words.yaml give it (and what a translator has left to do)."""
    from ..content.ruleset import vocabulary
    from ..language.texts import load_texts, missing_texts
    from ..language.words import KINDS

    rules = load_ruleset(args.edition)
    vocab = vocabulary(rules)
    if args.markdown:
        print(words_reference(vocab, KINDS))
        return 0
    texts = load_texts(rules, args.lang) if args.lang else None

    def text(kind: str, w: Any) -> str:
        if texts is None or texts.lang == "en" or kind == "resource":
            return str(w.doc)
        given = texts.words.get(kind, {}).get(w.pattern)
        return str(given) if given is not None else "(no text)"
    print("\n".join(
        f"{kind} — {what}\n" + "\n".join(f"  {w.pattern:<48} {text(kind, w)}" for w in
                                          sorted(vocab.words(kind), key=lambda w: w.pattern))
        for kind, what in KINDS.items()))
    if texts is not None and texts.lang != "en":
        missing = missing_texts(texts, vocab)
        for entry in missing:
            print(f"missing in the {texts.lang} texts (words.yaml): {entry}", file=sys.stderr)
        print(f"{len(missing)} text(s) missing in {texts.lang}")
        return 1 if missing else 0
    return 0


def _one_of(names: Any) -> str:
    items = sorted(names)
    return ", ".join(items[:-1]) + " or " + items[-1] if len(items) > 1 else "".join(items)


def words_reference(vocab: Any, kinds: dict[str, str]) -> str:
    """The vocabulary as the Markdown page docs/words.md (kept in step by a test)."""
    out = ["# Words of the effect language", "",
           "Generated by `mnrules cards words --markdown` from the rule plugins' vocabulary "
           f"(the game's `words` plugin). Placeholders: `{{n}}` a number, `{{good}}` a good "
           f"({_one_of(vocab.sets.goods)}), `{{unit}}` {_one_of(vocab.sets.units)}, `{{card}}` "
           f"a card id, `{{track}}` {_one_of(vocab.sets.tracks)}, `{{name}}` any one word. "
           "Articles (a, an, the) may be added anywhere.",
           ""]
    for kind, what in kinds.items():
        words = sorted(vocab.words(kind), key=lambda w: w.pattern)
        if not words:
            continue
        out += [f"## {kind}", "", f"{what[0].upper()}{what[1:]}.", "",
                "| words | meaning |", "|---|---|"]
        for w in words:
            extra = f" (whose: `{w.subject}`; value: {w.vtype})" if kind == "quantity" else \
                (f" (event `{w.meaning}`{'; once done: only `after`' if w.reported else ''})"
                 if kind == "event" else "")
            out.append(f"| `{w.pattern}` | {w.doc}{extra} |")
        out.append("")
    return "\n".join(out)


def cmd_rules(args: argparse.Namespace) -> int:
    """The rules page (docs/rules.md): each phase's plugins with their steps, decisions,
    quantities, events and parameters, as the edition's rule set declares them."""
    from ..tools.rules_doc import plain, render_rules_doc

    text = render_rules_doc(load_ruleset(args.edition))
    print(text if args.markdown else plain(text), end="")
    return 0


def _rules(args: argparse.Namespace) -> Any:
    return load_ruleset(args.edition, variant=getattr(args, "variant", None))


def cmd_editions_list(args: argparse.Namespace) -> int:
    from ..content.packs import list_packs

    packs = list_packs()
    shown = [p for p, qualified in packs.items() if p == qualified.split("/")[-1]
             or (p == qualified and qualified.split("/")[-1] not in packs)]
    for pack in shown:
        rules = load_ruleset(pack)
        base = rules.chain[1].split("/")[-2] if len(rules.chain) > 1 else "-"
        print(f"{pack:<4} {rules.language:<3} extends {base:<4} {rules.data.get('name', '')}"
              f" [{rules.game}]")
    for folder in getattr(args, "folders", None) or []:
        found = sorted(_existing(folder, "editions list", folder=True).rglob("pack.yaml"))
        if not found:
            raise MnrulesError(f"{folder}: no pack.yaml in this folder or below")
        for path in found:
            rules = load_ruleset(str(path))
            print(f"{path} {rules.language:<3} {rules.data.get('name', '')} [{rules.game}]")
    from ..content import games

    for problem in games.problems():   # a broken game hides only its own packs
        print(f"warning: {problem}", file=sys.stderr)
    return 0


def cmd_editions_show(args: argparse.Namespace) -> int:
    """A pack as its rules are played: every parameter with the values it may take (each
    described, with the books' sections; the default and the value in play marked), the
    cards it changes, removes or plays in a named variant, its board file and patches,
    its names and its readings."""
    import textwrap

    from ..content import packs
    from ..content.ruleset import value_words

    rules = _rules(args)

    def wrap(text: str, indent: str, first: str = "") -> list[str]:
        lines = textwrap.wrap(text, 96, initial_indent=indent + first,
                              subsequent_indent=indent + ("    " if first else ""))
        return [line.replace("\u00a0", " ") for line in lines] or [indent + first]

    print(f"{rules.data.get('name', rules.pack)} [{rules.pack}, {rules.language}]")
    print("files: " + " <- ".join(rules.chain))
    source = rules.source
    board = getattr(rules.board, "file", "") or (str(source.board_file) if source else "")
    print(f"board: {board or '(none)'}")
    for step in (source.patches.get("board", []) if source else []):
        what = "" if step.verb == "delete" else f" {step.value!r}"
        print(f"  patched: {step.verb} {step.text}{what}  ({step.where})")
    print("phases: " + ", ".join(rules.name(p, "phases") for p in rules.phases))
    print("plugins: " + ", ".join(str(p) for p in rules.data.get("plugins", [])))
    print("parameters ('*': not the default; each value described: '>' in play, "
          "'(default)' the plugins' default):")
    for name in sorted(rules.params):
        p = rules.declared[name]
        value = rules.params[name]
        mark = "" if value == p.default else "  *"
        print(f"  {name} = {value!r}{mark}")
        for line in wrap(p.doc[:1].upper() + p.doc[1:] + ".", "      "):
            print(line)
        if p.options and not isinstance(p.default, list | dict):
            for option in p.options:
                chosen = "> " if option.value == value and type(option.value) is \
                    type(value) else "  "
                default = " (default)" if option.value == p.default else ""
                cite = f" [{option.cite}]".replace(" ", "\u00a0") if option.cite else ""
                for line in wrap(f"{option.doc}{cite}", "    ",
                                 f"{chosen}{option.value!r}{default}: "):
                    print(line)
        else:
            for line in wrap(value_words(p), "      ", "values: "):
                print(line)
    varied = {cid: c for cid, c in sorted(rules.cards.items()) if c.variants}
    if varied:
        print("card variants ('>' in play; a pack selects one with cards: {variant: "
              "{CARD: NAME}}):")
        for cid, card in varied.items():
            print(f"  {cid} ({card.name(rules.language)}, {card.file})")
            printed = card.text.get("en", "") if card.variant is None or \
                "text" not in card.variants[card.variant].change else ""
            for name, note in (("default", printed or "the card as its file prints it"),
                               *((v.name, v.note) for v in card.variants.values())):
                chosen = "> " if (card.variant or "default") == name else "  "
                for line in wrap(note, "    ", f"{chosen}{name}: "):
                    print(line)
    changed = [] if source is None else [
        *(f"{cid}: variant {name} ({where})" for cid, (name, where)
          in sorted(source.card_variants.items())),
        *(f"{cid}: overridden ({packs._at(src, ('cards', 'override', cid))})"
          for cid, (_, _, src) in sorted(source.card_overrides.items())),
        *(f"{cid}: removed ({where})" for cid, where in sorted(source.removed_at.items())),
        *(f"added: the cards of {folder}" for folder in source.card_dirs)]
    if changed:
        print("cards this pack changes:")
        for line in changed:
            print(f"  {line}")
    kinds = {k: v for k, v in rules.names_by_kind.items() if k}
    if kinds:
        print("names by kind: " + "; ".join(
            f"{kind} ({', '.join(list(v.values())[:3])}{', ...' if len(v) > 3 else ''})"
            for kind, v in kinds.items()))
    readings = rules.data.get("readings") or {}
    if readings:
        print("readings chosen where the book is ambiguous:")
        for key, text in readings.items():
            print(f"  {key}: {text}")
    return 0


def edition_diff(a: Any, b: Any) -> list[list[str]]:
    """Rows (what, a, b) of everything that differs between two rule sets."""
    rows: list[list[str]] = []

    def told(rules: Any, name: str, value: Any) -> str:
        """A parameter's value as its declaration describes it, with the books'
        sections ('plus_hit: +1 hit scored, and one enemy hit less [UK 4.2]')."""
        declared = rules.declared.get(name)
        for option in getattr(declared, "options", ()) or ():
            if option.value == value and type(option.value) is type(value):
                cite = f" [{option.cite}]" if option.cite else ""
                return f"{value!r}: {option.doc}{cite}"
        return repr(value)
    for name in sorted(set(a.params) | set(b.params)):
        va, vb = a.params.get(name), b.params.get(name)
        if va != vb:
            rows.append([f"param {name}", told(a, name, va), told(b, name, vb)])
    for cid in sorted(set(a.cards) | set(b.cards)):
        ca, cb = a.cards.get(cid), b.cards.get(cid)
        if ca is None or cb is None:
            rows.append([f"card {cid}", "present" if ca else "absent",
                         "present" if cb else "absent"])
            continue
        if (ca.effects or "").split() != (cb.effects or "").split():
            rows.append([f"card {cid} script", *(
                (f"(variant {c.variant}) " if c.variant else "") + " ".join(
                    (c.effects or "").split()) for c in (ca, cb))])
        if ca.bonuses != cb.bonuses:
            rows.append([f"card {cid} bonuses", str(ca.bonuses), str(cb.bonuses)])
    for key in ("plugins", "phases"):
        if a.data.get(key) != b.data.get(key):
            rows.append([key, str(a.data.get(key)), str(b.data.get(key))])
    if a.board.start_titles != b.board.start_titles:
        rows.append(["setup: starting titles", str(a.board.start_titles),
                     str(b.board.start_titles)])
    if a.board.file != b.board.file:
        rows.append(["board", a.board.file, b.board.file])
    patches = [[f"{s.verb} {s.text}" + ("" if s.verb == "delete" else f" {s.value!r}")
                for s in (r.source.patches.get("board", []) if r.source else [])]
               for r in (a, b)]
    if patches[0] != patches[1]:
        rows.append(["board patches", *("; ".join(p) or "none" for p in patches)])
    kinds = [k for k in dict.fromkeys([*a.names_by_kind, *b.names_by_kind])]
    names = [(kind, i) for kind in kinds for i in dict.fromkeys(
        [*a.names_by_kind.get(kind, {}), *b.names_by_kind.get(kind, {})])
        if a.name(i, kind or None) != b.name(i, kind or None)]
    for kind in kinds:  # every name that differs, a row per kind
        ids = [i for k, i in names if k == kind]
        if ids:
            rows.append([f"names: {kind or 'other'} ({len(ids)})",
                         *(", ".join(r.name(i, kind or None) for i in ids) for r in (a, b))])
    ra, rb = (r.data.get("readings") or {} for r in (a, b))
    for key in sorted(set(ra) | set(rb)):
        if ra.get(key) != rb.get(key):
            rows.append([f"reading {key}", *(str(r.get(key, "(none)")) for r in (ra, rb))])
    return rows


def _label(arg: str, rules: Any) -> str:
    """What a rule set is called in a diff: a file given by its path, a pack by its id."""
    p = Path(arg)
    if p.suffix in (".yaml", ".yml") or p.is_dir():
        own = rules.pack == p.stem or (p.name == "pack.yaml" and p.parent.name == rules.pack)
        return p.name if own else f"{p.name} (on {rules.pack})"
    return str(rules.pack)


def _table(rows: list[list[str]], headers: list[str], width: int = 100) -> str:
    try:
        from rich.console import Console
        from rich.table import Table
    except ImportError:
        out = [" | ".join(headers), " | ".join("---" for _ in headers)]
        out += [" | ".join(r) for r in rows]
        return "\n".join(out)
    import io

    table = Table(*headers, show_lines=True)
    for r in rows:
        table.add_row(*r)
    buf = io.StringIO()
    Console(file=buf, width=width, force_terminal=False).print(table)
    return buf.getvalue().rstrip()


def cmd_editions_diff(args: argparse.Namespace) -> int:
    a, b = load_ruleset(args.a), load_ruleset(args.b)
    rows = edition_diff(a, b)
    la, lb = _label(args.a, a), _label(args.b, b)
    if la == lb:
        la, lb = str(args.a), str(args.b)
    print(f"{la} vs {lb}: {len(rows)} difference(s)")
    print(_table(rows, ["", la, lb]))
    measured = [line for found in a.hook.mn_compare(a=a, b=b) for line in found]
    if measured:
        print("measured exactly:")
        for line in measured:
            print(f"  {line}")
    return 0


def cmd_render(args: argparse.Namespace) -> int:
    """Draw the board of a snapshot, or of a new game, as the game draws it (``render``:
    SVG or PNG for Mare Nostrum, docs/board.md)."""
    from ..core.start import load_game
    from ..errors import StateError

    out = Path(args.output)
    if out.suffix.lower() not in (".svg", ".png"):
        raise MnrulesError(f"-o: give a file ending in .svg or .png, not {out.name!r}")
    if args.state != "new":
        check_distinct(("the state", args.state), ("-o", args.output))
    check_writable(out, "-o")
    from ..content import packs

    rules = load_ruleset(args.edition or packs.default_pack()) if args.state == "new" else None
    if rules is not None:
        game = new_game(rules, args.players or max(rules.seating, default=1), seed=args.seed)
        _ = game.pending  # at its first decision, as a snapshot would be
    else:
        try:
            text = Path(args.state).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise MnrulesError(f"cannot read the state file {args.state}: {exc}") from None
        if _is_save(text):  # a save file (play --save): its own pack and variant
            from ..tools.log import load

            game, _, _ = load(args.state)
            rules = game.rules
        else:
            try:
                rules = load_ruleset(args.edition or packs.default_pack())
                game = load_game(rules, text)
            except (TypeError, ValueError) as exc:
                raise StateError(f"{args.state} is not a state snapshot nor a save file: "
                                 f"{exc}") from None
    if args.rounds:
        stop = game.state.round + args.rounds
        bots: dict[str, Bot] = {p: make_bot("random", args.seed * 1009 + i)
                                for i, p in enumerate(game.state.players)}
        while (dec := game.pending) is not None and game.state.round < stop:
            game.apply(bots[dec.player].choose(game))
    draw = rules.definition.render
    try:
        drawn = draw is not None and draw(game=game, path=out,
                                          say=presenter(rules, getattr(args, "lang", None)))
    except OSError as exc:
        raise MnrulesError(f"cannot write {out}: {exc}") from None
    if not drawn:
        raise MnrulesError(f"render: the game {rules.game!r} has no board picture")
    phase = game.rules.name(game.state.phase, "phases") if game.state.phase else "setup"
    print(f"mnrules: drew round {game.state.round} ({phase}) to {out}")
    return 0


def _is_save(text: str) -> bool:
    """Whether a file's text is a save (``play --save``) rather than a bare state."""
    import json

    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return False
    from ..tools.log import SAVE_FORMATS

    return isinstance(data, dict) and data.get("format") in SAVE_FORMATS


def _use_game(args: argparse.Namespace) -> None:
    """``--game NAME`` stands for ``--edition`` (``--editions``) naming its base pack."""
    from ..content import packs

    pack = packs.base_pack(args.game)
    for option in ("edition", "editions"):
        if hasattr(args, option):
            setattr(args, option, pack)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="mnrules", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

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

    sc = sub.add_parser("scenario", help="scenario files")
    scs = sc.add_subparsers(dest="scenario_command", required=True)
    scr = scs.add_parser("run", help="run scenario files and check their expectations "
                         "(docs/scenarios.md)")
    scr.add_argument("files", nargs="+", help="scenario files, or folders of them")
    scr.set_defaults(func=cmd_scenario_run)

    sm = sub.add_parser("simulate", help="play many bot games and report balance")
    sm.add_argument("--edition", default=None,
                    help="the edition pack: an id or a pack file (default: the game's base pack)")
    sm.add_argument("--variant", default=None, help="a variant file on top of the edition")
    sm.add_argument("--players", type=whole(1), default=None,
                    help="players (default: the most the game seats)")
    sm.add_argument("--games", type=int, default=100,
                    help=f"games to play (default: 100; at most {MAX_GAMES:,})")
    sm.add_argument("--seed", type=int, default=1,
                    help="the first seed: game i plays seed*1000003+i (default: 1)")
    sm.add_argument("--jobs", type=whole(1), default=None,
                    help="worker processes (default: half the cores, at least 1; at most "
                    "one per game and four per core)")
    sm.add_argument("--bots", default=None,
                    help=f"bot kind, or one per player, comma-separated (default: "
                    f"{DEFAULT_BOTS} where the game has it, else random)")
    sm.add_argument("--round-cap", "--max-rounds", dest="round_cap", type=whole(1),
                    default=None, help=ROUND_CAP_HELP)
    sm.add_argument("--game-deadline", type=whole(1), default=None, metavar="SECONDS",
                    help="with --jobs: a worker that spends longer on one game is "
                    "replaced and the game played again (default: 3600, an hour)")
    sm.add_argument("--backend", default="local", choices=("local", "dask"),
                    help="local processes, or a Dask cluster (default: local)")
    sm.add_argument("--scheduler", default=None,
                    help="a Dask scheduler address (with --backend dask; default: a local "
                    "cluster)")
    sm.add_argument("--compare", default=None,
                    help="also play the same seeds under this pack and report the "
                    "difference")
    sm.add_argument("--out", default=None,
                    help="write the results: FILE.json (the report and every game) or "
                    "FILE.csv (one row per game)")
    sm.add_argument("--plot", default=None,
                    help="draw win rates and game lengths: FILE.png, .svg or .pdf")
    sm.add_argument("--explain", action="store_true",
                    help="print a one-sentence definition of every metric")
    sm.add_argument("--quiet", action="store_true", help="no progress bar")
    sm.set_defaults(func=cmd_simulate)

    rt = sub.add_parser("rate", help="a round robin of bots and their rating table "
                        "(Bradley-Terry, Elo scale, 95%% intervals)")
    rt.add_argument("--bots", required=True,
                    help="the bots to rate, comma-separated, e.g. random,heuristic,"
                    "heuristic:conqueror,search:4")
    rt.add_argument("--edition", default=None,
                    help="the edition pack (default: the game's base pack)")
    rt.add_argument("--variant", default=None, help="a variant file on top of the edition")
    rt.add_argument("--players", type=whole(2), default=None,
                    help="seats per game (default: the most the game seats)")
    rt.add_argument("--rounds", type=whole(1), default=1,
                    help="times every lineup is played in every seat rotation (default: 1)")
    rt.add_argument("--seed", type=int, default=1, help="the first seed (default: 1)")
    rt.add_argument("--round-cap", "--max-rounds", dest="round_cap", type=whole(1),
                    default=None, help=ROUND_CAP_HELP)
    rt.add_argument("--jobs", type=whole(1), default=None,
                    help="worker processes (default: half the cores)")
    rt.add_argument("--out", default=None, help="write the table and games: FILE.json")
    rt.add_argument("--quiet", action="store_true", help="no progress bar")
    rt.set_defaults(func=cmd_rate)

    sk = sub.add_parser("skill", help="skill as a dimension of balance: the search "
                        "player's skill trace, or the balance table under several bots")
    sk.add_argument("what", choices=("trace", "table"),
                    help="trace: mcts:2N among mcts:N over a doubling ladder; table: each "
                    "seat's win rate under each bot of --bots, and the verdicts that "
                    "depend on the bot")
    sk.add_argument("--budgets", default="2,4,8",
                    help="trace: the ladder's budgets N (default: 2,4,8)")
    sk.add_argument("--base", default=None,
                    help="trace: a first rung, mcts:FIRST among this bot (e.g. heuristic)")
    sk.add_argument("--gain", type=float, default=5.0,
                    help="trace: the gain in points under which doubling stops paying "
                    "(default: 5)")
    sk.add_argument("--bots", default="heuristic,heuristic:builder,heuristic:trader",
                    help="table: the bots, comma-separated (each plays every seat)")
    sk.add_argument("--edition", default=None,
                    help="the edition pack (default: the game's base pack)")
    sk.add_argument("--variant", default=None, help="a variant file on top of the edition")
    sk.add_argument("--players", type=whole(2), default=None,
                    help="seats per game (default: the most the game seats)")
    sk.add_argument("--games", type=whole(1), default=40,
                    help="games a rung or a bot (default: 40)")
    sk.add_argument("--seed", type=int, default=1, help="the first seed (default: 1)")
    sk.add_argument("--round-cap", "--max-rounds", dest="round_cap", type=whole(1),
                    default=None, help=ROUND_CAP_HELP)
    sk.add_argument("--jobs", type=whole(1), default=None,
                    help="worker processes (default: half the cores)")
    sk.add_argument("--out", default=None, help="write the result: FILE.json")
    sk.add_argument("--quiet", action="store_true", help="no progress")
    sk.set_defaults(func=cmd_skill)
    skill_parser = sk

    sw = sub.add_parser("sweep", help="the same seeds over a grid of parameter values, "
                        "and a search for the most even one (docs/simulation.md)")
    sw.add_argument("--param", action="append", required=True, metavar="NAME=VALUES",
                    help="a parameter and its values: NAME=3..7 (whole numbers; 3..9:2 with "
                    "a step), NAME=a,b,c (a list), MAPPING.KEY=2..4 (one key of a mapping "
                    "parameter), variant=none,v1.yaml,v2.yaml (variant files) or "
                    "bots=heuristic,heuristic:first_tile=2 (a bot in every seat); repeat for "
                    "a grid")
    sw.add_argument("--edition", default=None,
                    help="the edition pack (default: the game's base pack)")
    sw.add_argument("--variant", default=None, help="a variant file on top of the edition")
    sw.add_argument("--players", type=whole(1), default=None,
                    help="players (default: the most the game seats)")
    sw.add_argument("--games", type=whole(1, 100_000), default=50,
                    help="games per point (with --search: the first stage's; default: 50)")
    sw.add_argument("--max-games", type=whole(1, 100_000), default=400,
                    help="with --search: most games a point may play (default: 400)")
    sw.add_argument("--search", action="store_true",
                    help="race the points to the smallest spread of win rates")
    sw.add_argument("--seed", type=int, default=1,
                    help="the first seed: game i plays seed*1000003+i (default: 1)")
    sw.add_argument("--bots", default=None,
                    help=f"bot kind, or one per player, comma-separated (default: "
                    f"{DEFAULT_BOTS} where the game has it, else random)")
    sw.add_argument("--round-cap", "--max-rounds", dest="round_cap", type=whole(1),
                    default=None, help=ROUND_CAP_HELP)
    sw.add_argument("--jobs", type=whole(1), default=None,
                    help="worker processes (default: half the cores)")
    sw.add_argument("--backend", default="local", choices=("local", "dask"),
                    help="local processes, or a Dask cluster (default: local)")
    sw.add_argument("--scheduler", default=None,
                    help="a Dask scheduler address (with --backend dask)")
    sw.add_argument("--out", default=None, help="write every point's figures: FILE.json")
    sw.add_argument("--plot", default=None,
                    help="draw win rates, spread and length per point: FILE.png/.svg/.pdf")
    sw.add_argument("--quiet", action="store_true", help="no progress bar")
    sw.set_defaults(func=cmd_sweep)

    bt = sub.add_parser("bots", help="the bots: a check of their decisions")
    btsub = bt.add_subparsers(dest="bots_command", required=True)
    bc = btsub.add_parser("check", help="seeded bot games, every decision tested by the "
                          "game's one-step lookahead: the strictly dominated ones, counted "
                          "by kind (exit 1 if any)")
    bc.add_argument("--bots", default="heuristic",
                    help="bot kind, or one per player, comma-separated (default: heuristic)")
    bc.add_argument("--edition", default=None,
                    help="the edition pack (default: the game's base pack)")
    bc.add_argument("--variant", default=None, help="a variant file on top of the edition")
    bc.add_argument("--players", type=whole(1), default=None,
                    help="players (default: the most the game seats)")
    bc.add_argument("--games", type=whole(1, MAX_GAMES), default=20,
                    help="games to play (default: 20)")
    bc.add_argument("--seed", type=int, default=1,
                    help="the first seed, as simulate's: game i plays seed*1000003+i "
                    "(default: 1)")
    bc.add_argument("--max-rounds", type=whole(1), default=None,
                    help="stop a game undecided after this many rounds (default: the "
                    "pack's round_cap parameter, else 60)")
    bc.add_argument("--show", type=whole(0), default=5,
                    help="findings printed of each kind (default: 5)")
    bc.add_argument("--lang", default=None,
                    help="the findings' sentences in this language (default: the pack's)")
    bc.add_argument("--quiet", action="store_true", help="no progress bar")
    bc.set_defaults(func=cmd_bots_check)

    fz = sub.add_parser("fuzz", help="random games with every invariant checked")
    fz.add_argument("--games", type=whole(1), default=100, help="games (default: 100)")
    fz.add_argument("--seed", type=int, default=0, help="the first seed (default: 0)")
    fz.add_argument("--editions", default=None,
                    help="comma-separated (default: all; en with --variant)")
    fz.add_argument("--variant", default=None,
                    help="a variant file on top of each edition")
    fz.add_argument("--players", type=player_counts, default=None,
                    help="comma-separated (default: every count the game seats: 3,4,5 "
                         "for Mare Nostrum, 3 to 6 for Antike II)")
    fz.add_argument("--round-cap", type=whole(1), default=None,
                    help="end each game after this many rounds (default: the pack's own "
                         "round_cap, as simulate: 60 for Mare Nostrum, 3000 for Antike II, "
                         "so whole games are fuzzed)")
    fz.add_argument("--logs", default=".", help="folder for the failures' logs")
    fz.add_argument("--quiet", action="store_true", help="no progress bar")
    fz.set_defaults(func=cmd_fuzz)

    rp = sub.add_parser("replay", help="replay a game log exactly")
    rp.add_argument("log", help="a log written by play --log (or fuzz)")
    rp.add_argument("--round", type=whole(1), default=None,
                    help="stop when this round starts")
    rp.add_argument("--out", default=None, help="write the final state (JSON)")
    rp.add_argument("--lang", default=None,
                    help="the language of the report (default: the log's pack's)")
    rp.set_defaults(func=cmd_replay)

    au = sub.add_parser("audit", help="re-check the rules of game logs, from the book's side "
                        "(docs/audit.md): exit 1 on findings")
    au.add_argument("logs", nargs="+", metavar="LOG", help="logs written by play --log")
    au.add_argument("--lang", default=None,
                    help="the language of the findings (default: each log's pack's)")
    au.set_defaults(func=cmd_audit)

    cards = sub.add_parser("cards", help="hero and wonder cards")
    csub = cards.add_subparsers(dest="cards_command", required=True)
    for name, func, helptext in (("list", cmd_cards_list, "list every card"),
                                 ("show", cmd_cards_show, "show a card and its script"),
                                 ("explain", cmd_cards_explain,
                                  "a card's text from its script, in the pack's language "
                                  "(or --lang): what the engine understood"),
                                 ("words", cmd_cards_words,
                                  "every word a script may use")):
        c = csub.add_parser(name, help=helptext)
        if name == "show":
            c.add_argument("name", help="a card's id or name")
        if name == "explain":
            c.add_argument("name", help="a card's id or name, or a card file or folder "
                           "(each card explained, the failing ones reported)")
        if name == "words":
            c.add_argument("--markdown", action="store_true")
        c.add_argument("--edition", default=None,
                       help="the edition pack (default: the game's base pack)")
        if name != "words":
            c.add_argument("--variant", default=None,
                           help="a variant file on top of the edition")
        c.add_argument("--lang", default=None,
                       help="the language of names and texts (default: the pack's)")
        c.add_argument("--cards", action="append", default=[],
                       help="also load the cards of this folder")
        c.set_defaults(func=func)
    chk = csub.add_parser("check", help="check card files under an edition and variant "
                          "(exit 1 on any error)")
    chk.add_argument("paths", nargs="+", help="card files or folders of them")
    chk.add_argument("--edition", default=None,
                     help="the edition pack the cards are for (default: the game's base pack)")
    chk.add_argument("--variant", default=None,
                     help="a variant file on top of the edition (its plugins' words)")
    chk.set_defaults(func=cmd_cards_check)
    tm = csub.add_parser("textmate", help="the TextMate grammar of scripts, for editors "
                         "(editors/mnrules-effects.tmLanguage.json)")
    tm.add_argument("--edition", default=None,
                    help="whose vocabulary (default: the game's base pack)")
    tm.add_argument("--variant", default=None,
                    help="a variant or pack file on top of the edition: its plugins' "
                    "words too")
    tm.add_argument("--in-yaml", action="store_true",
                    help="the grammar that highlights the scripts inside card and pack "
                    "files (editors/mnrules-effects-in-yaml.tmLanguage.json)")
    tm.add_argument("-o", "--output", default=None, help="write it to this file")
    tm.set_defaults(func=cmd_cards_textmate)

    ed = sub.add_parser("editions", help="edition packs")
    esub = ed.add_subparsers(dest="editions_command", required=True)
    el = esub.add_parser("list", help="the installed games' packs (and those in FOLDERs)")
    el.add_argument("folders", nargs="*", metavar="FOLDER",
                    help="also list the packs (pack.yaml files) in this folder and below, "
                         "such as a game written as one .py file beside its pack")
    el.set_defaults(func=cmd_editions_list)
    es = esub.add_parser("show", help="a pack's parameters, plugins and readings")
    es.add_argument("edition")
    es.add_argument("--variant", default=None)
    es.set_defaults(func=cmd_editions_show)
    edf = esub.add_parser("diff", help="what differs between two packs, measured")
    edf.add_argument("a")
    edf.add_argument("b")
    edf.set_defaults(func=cmd_editions_diff)

    rl = sub.add_parser("rules", help="the rules' contract, phase by phase (docs/rules.md)")
    rl.add_argument("--edition", default=None,
                    help="the edition pack (default: the game's base pack)")
    rl.add_argument("--markdown", action="store_true", help="as Markdown (docs/rules.md)")
    rl.set_defaults(func=cmd_rules)

    mp = sub.add_parser("map", help="board files")
    msub = mp.add_subparsers(dest="map_command", required=True)
    check = msub.add_parser("check", help="validate a board file")
    check.add_argument("file", nargs="?", default=None)
    check.add_argument("--edition", default=None,
                       help="the pack (default: the game's base pack, or the first pack of "
                       "the game FILE names)")
    check.set_defaults(func=cmd_map_check)
    rd = sub.add_parser("render", help="draw the board of a state as SVG or PNG")
    rd.add_argument("state", help="a save file (play --save), a JSON state snapshot "
                    "(replay --out), or 'new' for a new game")
    rd.add_argument("-o", "--output", required=True, help="the picture: FILE.svg or FILE.png")
    rd.add_argument("--edition", default=None,
                    help="the pack of a new game or a snapshot (a save names its own; "
                    "default: the game's base pack)")
    rd.add_argument("--players", type=whole(1), default=None,
                    help="players of a new game")
    rd.add_argument("--seed", type=int, default=1, help="seed of a new game and of the bots")
    rd.add_argument("--rounds", type=whole(0), default=0,
                    help="first play this many rounds with random bots")
    rd.add_argument("--lang", default=None,
                    help="the picture's words in this language (default: the pack's)")
    rd.set_defaults(func=cmd_render)
    from .web.command import add_parser as add_serve

    add_serve(sub)
    for p in (play, sm, fz, rl, check, rd, skill_parser, bc, *csub.choices.values()):
        p.add_argument("--game", default=None,
                       help="the game's base pack, by the game's name (its folder of "
                       "editions/), instead of --edition")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    # a line at a time even into a pipe or a file: an error (stderr) stays after the lines
    # it follows ("ok ..." lines, then the file that could not be read)
    reconfigure = getattr(sys.stdout, "reconfigure", None)
    if reconfigure is not None:
        with contextlib.suppress(ValueError, OSError):
            reconfigure(line_buffering=True)
    parser = build_parser()
    args = parser.parse_args(argv)
    args.argv = list(sys.argv[1:] if argv is None else argv)   # for the files' provenance
    try:
        if getattr(args, "game", None):
            _use_game(args)
        if getattr(args, "edition", "") is None and not getattr(args, "load", None) \
                and args.func not in (cmd_map_check, cmd_render):
            from ..content import packs

            args.edition = packs.default_pack()   # the one game's, or a clear refusal
        with stop_signals():
            result: int = args.func(args)
        return result
    except MnrulesError as exc:
        print(f"mnrules: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
    except OSError as exc:  # the machine's refusal (a full disk, a vanished file): no traceback
        where = f" {exc.filename}" if exc.filename else ""
        print(f"mnrules: error:{where} {exc.strerror or exc}", file=sys.stderr)
        return 2
    except UnicodeDecodeError as exc:  # a file given to read is not text
        print(f"mnrules: error: a file is not UTF-8 text ({exc.reason})", file=sys.stderr)
        return 2
    except Stopped as exc:  # SIGTERM, SIGHUP: ended as Ctrl-C ends, with the shell's code
        with contextlib.suppress(OSError):  # SIGHUP: the terminal may be gone
            print(f"mnrules: stopped by {exc.name}", file=sys.stderr)
        return 128 + exc.signum
    except KeyboardInterrupt:
        print("mnrules: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
