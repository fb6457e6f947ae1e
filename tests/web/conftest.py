"""The web tests' stores: ``data`` is what ``create_app`` and ``mnrules serve --data``
are given, once a folder (SQLite) and once a PostgreSQL URL (postgres_live: skipped
without a server unless MNRULES_TEST_POSTGRES names one)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

import postgres_live


@pytest.fixture(params=["sqlite", "postgres"])
def data(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str | Path]:
    if request.param == "sqlite":
        yield tmp_path / "data"
        return
    with postgres_live.schema() as url:
        yield url
