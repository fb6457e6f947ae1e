"""A PostgreSQL server for the store's tests: the one ``MNRULES_TEST_POSTGRES`` names (a
``postgresql://`` URL; the tests then run, and fail if it cannot be reached), else the
one libpq's defaults reach (the PG* variables, the local socket), else none and the
PostgreSQL tests are skipped, saying why. ``.ci/postgres start DIR`` starts a throwaway
one and prints its URL.

Each test gets a schema of its own in that database (the store's tables go in the first
schema of the ``search_path``), dropped after the test, with any connection still open
to it."""

from __future__ import annotations

import functools
import os
import secrets
import urllib.parse
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

ENV = "MNRULES_TEST_POSTGRES"


def with_params(url: str, **params: str) -> str:
    """``url`` with more query parameters (``options`` added to its own, if any)."""
    base, _, query = url.partition("?")
    pairs = dict(urllib.parse.parse_qsl(query, keep_blank_values=True))
    for key, value in params.items():
        pairs[key] = f"{pairs[key]} {value}" if key == "options" and key in pairs else value
    # libpq decodes %XX in a URI, never "+": quote, not quote_plus
    return base + "?" + urllib.parse.urlencode(pairs, quote_via=urllib.parse.quote)


@functools.cache
def _server() -> tuple[str | None, str]:
    """The server's URL, or None and why there is none."""
    try:
        import psycopg
    except ImportError:
        return None, "psycopg is not installed (pip install 'mnrules[postgres]')"
    url = os.environ.get(ENV) or ""
    try:
        with psycopg.connect(url, connect_timeout=5 if url else 2, autocommit=True) as c:
            c.execute("SELECT 1")
    except psycopg.Error as exc:
        first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        if url:
            return None, f"{ENV}: cannot connect: {first}"
        return None, (f"no PostgreSQL server: {ENV} is not set and libpq's defaults reach "
                      f"none ({first}); .ci/postgres start DIR starts one and prints its URL")
    return url or "postgresql://", ""


def server_url() -> str:
    """The test server's URL; the test is skipped without one (failed if
    ``MNRULES_TEST_POSTGRES`` names one that cannot be reached)."""
    url, why = _server()
    if url is None:
        if os.environ.get(ENV):
            pytest.fail(why, pytrace=False)
        pytest.skip(why)
    return url


def admin() -> Any:
    """A connection of the tests' own to the server's database."""
    import psycopg

    return psycopg.connect(server_url(), autocommit=True, connect_timeout=10)


@contextmanager
def schema() -> Iterator[str]:
    """A URL whose store is in a new, empty schema; the schema is dropped after."""
    name = "mnrules_test_" + secrets.token_hex(6)
    with admin() as c:
        c.execute(f"CREATE SCHEMA {name}")
    try:
        yield with_params(server_url(), options=f"-c search_path={name}",
                          application_name=name)
    finally:
        with admin() as c:
            c.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                      "WHERE application_name = %s AND pid <> pg_backend_pid()", (name,))
            c.execute(f"DROP SCHEMA {name} CASCADE")
