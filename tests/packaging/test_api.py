"""The public surface (mnrules.api) and its version: every name it promises is there
and is the kernel's own object; a pack requiring another version is refused, naming its
file, line and key; the worked examples import nothing but mnrules.api."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import mnrules
from mnrules import api
from mnrules.content.ruleset import load_ruleset
from mnrules.core import engine, state
from mnrules.errors import PackError
from mnrules.hooks import hookspecs

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = [ROOT / "tests" / "kernel" / "tictactoe" / "tictactoe.py",
            ROOT / "tests" / "packaging" / "pig" / "mnrules_pig" / "__init__.py"]


def test_every_promised_name_is_there_and_is_the_kernels() -> None:
    assert sorted(api.__all__) == sorted(set(api.__all__))
    for name in api.__all__:
        assert hasattr(api, name), name
    assert api.Game is engine.Game and api.State is state.State
    assert api.hookimpl is hookspecs.hookimpl


def test_the_api_version_is_major_minor_and_the_packages() -> None:
    assert re.fullmatch(r"\d+\.\d+", api.API_VERSION)
    assert api.API_VERSION == mnrules.API_VERSION


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: p.parent.name)
def test_the_examples_import_only_the_public_surface(example: Path) -> None:
    kernel = {node.module for node in ast.walk(ast.parse(example.read_text("utf-8")))
              if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("mnrules")}
    assert kernel == {"mnrules.api"}


def _pack(tmp_path: Path, api_key: str) -> Path:
    path = tmp_path / "needs.yaml"
    path.write_text(f"format: mnrules-pack/1\nextends: en\nid: needs\napi: {api_key}\n",
                    encoding="utf-8")
    return path


def test_a_pack_needing_a_later_api_is_refused_at_its_key(tmp_path: Path) -> None:
    path = _pack(tmp_path, '">=2.0"')
    with pytest.raises(PackError) as caught:
        load_ruleset(str(path))
    message = str(caught.value)
    assert message.startswith(f"{path}:4:1: api: this pack needs the plugin API >=2.0")
    assert f"provides API {api.API_VERSION}" in message


def test_a_pack_within_the_api_plays(tmp_path: Path) -> None:
    major = int(api.API_VERSION.split(".")[0])
    within = f'">={api.API_VERSION},<{major + 1}"'
    assert load_ruleset(str(_pack(tmp_path, within))).game == "mare_nostrum"


def test_a_malformed_api_requirement_is_refused(tmp_path: Path) -> None:
    with pytest.raises(PackError, match=r"needs\.yaml:4:1: api: expected comparisons"):
        load_ruleset(str(_pack(tmp_path, "soon")))
