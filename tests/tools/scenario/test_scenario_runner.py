"""The scenario runner is exact: each edition and player count starts from the file's own
position, expectations by edition add to the shared ones, events are records, and what
a player or a modder needs to say (a refusal, the exact options, checkpoints, choices by
edition or player count, face-up tiles, a plugin's state, counts and order of events,
twin slots, data keys named like the pattern's own) can be said. A run that cannot go
on says where the game stands; a crash is a failure, never a traceback."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from conftest import ROOT
from mnrules import load_ruleset, new_game
from mnrules.core.effects import Event
from mnrules.frontends.cli import main
from mnrules.tools.scenario import (
    Outcome,
    ScenarioError,
    _event_matches,
    expectations,
    load,
    run,
    seatings,
)

EN_BOARD = ROOT / "editions" / "mare_nostrum" / "en" / "board.yaml"

TRADE = """\
scenario: a trade of two
edition: [en, fr]
position:
  round: 2
  titles: {trade: carthage, culture: egypt, military: rome}
  resources:
    carthage: {coin: 2, gold: 1}
    rome: {wine: 2}
    greece: {oil: 1, coin: 1}
  vars: {trade.tokens: ["2/1", "3/0"], trade.tokens_for: carthage}
  phase: trade
choices:
  - ["2/1", 2]
  - coin
  - gold
  - wine
  - wine
  - oil
  - coin
"""

BATTLE = """\
scenario: Rome attacks Cyrenaica
edition: en
position:
  round: 2
  titles: {military: rome}
  control: {CYRENAICA: egypt, ITALIA: rome}
  buildings: {CYRENAICA: [caravan:papyrus, market, city]}
  units:
    ITALIA: {rome: {legion: 2}}
    MARE IONIUM: {rome: {trireme: 1}}
    MARE AFRICUM: {rome: {trireme: 1}}
    CYRENAICA: {egypt: {legion: 1}}
  phase: military
forced:
  land die: [5, 5, 0]
"""


def outcomes(tmp_path: Path, text: str, name: str = "s.yaml") -> list[Outcome]:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return list(run(path))


def failures(tmp_path: Path, text: str) -> list[list[str]]:
    return [o.failures for o in outcomes(tmp_path, text)]


# -- 7. each edition starts from the file's position ---------------------------------------
def test_each_edition_gets_its_own_copy_of_the_position(tmp_path: Path) -> None:
    text = TRADE + "expect:\n  vars: {trade.tokens: [\"3/0\"]}\n" \
                   "  pending: {player: carthage, kind: trade.pick}\n"
    path = tmp_path / "s.yaml"
    path.write_text(text, encoding="utf-8")
    _, data = load(path)
    before = repr(data)
    assert [o.failures for o in run(path)] == [[], []]
    # the second edition was not handed the first one's spent token list
    from mnrules.tools.scenario import _run

    game = new_game(load_ruleset("en"), 5, seed=1)
    _run(game, load(path)[0], data, "en", [])
    assert repr(data) == before


# -- 8. expect_by_edition adds --------------------------------------------------------------
def test_expect_by_edition_adds_to_the_shared_events(tmp_path: Path) -> None:
    text = TRADE + """\
expect:
  events:
    - {kind: trade_token, token: "9/9"}          # wrong under every edition
expect_by_edition:
  fr:
    events: [{kind: offers_revealed, value: 2}]  # right
