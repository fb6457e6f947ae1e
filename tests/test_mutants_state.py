"""The state's promises that mutation testing found unguarded (issue 19)."""

from __future__ import annotations

from typing import Any

import pytest

from mnrules.errors import StateError
from mnrules.state import MAX_DEPTH, check_plain


def nested(kind: str, depth: int) -> Any:
    value: Any = 1
    for _ in range(depth):
        value = {"deeper": value} if kind == "dict" else [value]
    return value


@pytest.mark.parametrize("kind", ["dict", "list"])
def test_saved_data_nests_at_most_its_bound(kind: str) -> None:
    """Data a save may hold nests MAX_DEPTH levels of mappings or lists; one more level is
    refused, naming where (a hostile save cannot exhaust the loader).

    Kills: deleting the depth check for mappings (or for lists) in ``check_plain``."""
    check_plain({"vars": nested(kind, MAX_DEPTH - 1)})
    with pytest.raises(StateError, match=f"nests more than {MAX_DEPTH} deep"):
        check_plain({"vars": nested(kind, MAX_DEPTH)})


@pytest.mark.parametrize("value", [{1, 2}, b"bytes", object()])
def test_saved_data_is_plain_data_only(value: Any) -> None:
    """A set, bytes or any object in a state is refused with where it is: a save holds
    only what JSON holds.

    Kills: deleting the last ``StateError`` in ``check_plain``."""
    with pytest.raises(StateError, match="is not plain data"):
        check_plain({"vars": {"odd": value}})
