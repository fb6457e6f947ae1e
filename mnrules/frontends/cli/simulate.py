"""The ``mnrules simulate`` command: many bot games and their balance report."""

from __future__ import annotations

import argparse
from pathlib import Path

from ...bots import default_bots, make_bot
from ...content.ruleset import load_ruleset
from ...errors import MnrulesError
from ...files import check_distinct, check_writable
from ...language.present import presenter
from .common import DEFAULT_BOTS, MAX_GAMES, game_option, running_options, whole

# what --out writes; --plot's formats are the simulation tool's, which draws them
OUT_FORMATS = (".json", ".csv")


def cmd_simulate(args: argparse.Namespace) -> int:
    from ...tools import simulate as sim

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
        from ...tools.provenance import provenance, seed_rule

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


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
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
    running_options(sm)
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
    game_option(sm)