"""
    en, fr = failures(tmp_path, text)
    assert len(en) == 1 and en[0].startswith("events[1]: no event matching")
    assert len(fr) == 1 and fr[0].startswith("events[1]: no event matching")


def test_how_expectations_combine() -> None:
    data = {"expect": {"events": [{"kind": "a"}], "no_events": [{"kind": "x"}],
                       "resources": {"rome": {"coin": 1}, "egypt": {"grain": 1}},
                       "winners": ["rome"], "round": 3},
            "expect_by_edition": {"fr": {"events": [{"kind": "b"}],
                                         "resources": {"rome": {"coin": 2}},
                                         "winners": ["egypt"]}},
            "expect_by_players": {3: {"events": [{"kind": "c"}], "round": 4}}}
    fr3 = expectations(data, "fr", 3)
    assert fr3["events"] == [{"kind": "a"}, {"kind": "b"}, {"kind": "c"}]
    assert fr3["no_events"] == [{"kind": "x"}]
    assert fr3["resources"] == {"rome": {"coin": 2}, "egypt": {"grain": 1}}
    assert fr3["winners"] == ["egypt"] and fr3["round"] == 4
    assert expectations(data, "en", 5) == data["expect"]
    assert data["expect"]["events"] == [{"kind": "a"}]   # nothing shared was changed


# -- 9. events are records -----------------------------------------------------------------
def test_an_event_seen_never_changes_afterwards(tmp_path: Path) -> None:
    game = new_game(load_ruleset("en"), 5, seed=1)
    seen: list[Event] = []
    game.listeners.append(seen.append)
    live = {"winners": ["rome"], "nested": {"list": [1, 2]}}
    game.emit(Event("game_over", None, live))
    live["winners"].append("egypt")
    live["nested"]["list"].clear()          # type: ignore[attr-defined]
    assert seen[0].data == {"winners": ["rome"], "nested": {"list": [1, 2]}}


def test_the_offers_revealed_stay_as_revealed(tmp_path: Path) -> None:
    text = TRADE + """\
  - {until: build.action}
expect:
  events:
    - {kind: offers_revealed, offers: {carthage: {coin: 1, gold: 1}, rome: {wine: 2},
                                       greece: {oil: 1, coin: 1}}}
"""
    assert failures(tmp_path, text) == [[], []]


def test_no_copy_is_made_without_listeners() -> None:
    game = new_game(load_ruleset("en"), 5, seed=1)
    assert not game.listeners
    game.emit(Event("game_over", None, {"winners": []}))   # nothing to copy for


# -- 10. what a scenario can say ------------------------------------------------------------
def test_a_refused_choice_by_its_rule(tmp_path: Path) -> None:
    text = BATTLE + """\
choices:
  - rome
  - {refused: [move, ITALIA, GALLIA]}
  - {refused: [move, ITALIA, NUMIDIA], rule: no such rule}
  - {refused: [move, MARE IONIUM, MARE AFRICUM]}
"""
    [found] = failures(tmp_path, text)
    assert found[0].startswith("choice 3: [move, ITALIA, NUMIDIA] was refused, but not by "
                               "'no such rule'")
    assert found[1].startswith("choice 4: expected [move, MARE IONIUM, MARE AFRICUM] to be "
                               "refused at rome military.trireme, but the rules took it")
    assert "pending: rome military.trireme" in found[1]
    assert found[2].startswith("(the expectations were not checked")


def test_the_exact_options(tmp_path: Path) -> None:
    text = BATTLE + """\
choices:
  - rome
  - expect:
      pending:
        player: rome
        kind: military.trireme
        options: [[done], [move, MARE IONIUM, MARE AFRICUM], [move, MARE IONIUM, MARE NOSTRUM]]
"""
    [found] = failures(tmp_path, text)
    assert found[0].startswith("checkpoint 2: pending.options: expected exactly 3 option(s)")
    assert "missing [[move, MARE IONIUM, MARE NOSTRUM]]" in found[0]
    assert "not expected [[move, MARE IONIUM, MARE HADRIATICUM]" in found[0]
    assert found[1].startswith("checkpoint 2:   (pending: rome military.trireme")


def test_checkpoints_after_a_choice_at_an_event_and_at_a_phase_end(tmp_path: Path) -> None:
    text = BATTLE + """\
choices:
  - rome
  - {expect: {units: {ITALIA: {rome: {legion: 2}}}}}
  - {expect: {units: {CYRENAICA: {egypt: {}}}}, at: {event: {kind: battle}}}
  - {expect: {round: 2, units: {ITALIA: {rome: {}}}}, at: {phase_end: military}}
  - {expect: {round: 9}, at: {phase_end: claims}}   # the round's last phase
  - [done]
  - [move, ITALIA, CYRENAICA]
  - [move, ITALIA, CYRENAICA]
  - {until: trade.token, round: 3}
