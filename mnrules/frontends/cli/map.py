"""The ``mnrules map check`` command: a board file validated."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ...content.ruleset import load_ruleset
from ...errors import DataFileError, MnrulesError
from .common import game_option


def cmd_map_check(args: argparse.Namespace) -> int:
    """Check the pack's board file (or FILE instead): its structure as the game reads it,
    then the rules' own checks (``mn_check_board``). A FILE that names its game (a
    top-level ``game:`` key) is read by that game, under its first bundled pack unless
    --edition names one. With neither FILE nor --edition: the default pack's board, then
    every game's further board files (``editions/<game>/boards/*.yaml``)."""
    from ...content import packs

    if args.file:
        path = Path(args.file)
        game = _board_game(path)
        if args.edition or not game:
            return _check_map(args.edition or packs.default_pack(), path)
        return _check_map(packs.first_pack(game), path, game)
    if args.edition:
        return _check_map(args.edition, None)
    from ...content import games

    code = _check_map(packs.default_pack(), None)
    for game in games.installed():
        folder = games.editions_dir(game)
        for board in sorted((folder / "boards").glob("*.yaml")) if folder else ():
            code = max(code, _check_map(packs.first_pack(game), board, game))
    return code


def _board_game(path: Path) -> str:
    """The game a board file says it is for (its top-level ``game:`` key), or ""."""
    from ...content.yamlsource import load_yaml

    data = load_yaml(path).data
    game = data.get("game") if isinstance(data, dict) else None
    return game if isinstance(game, str) else ""


def _check_map(edition: str | None, file: Path | None, game: str = "") -> int:
    """Check one board file (``file``, or the pack's own) under ``edition``; a game with
    no pack yet has its file read by the game's ``load_board`` alone."""
    if edition is None:
        from ...content.ruleset import board_loader, game_module

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


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    mp = sub.add_parser("map", help="board files")
    msub = mp.add_subparsers(dest="map_command", required=True)
    check = msub.add_parser("check", help="validate a board file")
    check.add_argument("file", nargs="?", default=None)
    check.add_argument("--edition", default=None,
                       help="the pack (default: the game's base pack, or the first pack of "
                       "the game FILE names)")
    check.set_defaults(func=cmd_map_check)
    game_option(check)
