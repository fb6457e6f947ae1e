"""The log auditor (``mnrules audit``): each check is shown catching a log that breaks
its rule, and seeded bot games of both games audit clean.

A rule is broken in two ways: a rule plugin deliberately broken for the test (the
auditor never calls the plugins, so it sees what the broken rule did), or a real log's
facts tampered with as the auditor hears them (an event's numbers, the state after a
choice), which is what a log written by a wrong engine would show."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from mnrules.core.effects import Event
from mnrules.core.engine import Game
from mnrules.frontends.cli import main
from mnrules.tools import audit
from mnrules.tools.log import read_log


@cache
def _played(game: str, seed: int, folder: str) -> Path:
    path = Path(folder) / f"{game}-{seed}.jsonl"
    args = ["play", "--players", "4", "--bots", "heuristic", "--seed", str(seed),
            "--log", str(path)]
    if game == "antike2":
        args += ["--game", "antike2"]
    assert main(args) == 0
    return path


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str, int], Path]:
    folder = str(tmp_path_factory.mktemp("audit-logs"))
    return lambda game, seed: _played(game, seed, folder)


def tampered(monkeypatch: pytest.MonkeyPatch, on_event: Callable[[Game[Any], Event],
             Event | None] | None = None,
             after: Callable[[Game[Any], int], None] | None = None) -> None:
    """Every auditor made from now on hears the events as ``on_event`` rewrites them
    (a copy: the game itself goes on as logged) and sees the state after each choice as
    ``after`` leaves it."""
    made = audit.auditor

    def auditor(rules: Any, say: Any) -> Any:
        inner: Any = made(rules, say)
        real_event, real_after = inner.event, inner.after

        def event(game: Game[Any], e: Event) -> None:
            if on_event is not None:
                changed = on_event(game, Event(e.kind, e.player, copy.deepcopy(e.data)))
                if changed is not None:
                    e = changed
            real_event(game, e)

        def after_choice(game: Game[Any], line: int) -> None:
            if after is not None:
                after(game, line)
            real_after(game, line)

        inner.event, inner.after = event, after_choice
        return inner

    monkeypatch.setattr(audit, "auditor", auditor)


def kinds(path: Path) -> set[str]:
    return {f.kind for f in audit.audit_log(path).findings}


def texts(path: Path) -> list[str]:
    return [f.text for f in audit.audit_log(path).findings]


# -- clean games ----------------------------------------------------------------------


@pytest.mark.parametrize("game", ["mare_nostrum", "antike2"])
def test_seeded_bot_games_audit_clean(logs: Callable[[str, int], Path], game: str,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    """The CI sample: five seeded heuristic games of each game, four players, audit
    with no finding (``mnrules audit`` exits 0)."""
    paths = [logs(game, seed) for seed in range(1, 6)]
    capsys.readouterr()
    assert main(["audit", *map(str, paths)]) == 0
    out = capsys.readouterr().out
    assert out.count("0 findings") == 5, out


# -- Mare Nostrum -----------------------------------------------------------------------


def test_a_wrong_price_is_a_cost_finding(logs: Callable[[str, int], Path],
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """3.0: a legion costs one set of 3. A log in which a legion was bought for two
    coins breaks it."""
    def cheap(game: Game[Any], e: Event) -> Event | None:
        if e.kind == "built" and e.data["action"][0] == "legion" and "offer" not in e.data:
            e.data["paid"] = ["coin", "coin"]
        return e
    tampered(monkeypatch, cheap)
    found = texts(logs("mare_nostrum", 3))
    assert any("paying coin and coin, but it costs one set of 3" in t for t in found), found


def test_a_mixed_set_is_a_cost_finding(logs: Callable[[str, int], Path],
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """3.0: coins and goods do not mix in a set, and goods are all of different types
    (Hannibal's one type twice is his alone)."""
    def mixed(game: Game[Any], e: Event) -> Event | None:
        if e.kind == "built" and e.data["action"][0] == "marker":
            e.data["paid"] = ["oil", "oil", "oil"]
        return e
    tampered(monkeypatch, mixed)
    assert "cost" in kinds(logs("mare_nostrum", 3))


def test_a_tile_under_its_price_is_a_cost_finding(logs: Callable[[str, int], Path],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """3.1.3: the 2nd to 5th hero or wonder cost 7, 8, 9, 10."""
    def cheap(game: Game[Any], e: Event) -> Event | None:
        if e.kind == "built" and e.data["action"][0] == "tile":
            e.data["paid"] = ["coin"] * 6
        return e
    tampered(monkeypatch, cheap)
    found = texts(logs("mare_nostrum", 3))
    assert any("it costs one set of 7" in t for t in found), found
    assert any("it costs one set of 8" in t for t in found), found


def test_a_token_out_of_nowhere_is_a_box_finding(logs: Callable[[str, int], Path],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """Components: the box holds 44 coins. A coin that appears behind a screen (not
    from the supply) is one too many at the next phase boundary."""
    def forge(game: Game[Any], line: int) -> None:
        if game.state.round == 2 and not game.state.vars.get("forged"):
            game.state.vars["forged"] = True
            screens = game.state.screens
            screens["rome"]["coin"] = screens["rome"].get("coin", 0) + 1
    tampered(monkeypatch, after=forge)
    found = texts(logs("mare_nostrum", 3))
    assert any(t.startswith("The box holds 44 coin (Components)") and "hold 45" in t
               for t in found), found


def test_a_negative_count_is_a_finding(logs: Callable[[str, int], Path],
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """Nobody holds less than nothing."""
    def overdraw(game: Game[Any], line: int) -> None:
        if game.state.round == 2:
            game.state.screens["greece"]["wine"] = -1
    tampered(monkeypatch, after=overdraw)
    found = texts(logs("mare_nostrum", 3))
    assert "Greece holds -1 wine: nobody holds less than nothing (3.0)." in found


def test_a_legion_beyond_the_box_is_a_box_finding(logs: Callable[[str, int], Path],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Components: 8 legions an empire. A ninth on the board (the box not emptied for
    it) breaks the box."""
    def ninth(game: Game[Any], line: int) -> None:
        if game.state.round == 3 and not game.state.vars.get("ninth"):
            game.state.vars["ninth"] = True
            game.state.add_units("LATIUM", "rome", "legion", 1)
    tampered(monkeypatch, after=ninth)
    found = texts(logs("mare_nostrum", 3))
    assert any(t.startswith("Rome's box holds 8 of the unit legion") for t in found), found


BROKEN_INCOME = """
from mnrules.hooks.hookspecs import hookimpl


@hookimpl
def mn_income(game, player):
    # broken on purpose: a coin more for every empire from round 2 on
    return [("coin", 1)] if game.state.round > 1 else []
"""


def test_a_broken_income_rule_is_an_income_finding(tmp_path: Path) -> None:
    """1.1: a city gives a coin (two with a temple). A variant whose plugin gives every
    empire a coin more from round 2 on is caught: the auditor reckons the yield from
    the board. (A log holds the choices, not the state: it is audited under the rules
    that replay it, here the broken variant its header names.)"""
    (tmp_path / "extra_coin.py").write_text(BROKEN_INCOME, encoding="utf-8")
    variant = tmp_path / "variant.yaml"
    variant.write_text("extends: en\nplugins: {add: [./extra_coin.py]}\n", encoding="utf-8")
    path = tmp_path / "broken.jsonl"
    assert main(["play", "--players", "4", "--bots", "heuristic", "--seed", "3",
                 "--variant", str(variant), "--log", str(path)]) == 0
    found = texts(path)
    assert "Rome collects 2 coin, but his buildings yield 1 (1.1: a coin per city or " \
        "capital, two with his temple there; a good per caravan, two with his market " \
        "there)." in found, found


def test_circe_legion_yielding_two_goods_is_an_income_finding(
        logs: Callable[[str, int], Path], monkeypatch: pytest.MonkeyPatch) -> None:
    """10 (Circe): a legion on an empty caravan slot acts as one caravan: one good, two
    with a market, never two different goods (issue 36, item 5: one legion in Rome's
    own DALMATIA, its wood and gladiators slots empty, his market built, got 1 wood and
    1 gladiators). The auditor is told that Rome holds Circe with that one legion (two
    goods at most) and hears the collection the bug made."""
    from mare_nostrum.audit import Auditor

    monkeypatch.setattr(Auditor, "_circe_legions",
                        lambda self, game, p: (1, 2) if p == "rome" else (0, 0))
    powers = Auditor._powers
    monkeypatch.setattr(Auditor, "_powers", staticmethod(
        lambda game, p: [*powers(game, p), *(["circe"] if p == "rome" else [])]))

    def circe_bug(game: Game[Any], e: Event) -> Event | None:
        if e.kind == "collected" and e.player == "rome" and game.state.round == 3:
            got = e.data["resources"]
            got["wood"] = got.get("wood", 0) + 1
            got["gladiators"] = got.get("gladiators", 0) + 1
        return e
    tampered(monkeypatch, circe_bug)
    found = texts(logs("mare_nostrum", 3))
    assert "Rome collects 1 gladiators and 1 wood beyond his buildings, but Circe's 1 " \
        "legion(s) on empty caravan slots add at most 2, each as one caravan of its " \
        "slot's good (10)." in found, found


def test_circe_legion_yielding_two_of_one_good_is_clean(
        logs: Callable[[str, int], Path], monkeypatch: pytest.MonkeyPatch) -> None:
    """The same legion with the market: 2 wood, as the books have it (FR « en tant que
    telles », NL « op het goederensymbool »), is no finding."""
    from mare_nostrum.audit import Auditor

    monkeypatch.setattr(Auditor, "_circe_legions",
                        lambda self, game, p: (1, 2) if p == "rome" else (0, 0))
    powers = Auditor._powers
    monkeypatch.setattr(Auditor, "_powers", staticmethod(
        lambda game, p: [*powers(game, p), *(["circe"] if p == "rome" else [])]))

    def two_wood(game: Game[Any], e: Event) -> Event | None:
        if e.kind == "collected" and e.player == "rome" and game.state.round == 3:
            e.data["resources"]["wood"] = e.data["resources"].get("wood", 0) + 2
        return e
    tampered(monkeypatch, two_wood)
    assert "income" not in kinds(logs("mare_nostrum", 3))


def test_a_pick_not_offered_is_a_trade_finding(logs: Callable[[str, int], Path],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """2.2: each player takes from another player's revealed offer."""
    def from_self(game: Game[Any], e: Event) -> Event | None:
        if e.kind == "trade_pick":
            e.data["from"] = e.player
        return e
    tampered(monkeypatch, from_self)
    assert "trade" in kinds(logs("mare_nostrum", 3))


def test_dice_and_losses_are_checked(logs: Callable[[str, int], Path],
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """4.2: a die shows a blank or I-V; the dice's total over 5 is the hits (one less
    against a fortress); each hit destroys one unit, no more."""
    def loaded(game: Game[Any], e: Event) -> Event | None:
        if e.kind == "battle_roll":
            side = next(iter(e.data["rolls"]))
            e.data["rolls"][side] = [*e.data["rolls"][side], 7, 5, 5, 5]
            for p in e.data["hits"]:
                e.data["hits"][p] = 0
        return e
    tampered(monkeypatch, loaded)
    found = texts(logs("mare_nostrum", 3))
    assert any("shows 7, which is not a face of the die" in t for t in found), found
    assert any("but the log scores 0" in t for t in found), found
    assert any("but the other side scored 0 hit(s)" in t for t in found), found


@pytest.mark.parametrize(("victory", "words"), [
    ("fifth", "by Fame with"), ("prestige", "without the Pyramids"),
    ("leadership", "without all three titles"), ("conquest", "by Conquest")])
def test_a_winner_without_the_condition_is_a_victory_finding(
        logs: Callable[[str, int], Path], monkeypatch: pytest.MonkeyPatch, victory: str,
        words: str) -> None:
    """6.1-6.4: a winner declared for a condition he does not meet."""
    def wrong(game: Game[Any], e: Event) -> Event | None:
        if e.kind == "game_over":
            e.data["victory"] = victory
            e.data["winners"] = ["carthage"]
        return e
    tampered(monkeypatch, wrong)
    found = texts(logs("mare_nostrum", 3))
    assert any(words in t and t.startswith("Carthage is declared") for t in found), found


# -- Antike II ------------------------------------------------------------------------


def test_a_broken_rondel_price_is_a_rondel_finding(monkeypatch: pytest.MonkeyPatch,
                                                   tmp_path: Path) -> None:
    """Рондель: 1-3 spaces free, then one resource a space ("from Ferrum, Militia 1,
    Marmor 2"). A rondel plugin broken to let a fourth space go free is caught."""
    from antike2 import rondel

    real = rondel.cost

    def cheaper(game: Any, origin: str, to: str, nation: str | None = None) -> int:
        return max(0, real(game, origin, to, nation) - 1)
    monkeypatch.setattr(rondel, "cost", cheaper)
    path = tmp_path / "rondel.jsonl"
    assert main(["play", "--game", "antike2", "--players", "4", "--bots", "heuristic",
                 "--seed", "3", "--log", str(path)]) == 0
    found = texts(path)
    assert any("the book asks 1 for it (Рондель: 3 spaces free" in t and "the log 0" in t
               for t in found), found


def test_a_rondel_price_not_paid_is_a_rondel_finding(
        logs: Callable[[str, int], Path], monkeypatch: pytest.MonkeyPatch) -> None:
    def unpaid(game: Game[Any], e: Event) -> Event | None:
        return None if e.kind == "paid" else e
    swallow(monkeypatch, unpaid)
    found = texts(logs("antike2", 3))
    assert any("rondel move costs 1 (Рондель), but 0 was paid" in t for t in found), found


def swallow(monkeypatch: pytest.MonkeyPatch,
            keep: Callable[[Game[Any], Event], Event | None]) -> None:
    """Like :func:`tampered`, an event ``keep`` returns None for is not heard at all."""
    made = audit.auditor

    def auditor(rules: Any, say: Any) -> Any:
        inner: Any = made(rules, say)
        real_event = inner.event

        def event(game: Game[Any], e: Event) -> None:
            e = Event(e.kind, e.player, copy.deepcopy(e.data))
            if keep(game, e) is not None:
                real_event(game, e)
        inner.event = event
        return inner
    monkeypatch.setattr(audit, "auditor", auditor)


def test_a_production_off_the_book_is_a_production_finding(
        logs: Callable[[str, int], Path], monkeypatch: pytest.MonkeyPatch) -> None:
    """Производство: 1 a city of the resource, 3 with a temple, and a coin while the
    bank has one."""
    def more(game: Game[Any], e: Event) -> Event | None:
        if e.kind == "produce":
            e.data["amount"] += 1
            e.data["coin"] = False
        return e
    tampered(monkeypatch, more)
    found = texts(logs("antike2", 3))
    assert any("but the book gives" in t and "(Производство" in t for t in found), found
    assert any("produces without the coin, though the bank holds" in t for t in found)


def test_a_price_off_the_book_is_a_price_finding(logs: Callable[[str, int], Path],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """Храм: 5 marble, a coin for each one missing; Знания: the first or later price."""
    def cheap(game: Game[Any], e: Event) -> Event | None:
        if e.kind in ("temple", "learn", "found"):
            e.data["paid"] = {"coin": 1}
        return e
    tampered(monkeypatch, cheap)
    found = texts(logs("antike2", 3))
    assert any("pays 1 coin for the temple, but it costs 5 marble" in t for t in found), found
    assert any("for the city, but it costs" in t for t in found)
    assert any("for the Mercatura, but it costs 4 gold" in t for t in found)


def test_the_neutral_temples_count_among_the_twenty(
        logs: Callable[[str, int], Path], monkeypatch: pytest.MonkeyPatch) -> None:
    """«Если все 20 храмов на игровом поле, то больше их построить нельзя»: the neutral
    temples are among the box's 20 (issue 36, Antike II item 2)."""
    def crowded(game: Game[Any], line: int) -> None:
        s: Any = game.state
        if s.round == 10 and not s.vars.get("crowded"):
            s.vars["crowded"] = True
            s.neutral = [*s.neutral, *[f"X{i}" for i in range(21)]]
    tampered(monkeypatch, after=crowded)
    found = texts(logs("antike2", 3))
    assert any("temples stand," in t and "but the box holds 20" in t for t in found), found


@pytest.mark.parametrize(("victory", "words"), [
    ("personages", "nations play to 9"), ("temple", "by a destroyed temple"),
    ("pliny", "by Pliny the Elder")])
def test_an_antike_winner_without_the_condition(
        logs: Callable[[str, int], Path], monkeypatch: pytest.MonkeyPatch, victory: str,
        words: str) -> None:
    """Победа: the personage target for 4 nations is 9; one short, a temple destroyed
    for which no general was left; Pliny only where the pack lets him win."""
    def wrong(game: Game[Any], e: Event) -> Event | None:
        if e.kind == "game_over":
            loser = next(p for p in game.state.players if p not in e.data["winners"])
            e.data["victory"], e.data["winners"] = victory, [loser]
        return e
    tampered(monkeypatch, wrong)
    found = texts(logs("antike2", 3))
    assert any(words in t for t in found), found


# -- the command ----------------------------------------------------------------------


def test_a_divergent_log_is_a_finding(logs: Callable[[str, int], Path], tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    """A choice the rules do not allow is a finding (exit 1), not a traceback."""
    lines = logs("mare_nostrum", 3).read_text(encoding="utf-8").splitlines()
    rec = json.loads(lines[1])
    rec["choice"] = ["9/9", 9]
    lines[1] = json.dumps(rec)
    bad = tmp_path / "diverges.jsonl"
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(["audit", str(bad)]) == 1
    out = capsys.readouterr().out
    assert "The log leaves the rules: line 2" in out, out


def test_an_unreadable_log_is_exit_2(tmp_path: Path,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    broken = tmp_path / "broken.jsonl"
    broken.write_text("{not json\n", encoding="utf-8")
    missing = tmp_path / "missing.jsonl"
    assert main(["audit", str(broken), str(missing)]) == 2
    err = capsys.readouterr().err
    assert f"{broken}:1:" in err and f"{missing}: cannot read" in err
    assert "Traceback" not in err


def test_the_log_is_read_once_for_its_pack(logs: Callable[[str, int], Path]) -> None:
    header, records = read_log(logs("antike2", 3))
    assert header["pack"] == "antike2" and records


def test_findings_read_in_the_language_asked(logs: Callable[[str, int], Path],
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """A finding is a sentence of the pack's language, or of ``--lang``'s."""
    def cheap(game: Game[Any], e: Event) -> Event | None:
        if e.kind == "built" and e.data["action"][0] == "legion" and "offer" not in e.data:
            e.data["paid"] = ["coin", "coin"]
        return e
    tampered(monkeypatch, cheap)
    found = [f.text for f in audit.audit_log(logs("mare_nostrum", 3), lang="fr").findings]
    assert any("mais cela coûte un lot de 3 (3.1" in t for t in found), found