"""
    [found] = failures(tmp_path, text)
    # a phase ends as the next one starts: the round's last, once the round has moved on
    assert found == ["checkpoint 5 (at the end of the claims phase): round: expected 9, got 3"]


def test_a_checkpoint_that_never_comes_fails(tmp_path: Path) -> None:
    text = BATTLE + """\
choices:
  - rome
  - {expect: {round: 2}, at: {event: {kind: pillage}}}
"""
    [found] = failures(tmp_path, text)
    assert found[0].startswith("checkpoint 2: an event matching {kind: pillage} never came "
                               "(pending: rome military.trireme")


def test_until_the_end_and_after_it(tmp_path: Path) -> None:
    text = BATTLE.replace("phase: military", "phase: military\n  vars: {round_cap: 2}") + """\
choices:
  - {until: end}
expect:
  pending: null
  victory: round cap
  winners: []
"""
    assert failures(tmp_path, text) == [[]]
    late = text.replace("- {until: end}", "- {until: end}\n  - {until: build.action}")
    [found] = failures(tmp_path, late)
    assert found[0].startswith("choice 2 (until build.action): the game ended before a "
                               "build.action decision; the game is over")


def test_choices_by_edition_and_by_player_count(tmp_path: Path) -> None:
    text = """\
edition: [en, fr]
players: [4, 5]
position: {round: 2, phase: trade, titles: {trade: egypt},
           vars: {trade.tokens: ["3/0"], trade.tokens_for: egypt}}
choices:
  - by_edition:
      en: [["3/0", 3]]
      fr: [["3/0", 0]]
expect_by_edition:
  en: {events: [{kind: trade_token, value: 3}]}
  fr: {events: [{kind: trade_token, value: 0}]}
expect_by_players:
  4: {events: [{kind: trade_token, player: egypt}]}
"""
    runs = outcomes(tmp_path, text)
    assert [(o.edition, o.players, o.failures) for o in runs] == [
        ("en", "4 players", []), ("en", "5 players", []),
        ("fr", "4 players", []), ("fr", "5 players", [])]
    assert runs[0].label == "en, 4 players"


def test_several_seatings(tmp_path: Path) -> None:
    assert seatings({}) == [None]
    assert seatings({"players": 4}) == [4]
    assert seatings({"players": ["rome", "greece", "carthage"]}) == [["rome", "greece",
                                                                      "carthage"]]
    assert seatings({"players": [3, ["rome", "greece", "egypt", "carthage"]]}) == [
        3, ["rome", "greece", "egypt", "carthage"]]
    path = tmp_path / "s.yaml"
    path.write_text("players: [3, [rome, 4]]\n", encoding="utf-8")
    with pytest.raises(ScenarioError, match=r"players\[1\]\[1\]: expected a name, got 4"):
        load(path)


def test_face_up_tiles_and_a_conquest_in_a_position(tmp_path: Path) -> None:
    text = """\
edition: en
position:
  round: 3
  control: {CYRENAICA: egypt}
  units: {CYRENAICA: {rome: {legion: 1}}}
  conquest: {CYRENAICA: {player: rome, round: 2}}
  display: [circe, pharos]
  phase: build
expect:
  display: [circe, pharos]
  conquest: {CYRENAICA: {player: rome, round: 2}, AEGYPTUS: null}
  marker_occupied: {CYRENAICA: null}
"""
    assert failures(tmp_path, text) == [[]]
    wrong = text.replace("display: [circe, pharos]\nconquest", "display: [circe]\nconquest") \
        .replace("  display: [circe, pharos]\n  conquest: {CYRENAICA: {player: rome, round: 2}"
                 ", AEGYPTUS", "  display: [circe]\n  conquest: {CYRENAICA: {player: greece}"
                 ", AEGYPTUS")
    [found] = failures(tmp_path, wrong)
    assert found == ["display: expected ['circe'] face up, got ['circe', 'pharos']",
                     "conquest.CYRENAICA.player: expected greece, got rome"]


def test_counting_and_ordering_events(tmp_path: Path) -> None:
    text = BATTLE + """\
