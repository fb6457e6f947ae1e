"""The board file: the transcribed facts, the starting setups, and the checker's
reports on broken copies of the real file."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from mare_nostrum.board import (
    Board,
    BoardError,
    Slot,
    check_board,
    default_board_path,
    load_board,
    parse_slot,
)
from mnrules.content.yamlsource import Problem, SourceError, load_yaml, suggest
from mnrules.errors import MnrulesError

GOODS = (
    "ceramics",
    "gems",
    "papyrus",
    "metal",
    "spices",
    "stone",
    "wood",
    "gold",
    "grain",
    "oil",
    "sheep",
    "wine",
    "gladiators",
)
TRANSCRIBED_24 = {
    "GALLIA", "GERMANIA", "DALMATIA", "LATIUM", "ITALIA", "MACEDONIA", "DACIA", "THRACIA",
    "ACHAEA", "SICILIA", "NUMIDIA", "AFRICA", "PHAZANIA", "LIBYA", "GARAMANTIA", "CYRENAICA",
    "NUBIA", "AEGYPTUS", "AETHIOPIA", "CRETE", "JUDAEA", "CILICIA", "CAPPADOCIA", "ASIA",
}  # fmt: skip
SEAS_9 = {
    "MARE HADRIATICUM", "MARE IONIUM", "MARE AEGAEUM", "MARE TYRRHENUM", "MARE SARDUM",
    "MARE AFRICUM", "MARE AEGYPTIUM", "MARE CYPRIUM", "PONTUS EUXINUS",
}  # fmt: skip
BOARD_PATH = default_board_path()
BOARD_TEXT = BOARD_PATH.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def board() -> Board:
    return load_board(BOARD_PATH, GOODS)


def specs(board: Board, province: str) -> list[str]:
    return [s.spec for s in board.provinces[province].slots]


def built(board: Board, empire: str) -> list[tuple[str, Slot]]:
    setup = board.empires[empire]
    return [
        (province, board.provinces[province].slots[i])
        for province, indices in setup.buildings.items()
        for i in indices
    ]


# --- the real board ---------------------------------------------------------


def test_real_board_has_no_structural_problem() -> None:
    assert check_board(load_yaml(BOARD_PATH), GOODS) == []


def test_default_path_is_the_english_board() -> None:
    assert BOARD_PATH.is_file()
    assert BOARD_PATH.parts[-2:] == ("en", "board.yaml")


def test_transcribed_provinces_and_seas(board: Board) -> None:
    four_player = {p for p in board.provinces if board.provinces[p].min_players <= 4}
    assert four_player == TRANSCRIBED_24
    assert set(board.seas) == SEAS_9
    # On the transcribed 4-player board only AFRICA (its capital slot) is not transcribed.
    reconstructed = {p for p in four_player if board.provinces[p].provenance != "transcribed"}
    assert reconstructed == {"AFRICA"}
    assert all(p.provenance in ("transcribed", "reconstructed") for p in board.provinces.values())


def test_adjacency_is_symmetric(board: Board) -> None:
    for name, province in board.provinces.items():
        assert name not in province.neighbours
        for other in province.neighbours:
            assert name in board.provinces[other].neighbours, (name, other)
        for sea in province.seas:
            assert name in board.provinces_on_sea(sea)
    for name, sea in board.seas.items():
        for other in sea.neighbours:
            assert name in board.seas[other].neighbours, (name, other)


def test_worked_example_facts(board: Board) -> None:
    # Italia -> Cyrenaica transport over Mare Ionium and Mare Africum.
    assert "MARE IONIUM" in board.provinces["ITALIA"].seas
    assert "MARE AFRICUM" in board.sea_neighbours("MARE IONIUM")
    assert "CYRENAICA" in board.provinces_on_sea("MARE AFRICUM")
    # A Greek trireme in Mare Aegaeum connects Asia.
    assert board.is_adjacent("MARE AEGAEUM", "ASIA")
    assert board.is_adjacent("ACHAEA", "MARE AEGAEUM")
    assert board.is_adjacent("GERMANIA", "DACIA")
    assert board.is_adjacent("DACIA", "GERMANIA")
    assert board.is_adjacent("CILICIA", "JUDAEA")
    assert board.is_adjacent("CILICIA", "ASIA")
    assert specs(board, "ASIA").count("legendary:TROIA") == 1
    assert not any(s.kind == "caravan" for s in board.provinces["ASIA"].slots)
    aethiopia = sorted(s.good or "" for s in board.provinces["AETHIOPIA"].slots if s.good)
    assert aethiopia == ["gold", "grain"]
    assert "caravan:papyrus" in specs(board, "CYRENAICA")
    assert "city" in specs(board, "CYRENAICA")
    assert sum(s.kind == "caravan" for s in board.provinces["MACEDONIA"].slots) == 2


def test_decided_links(board: Board) -> None:
    assert not board.is_adjacent("GERMANIA", "MACEDONIA")
    assert not board.is_adjacent("LATIUM", "MARE IONIUM")
    assert not board.is_adjacent("MARE HADRIATICUM", "MARE TYRRHENUM")
    assert not board.is_adjacent("NOWHERE", "LATIUM")
    assert specs(board, "CILICIA") == ["city", "temple"]
    assert "capital:CARTHAGO" in specs(board, "AFRICA")


def test_capitals_and_legendary_cities(board: Board) -> None:
    where = {
        s.spec: p
        for p, province in board.provinces.items()
        for s in province.slots
        if s.kind in ("capital", "legendary")
    }
    assert where == {
        "capital:ROMA": "LATIUM",
        "capital:ATHENAE": "ACHAEA",
        "capital:BABYLON": "BABYLONIA",
        "capital:ALEXANDRIA": "AEGYPTUS",
        "capital:CARTHAGO": "AFRICA",
        "legendary:SYRACUSAE": "SICILIA",
        "legendary:IERUSALEM": "JUDAEA",
        "legendary:TROIA": "ASIA",
    }
    for empire in board.empires.values():
        assert f"capital:{_capital_name(empire.id)}" in specs(board, empire.capital)


def _capital_name(empire: str) -> str:
    return {
        "rome": "ROMA",
        "greece": "ATHENAE",
        "babylon": "BABYLON",
        "egypt": "ALEXANDRIA",
        "carthage": "CARTHAGO",
    }[empire]


def test_building_slots_fit_the_component_counts(board: Board) -> None:
    kinds = Counter(s.kind for p in board.provinces.values() for s in p.slots)
    # Markers in the box (digest 2.2); one marker per slot is the most there can be.
    assert kinds["caravan"] <= 37
    assert kinds["market"] <= 25
    assert kinds["city"] <= 8
    assert kinds["temple"] <= 14
    assert kinds["capital"] == 5
    assert kinds["legendary"] == 3


@pytest.mark.parametrize(("players", "count"), [(3, 19), (4, 24), (5, 29)])
def test_provinces_per_player_count(board: Board, players: int, count: int) -> None:
    in_play = board.provinces_in_play(players)
    assert len(in_play) == count
    for empire in board.players[players]:
        assert set(board.empires[empire].provinces) <= set(in_play)
    for empire in set(board.empires) - set(board.players[players]):
        assert not set(board.empires[empire].provinces) & set(in_play)


def test_players_and_titles(board: Board) -> None:
    assert board.players == {
        3: ("rome", "greece", "carthage"),
        4: ("rome", "greece", "egypt", "carthage"),
        5: ("rome", "greece", "babylon", "egypt", "carthage"),
    }
    assert [board.start_title("culture", n) for n in (3, 4, 5)] == ["greece", "egypt", "egypt"]
    assert {board.start_title("trade", n) for n in (3, 4, 5)} == {"carthage"}
    assert {board.start_title("military", n) for n in (3, 4, 5)} == {"rome"}


BOOK_TRACKS = {
    "rome": (7, 1, 3),
    "greece": (4, 4, 3),
    "babylon": (5, 3, 2),
    "egypt": (4, 4, 2),
    "carthage": (7, 1, 2),
}


@pytest.mark.parametrize("empire", sorted(BOOK_TRACKS))
def test_starting_tracks_equal_counted_pieces(board: Board, empire: str) -> None:
    setup = board.empires[empire]
    kinds = Counter(slot.kind for _, slot in built(board, empire))
    trade = kinds["caravan"] + kinds["market"]
    culture = kinds["city"] + kinds["capital"] + kinds["legendary"] + kinds["temple"]
    military = sum(setup.legions.values()) + len(setup.fortresses) + sum(setup.triremes.values())
    assert (trade, culture, military) == BOOK_TRACKS[empire]
    assert (setup.tracks["trade"], setup.tracks["culture"], setup.tracks["military"]) == (
        BOOK_TRACKS[empire]
    )
    # One fortress, the rest legions, no triremes (map-notes §2).
    assert len(setup.fortresses) == 1
    assert setup.triremes == {}
    assert setup.capital in setup.fortresses


@pytest.mark.parametrize("empire", sorted(BOOK_TRACKS))
def test_starting_pieces_produce_nine_resources(board: Board, empire: str) -> None:
    pieces = built(board, empire)
    total = 0
    for province, slot in pieces:
        here = {s.kind for p, s in pieces if p == province}
        if slot.kind in ("city", "capital"):
            total += 2 if "temple" in here else 1
        elif slot.kind == "caravan":
            total += 2 if "market" in here else 1
        elif slot.kind == "legendary":
            total += 2
    assert total == 9
    capital_slots = [s for p, s in pieces if s.kind == "capital"]
    assert capital_slots == [Slot("capital", name=_capital_name(empire))]


def test_babylon_is_reconstructed_and_reaches_the_map(board: Board) -> None:
    babylon = board.empires["babylon"]
    assert babylon.capital == "BABYLONIA"
    for province in babylon.provinces:
        assert board.provinces[province].provenance == "reconstructed"
        assert board.provinces[province].min_players == 5
        assert board.provinces[province].note
    assert board.is_adjacent("SYRIA", "CILICIA")
    assert board.is_adjacent("SYRIA", "JUDAEA")


def test_slot_spec_round_trip() -> None:
    for spec in ("caravan:grain", "market", "capital:ROMA", "legendary:TROIA", "temple", "city"):
        assert parse_slot(spec, ("caravan", "market", "city", "capital", "legendary", "temple"),
                          GOODS).spec == spec  # fmt: skip
    assert Slot("caravan", good="grain").spec == "caravan:grain"


# --- broken copies of the real file -----------------------------------------


def edit(old: str, new: str, text: str = BOARD_TEXT) -> str:
    assert text.count(old) == 1, f"the test expects {old!r} exactly once in the board file"
    return text.replace(old, new)


def locate(text: str, line_text: str, word: str) -> tuple[int, int]:
    """1-based line and column of word on the only line containing line_text."""
    hits = [i for i, line in enumerate(text.splitlines()) if line_text in line]
    assert len(hits) == 1, line_text
    line = text.splitlines()[hits[0]]
    return hits[0] + 1, line.index(word, line.index(line_text)) + 1


def problems_of(text: str, tmp_path: Path) -> list[Problem]:
    path = tmp_path / "board.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(BoardError) as caught:
        load_board(path, GOODS)
    problems = list(caught.value.problems)
    assert str(caught.value).splitlines() == [str(p) for p in problems]
    assert all(p.file == str(path) for p in problems)
    return problems


def only(problems: list[Problem], key: str) -> Problem:
    found = [p for p in problems if p.key == key]
    assert len(found) == 1, [str(p) for p in problems]
    return found[0]


def test_typo_in_a_neighbour_name(tmp_path: Path) -> None:
    text = edit(
        "neighbours: [GERMANIA, DALMATIA, LATIUM]", "neighbours: [GERMANIA, DALMATIA, LATIVM]"
    )
    problems = problems_of(text, tmp_path)
    typo = only(problems, "provinces.GALLIA.neighbours[2]")
    assert "unknown province 'LATIVM'" in typo.message
    assert "did you mean 'LATIUM'?" in typo.message
    assert (typo.line, typo.column) == locate(text, "[GERMANIA, DALMATIA, LATIVM]", "LATIVM")
    # LATIUM still lists GALLIA, which now fails to list it back.
    back = only(problems, "provinces.LATIUM.neighbours[1]")
    assert "LATIUM lists GALLIA" in back.message and "GALLIA does not list LATIUM" in back.message
    assert len(problems) == 2


def test_bad_slot_kind_and_good(tmp_path: Path) -> None:
    text = edit(
        "slots: [caravan:grain, caravan:sheep, market]",
        "slots: [caravan:grian, caravan:sheep, markte]",
    )
    problems = problems_of(text, tmp_path)
    kind = only(problems, "provinces.GALLIA.slots[2]")
    assert "unknown slot kind 'markte'" in kind.message and "'market'" in kind.message
    assert (kind.line, kind.column) == locate(text, "caravan:sheep, markte]", "markte")
    good = only(problems, "provinces.GALLIA.slots[0]")
    assert "unknown good 'grian'" in good.message and "'grain'" in good.message
    # Rome's GALLIA caravan:grain no longer has a slot to stand on.
    assert only(problems, "empires.rome.buildings.GALLIA[0]").message.startswith(
        "caravan:grain is not a slot of GALLIA"
    )


def test_asymmetric_link(tmp_path: Path) -> None:
    text = edit("neighbours: [ITALIA, GALLIA]", "neighbours: [GALLIA]")
    problems = problems_of(text, tmp_path)
    assert len(problems) == 1
    problem = problems[0]
    assert problem.key == "provinces.ITALIA.neighbours[0]"
    assert problem.message == "ITALIA lists LATIUM as a neighbour, but LATIUM does not list ITALIA"
    assert problem.line == locate(text, "neighbours: [LATIUM]", "LATIUM")[0]
    assert str(problem).startswith(f"{problem.file}:{problem.line}:{problem.column}: ")


def test_duplicate_key_is_a_source_error(tmp_path: Path) -> None:
    text = edit("  GERMANIA:\n", "  GALLIA:\n")
    path = tmp_path / "board.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(SourceError) as caught:
        load_board(path, GOODS)
    error = caught.value
    assert isinstance(error, MnrulesError)
    assert "duplicate key 'GALLIA'" in error.message
    assert error.line == text.splitlines().index("  GALLIA:", 20) + 1
    assert error.file == str(path)


def test_broken_yaml_is_a_source_error(tmp_path: Path) -> None:
    text = edit("seas: [MARE HADRIATICUM]\n", "seas: [MARE HADRIATICUM\n")
    path = tmp_path / "board.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(SourceError) as caught:
        load_board(path, GOODS)
    error = caught.value
    assert error.line is not None and error.column is not None
    # The flow list is left open on DALMATIA's line; PyYAML notices later, never earlier.
    assert error.line >= text.splitlines().index("    seas: [MARE HADRIATICUM") + 1
    assert str(error).startswith(f"{path}:{error.line}:{error.column}: ")
    # one sentence, then the line at fault with a caret (issue 13, item 3)
    head, source, caret = str(error).split("\n")
    assert "Traceback" not in head and "is not closed" in head
    assert source.strip() == text.splitlines()[error.line - 1].strip()
    assert caret.index("^") == 4 + error.column - 1 and source[caret.index("^")] == "["


def test_unreadable_file_is_a_source_error(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="cannot read"):
        load_board(tmp_path / "missing.yaml", GOODS)


def test_cut_off_province(tmp_path: Path) -> None:
    text = edit("seas: [MARE IONIUM, MARE AFRICUM, MARE TYRRHENUM, MARE SARDUM]", "seas: []")
    problems = problems_of(text, tmp_path)
    assert len(problems) == 1
    assert problems[0].key == "provinces.SICILIA"
    assert "SICILIA is cut off from the rest of the map with 3 players" in problems[0].message
    assert problems[0].line == text.splitlines().index("  SICILIA:") + 1


def test_lone_sea_and_sea_listed_as_neighbour(tmp_path: Path) -> None:
    text = edit(
        "    neighbours: [MARE AEGAEUM]\n",
        "    neighbours: [MARE AEGAEUM]\n  MARE INTERNUM:\n    provenance: reconstructed\n"
        "    neighbours: []\n",
    )
    text = edit("    neighbours: [LATIUM]\n", "    neighbours: [LATIUM, MARE IONIUM]\n", text)
    problems = problems_of(text, tmp_path)
    lone = only(problems, "seas.MARE INTERNUM")
    assert "touches no province or sea" in lone.message
    assert lone.line == text.splitlines().index("  MARE INTERNUM:") + 1
    misplaced = only(problems, "provinces.ITALIA.neighbours[1]")
    assert misplaced.message == ("unknown province 'MARE IONIUM' (it is a sea: list it under seas)")
    assert len(problems) == 2


def test_unknown_top_level_key_and_wrong_types(tmp_path: Path) -> None:
    text = edit("start_titles:\n", "start_title:\n")
    text = edit("    seas: [MARE HADRIATICUM]\n", "    seas: MARE HADRIATICUM\n", text)
    text = edit("    provenance: transcribed\n    slots: [caravan:gems, market]",
                "    provenance: transcibed\n    slots: [caravan:gems, market]", text)  # fmt: skip
    problems = problems_of(text, tmp_path)
    unknown = only(problems, "start_title")
    assert "unknown key 'start_title'" in unknown.message and "'start_titles'" in unknown.message
    assert only(problems, "start_titles").message == "missing key"
    wrong = only(problems, "provinces.DALMATIA.seas")
    assert wrong.message == "expected a list of seas, got text 'MARE HADRIATICUM'"
    assert "did you mean 'transcribed'?" in only(problems, "provinces.GERMANIA.provenance").message
    # DALMATIA no longer reaches its sea; its neighbours still join it to the map.
    assert not any("cut off" in p.message for p in problems)


def test_empire_setup_mistakes(tmp_path: Path) -> None:
    text = edit("GALLIA: [caravan:grain, caravan:sheep]",
                "GALLIA: [caravan:grain, caravan:sheep, caravan:sheep, temple]")  # fmt: skip
    text = edit("legions: {LATIUM: 1, GALLIA: 1}", "legions: {LATIUM: 1, DALMATIA: 0}", text)
    text = edit("  3: [rome, greece, carthage]", "  3: [rome, grece, carthage]", text)
    text = edit("    capital: ACHAEA\n", "    capital: MACEDONIA\n", text)
    problems = problems_of(text, tmp_path)
    assert "already built" in only(problems, "empires.rome.buildings.GALLIA[2]").message
    assert "is not a slot of GALLIA" in only(problems, "empires.rome.buildings.GALLIA[3]").message
    assert "not a starting province" in only(problems, "empires.rome.legions.DALMATIA").message
    named = only(problems, "players.3[1]")
    assert "unknown empire 'grece'" in named.message and "'greece'" in named.message
    assert only(problems, "empires.greece.capital").message == "MACEDONIA has no capital slot"
    assert len(problems) == 5


def test_duplicate_capital_name(tmp_path: Path) -> None:
    text = edit("[caravan:oil, market, city, capital:ATHENAE, temple]",
                "[caravan:oil, market, city, capital:ROMA, temple]")  # fmt: skip
    problems = problems_of(text, tmp_path)
    twice = only(problems, "provinces.ACHAEA.slots[3]")
    assert twice.message == "capital ROMA is already a slot of LATIUM"
    assert (
        "capital:ATHENAE is not a slot of ACHAEA"
        in only(problems, "empires.greece.buildings.ACHAEA[2]").message
    )


def test_empire_on_the_board_when_absent(tmp_path: Path) -> None:
    text = edit(
        "    min_players: 5\n    note: Babylonian starting province.",
        "    min_players: 4\n    note: Babylonian starting province.",
    )
    problems = problems_of(text, tmp_path)
    assert len(problems) == 2
    absent = only(problems, "empires.babylon.provinces[2]")
    assert "MESOPOTAMIA is on the board with 4 players" in absent.message
    # Its neighbours are all covered with 4 players, so it is an island in the leadership board.
    assert "cut off" in only(problems, "provinces.MESOPOTAMIA").message


# --- yamlsource -------------------------------------------------------------


def test_positions_and_key_strings() -> None:
    src = load_yaml("x.yaml", "a:\n  b: [1, two]\nplayers:\n  3: [rome]\n")
    assert src.data == {"a": {"b": [1, "two"]}, "players": {3: ["rome"]}}
    assert src.position(("a", "b", 1)) == (2, 10)
    assert src.position(("players", 3)) == (4, 3)
    assert src.position(("a", "missing", 0)) == (1, 1)
    assert src.key_string(("a", "b", 1)) == "a.b[1]"
    assert src.key_string(("players", 3, 0)) == "players.3[0]"
    problem = src.problem(("a", "b", 1), "bad")
    assert str(problem) == "x.yaml:2:10: a.b[1]: bad"


def test_plain_data_only() -> None:
    src = load_yaml("x.yaml", "when: 2024-01-01\nflag: true\nn: 1.5\nnothing:\n")
    assert src.data == {"when": "2024-01-01", "flag": True, "n": 1.5, "nothing": None}
    with pytest.raises(SourceError, match="constructor"):
        load_yaml("x.yaml", "a: !!python/object:os.system ls\n")


def test_suggest() -> None:
    assert suggest("GALIA", ["GALLIA", "LATIUM"]) == "GALLIA"
    assert suggest("latium", ["GALLIA", "LATIUM"]) == "LATIUM"
    assert suggest("xyzzy", ["GALLIA", "LATIUM"]) is None
