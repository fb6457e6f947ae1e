"""The ``mnrules study`` command: packs × variants × player counts × bots on the same
seeds, every game streamed to disk, one report (HTML and Markdown)."""

from __future__ import annotations

import argparse

from .common import DEFAULT_BOTS, player_counts, running_options, whole


def cmd_study(args: argparse.Namespace) -> int:
    from ...tools.study import command

    return command(args)


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    st = sub.add_parser("study", help="a balance study over packs, variants, player counts "
                        "and bots on the same seeds, with one report a publisher can read "
                        "(docs/simulation.md)")
    st.add_argument("--packs", default=None,
                    help="the edition packs, comma-separated, e.g. en,fr (default: the "
                    "game's base pack)")
    st.add_argument("--variants", default=None,
                    help="variant files, comma-separated: each is played on every pack "
                    "(or on the one it extends), besides the pack alone")
    st.add_argument("--players", type=player_counts, default=None,
                    help="player counts, comma-separated, e.g. 3,4,5 (default: every "
                    "count each pack seats)")
    st.add_argument("--bots", default=None,
                    help=f"bots, comma-separated, each in every seat of its own cells, e.g. "
                    f"heuristic,mcts:4 (default: {DEFAULT_BOTS} where the game has it, "
                    f"else random)")
    st.add_argument("--games", type=int, default=100,
                    help="games per cell (default: 100; at most 1,000,000)")
    st.add_argument("--seed", type=int, default=1,
                    help="the first seed: game i of every cell plays seed*1000003+i "
                    "(default: 1)")
    st.add_argument("--band", default=None, metavar="LOW,HIGH",
                    help="the win rates in percent a balanced table keeps, declared before "
                    "the games, e.g. 12,28: a cell is out when a player's 95%% interval "
                    "lies wholly outside (default: none declared)")
    st.add_argument("--out", required=True,
                    help="the report: FILE.html (and its Markdown twin FILE.md) or FILE.md; "
                    "every game is streamed to FILE.jsonl and FILE.csv as it ends")
    st.add_argument("--resume", action="store_true",
                    help="go on with the games already in FILE.jsonl (the same study, "
                    "seed and packs' contents), playing only those it lacks")
    st.add_argument("--jobs", type=whole(1), default=None,
                    help="worker processes (default: half the cores, at least 1)")
    running_options(st)
    st.add_argument("--quiet", action="store_true", help="no progress bar")
    st.set_defaults(func=cmd_study)