choices:
  - rome
  - [done]
  - [move, ITALIA, CYRENAICA]
  - [move, ITALIA, CYRENAICA]
expect:
  events:
    - {kind: move, data: {kind: legion, to: CYRENAICA}, count: 2}
    - {kind: battle, count: 1}
    - {kind: move, data: {kind: trireme}, count: 0}
  events_in_order:
    - {kind: move, player: rome}
    - {kind: battle, area: CYRENAICA}
"""
    assert failures(tmp_path, text) == [[]]
    wrong = text.replace("count: 2", "count: 3").replace(
        "    - {kind: move, player: rome}\n    - {kind: battle, area: CYRENAICA}",
        "    - {kind: battle, area: CYRENAICA}\n    - {kind: move, player: rome}")
    [found] = failures(tmp_path, wrong)
    assert found[0] == ("events[1]: expected 3 event(s) matching {kind: move, data: {kind: "
                        "legion, to: CYRENAICA}}, got 2")
    assert found[1].startswith("events_in_order[2]: {kind: move, player: rome} happened, but "
                               "not after events_in_order[1]")


def test_data_keys_named_kind_or_player() -> None:
    ev = Event("hired", "rome", {"kind": "legion", "player": "greece", "count": 2})
    assert _event_matches({"kind": "hired", "player": "rome",
                           "data": {"kind": "legion", "player": "greece", "count": 2}}, ev)
    assert not _event_matches({"kind": "hired", "data": {"player": "rome"}}, ev)
    assert not _event_matches({"kind": "legion"}, ev)


def test_two_slots_with_the_same_spec(tmp_path: Path) -> None:
    board = EN_BOARD.read_text(encoding="utf-8").replace(
        "slots: [caravan:papyrus, market, city, temple]",
        "slots: [caravan:papyrus, caravan:papyrus, market, city, temple]", 1)
    (tmp_path / "board.yaml").write_text(board, encoding="utf-8")
    (tmp_path / "twins.yaml").write_text("board: board.yaml\n", encoding="utf-8")
    text = """\
edition: en
variant: twins.yaml
position:
  round: 2
  control: {CYRENAICA: egypt}
  buildings: {CYRENAICA: [caravan:papyrus, caravan:papyrus]}
  units: {CYRENAICA: {rome: {legion: 2}}}
  occupied: {CYRENAICA: {1: rome}}
  phase: production
expect:
  occupied: {CYRENAICA: {caravan:papyrus: [null, rome], 0: null, 1: rome}}
  resources: {rome: {papyrus: 1}, egypt: {papyrus: 1}}
