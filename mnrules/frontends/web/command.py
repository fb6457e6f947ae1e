"""The ``mnrules serve`` command's body: check the web extra is installed, then serve."""

from __future__ import annotations

import argparse

from ...errors import MnrulesError


def cmd_serve(args: argparse.Namespace) -> int:
    try:
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError:
        raise MnrulesError("serve needs the web extra: pip install 'mnrules[web]'") from None
    if not 0 < args.port < 65536:
        raise MnrulesError(f"--port: {args.port} is not a port (1-65535)")
    from .app import serve

    serve(args.host, args.port, args.data)
    return 0


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    sv = sub.add_parser("serve", help="play, watch and mod in the browser (a local web app)")
    sv.add_argument("--host", default="127.0.0.1",
                    help="the address to listen on (default: this machine only)")
    sv.add_argument("--port", type=int, default=8000, help="the port (default 8000)")
    sv.add_argument("--data", metavar="DIR|URL",
                    help="where its games are kept: a folder (a SQLite file in it; default: "
                         "mnrules in the user's data folder, $XDG_DATA_HOME or "
                         "~/.local/share) or a PostgreSQL database's URL, "
                         "postgresql://user@host/db (the postgres extra; docs/web.md)")
    sv.set_defaults(func=cmd_serve)