"""
    assert failures(tmp_path, text) == [[]]
    both = text.replace("{1: rome}", "{caravan:papyrus: [rome, rome]}").replace(
        "[null, rome], 0: null", "[rome, rome], 0: rome").replace(
        "{rome: {papyrus: 1}, egypt: {papyrus: 1}}", "{rome: {papyrus: 2}, egypt: {}}")
    assert failures(tmp_path, both) == [[]]
    vague = text.replace("caravan:papyrus: [null, rome], 0: null, 1: rome",
                         "caravan:papyrus: rome")
    [found] = failures(tmp_path, vague)
    assert found[0].startswith("occupied.CYRENAICA.caravan:papyrus: 2 built slots are "
                               "'caravan:papyrus': give a list")


# -- saying where a run stopped, and why ----------------------------------------------------
def test_an_illegal_choice_says_what_is_pending_and_its_options(tmp_path: Path) -> None:
    text = BATTLE + "choices:\n  - rome\n  - [move, ITALIA, GALLIA]\nexpect:\n  round: 9\n"
    [found] = failures(tmp_path, text)
    assert found[0].startswith("choice 2 ([move, ITALIA, GALLIA]) at rome military.trireme: "
                               "illegal choice")
    assert "; pending: rome military.trireme (round 2), options: [done], [move, MARE " \
           "IONIUM" in found[0]
    assert found[1:] == ["(the expectations were not checked: the choices stopped early)"]


def test_a_decision_that_never_comes_says_where_the_game_is(tmp_path: Path) -> None:
    text = BATTLE + "choices:\n  - {until: trade.token, round: 2}\n"
    [found] = failures(tmp_path, text)
    assert found[0].startswith("choice 1: round 2 went by without a trade.token decision in "
                               "round 2; pending: ")


@pytest.mark.parametrize(("line", "needle"), [
    ("choices: [yes]", "choices[0]: not a choice: "),
    ("choices: [[pick, no]]", "choices[0]: not a choice: "),
    ("expect: {pending: {player: on}}", "expect.pending.player: expected a name, got true"),
])
def test_a_yaml_yes_gets_a_hint_to_quote_it(tmp_path: Path, line: str, needle: str) -> None:
    path = tmp_path / "s.yaml"
    path.write_text(f"edition: en\n{line}\n", encoding="utf-8")
    with pytest.raises(ScenarioError) as err:
        load(path)
    word = line.split()[-1].strip("[]}")
    assert needle in str(err.value)
    assert f"YAML reads {word} as" in str(err.value) and f"quote it: '{word}'" in str(err.value)


def test_a_true_written_as_true_gets_no_hint(tmp_path: Path) -> None:
    path = tmp_path / "s.yaml"
    path.write_text("edition: en\nchoices: [true]\n", encoding="utf-8")
    with pytest.raises(ScenarioError) as err:
        load(path)
    assert "YAML reads" not in str(err.value)


def test_an_expected_yes_that_became_true_is_pointed_out(tmp_path: Path) -> None:
    text = TRADE + "expect:\n  vars: {trade.tokens_for: yes}\n"
    found = failures(tmp_path, text)
    assert "(YAML reads yes/no/on/off as true/false: quote the word)" in found[0][0]


def test_a_crash_is_the_runs_failure_not_a_traceback(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str]
                                                     ) -> None:
    import mnrules.tools.scenario as scenario

    def boom(*args: Any, **kwargs: Any) -> Any:
        raise ZeroDivisionError("the runner's own bug")

    monkeypatch.setattr(scenario, "check", boom)
    [found] = failures(tmp_path, BATTLE + "choices: [rome]\n")
    assert found[0].startswith("crash: ZeroDivisionError: the runner's own bug (")
    assert "pending: rome military.trireme" in found[0]
    assert main(["scenario", "run", str(tmp_path / "s.yaml")]) == 1
    out = capsys.readouterr()
    assert "FAIL" in out.out and "crash: ZeroDivisionError" in out.out
    assert "Traceback" not in out.out + out.err


def test_the_command_line_names_the_run(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "s.yaml"
    path.write_text("edition: en\nplayers: [3, 4]\nexpect: {round: 1}\n", encoding="utf-8")
    assert main(["scenario", "run", str(path)]) == 0
    out = capsys.readouterr().out
    assert "[en, 3 players]" in out and "[en, 4 players]" in out


def test_every_new_key_is_in_the_docs() -> None:
    from mare_nostrum.position import EXPECT_KEYS as GAME_EXPECT
    from mare_nostrum.position import POSITION_KEYS as GAME_POSITION
    from mnrules.tools.scenario import EXPECT_KEYS, KEYS, POSITION_KEYS, STEPS

    docs = (ROOT / "docs" / "scenarios.md").read_text(encoding="utf-8")
    for key in (*KEYS, *POSITION_KEYS, *EXPECT_KEYS, *GAME_POSITION, *GAME_EXPECT, *STEPS,
                "phase_end", "count", "options", "data:"):
        assert f"{key.rstrip(':')}:" in docs, key
