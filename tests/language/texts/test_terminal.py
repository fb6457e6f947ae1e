"""The terminal as a human meets it: a whole game as Rome typed key by key reads as
sentences (no dict, tuple or id), keys stay put when an option goes, long payment menus
are short, the discard is announced, and French packs speak French."""

from __future__ import annotations

import io
import random
import re
from typing import Any

from mnrules import load_ruleset, new_game
from mnrules.bots.random_bot import RandomBot
from mnrules.core.engine import Decision
from mnrules.frontends.terminal import Terminal
from test_present import LEAKS


def typist(out: io.StringIO, seed: int, script: list[str] | None = None) -> Any:
    """A human who types the given lines, then any key of the last menu printed (half the
    time its first: end the turn, pass, done)."""
    rng = random.Random(seed)
    lines = list(script or [])
    seen = {"at": 0, "keys": ["1"]}

    def read(prompt: str) -> str:
        if lines:
            return lines.pop(0)
        new = out.getvalue()[seen["at"]:]
        seen["at"] += len(new)
        menu = new.rsplit("\n== ", 1)[-1]
        keys = re.findall(r"(?:^|\s)(\d+)\. ", menu, re.M)
        if keys:
            seen["keys"] = keys
        keys = seen["keys"]
        return keys[0] if rng.random() < 0.5 else rng.choice(keys)
    return read


def play(pack: str, seed: int, rounds: int | None = None, lang: str | None = None,
         script: list[str] | None = None) -> str:
    rules = load_ruleset(pack)
    game = new_game(rules, players=5, seed=seed)
    out = io.StringIO()
    bots = {p: RandomBot(seed + i) for i, p in enumerate(game.state.players)}
    term = Terminal({"rome"}, bots, read=typist(out, seed, script), out=out, lang=lang,
                    colour=False)
    stop = game.state.round + rounds if rounds else None
    assert term.play(game, stop)
    return out.getvalue()


def test_a_whole_game_at_the_terminal_shows_no_dict_tuple_or_id() -> None:
    text = play("en", seed=5, script=["v", "s", "h", "l"])
    assert "Game over" in text
    bad = [line for line in text.splitlines() if LEAKS.search(line)]
    assert bad == []
    assert "Battle in" in text and "Dice:" in text         # others' battles, with dice
    assert "collects" in text and "takes" in text          # production and trade reports


def test_the_table_reads_titles_and_the_screen_as_labelled_sentences() -> None:
    text = play("fr", seed=2, rounds=1, lang="fr", script=["v"])
    titles = text.split("Titres\n", 1)[1].splitlines()[:3]
    assert titles[0].startswith("  Maître du Commerce : ")
    screen = text.split("Derrière votre paravent\n", 1)[1].splitlines()[0]
    assert " | " not in screen and " : " not in screen     # the sentence, not a column
    assert re.search(r"\d \w+", screen) or " et " in screen


def test_french_at_the_terminal() -> None:
    text = play("fr", seed=2, rounds=2)
    assert "Rome, achetez quelque chose" in text or "Rome, en tant que" in text \
        or "Rome, offrez" in text
    assert "— Commerce —" in text and "Grèce" in text
    for english in ("buy something", " moves a ", "collects", "Battle in"):
        assert english not in text


def test_english_pack_in_ukrainian() -> None:
    text = play("en", seed=2, rounds=1, lang="uk")
    assert "Рим" in text and "buy something" not in text


def test_the_screen_and_the_prompt_speak_the_language_asked() -> None:
    """`s` shows what is behind the screen in the language the human plays in (not the
    pack's), and the prompt names him as the pack does, never by id."""
    prompts: list[str] = []
    rules = load_ruleset("en")
    game = new_game(rules, players=5, seed=2)
    out = io.StringIO()
    bots = {p: RandomBot(2 + i) for i, p in enumerate(game.state.players)}
    read = typist(out, 2, ["s"])

    def reading(prompt: str) -> str:
        prompts.append(prompt)
        return str(read(prompt))

    term = Terminal({"rome"}, bots, read=reading, out=out, lang="uk", colour=False)
    assert term.play(game, game.state.round + 1)
    text = out.getvalue()
    assert "За вашою ширмою" in text and "Behind your screen" not in text
    assert prompts and all(p == "Рим> " for p in prompts)


def test_keys_do_not_shift_when_an_option_disappears() -> None:
    term = Terminal({"rome"}, {}, out=io.StringIO(), colour=False)
    first = Decision("rome", "build.action", "", (("end",), ("legion", "A"), ("legion", "B"),
                                                   ("marker", "C")))
    assert term._numbers(first) == [1, 2, 3, 4]
    second = Decision("rome", "build.action", "", (("end",), ("legion", "B"), ("marker", "C"),
                                                    ("tile", "x")))
    # legion A's key stays its own (a player typing 2 never gets something else): the
    # new option takes the next key
    assert term._numbers(second) == [1, 3, 4, 5]
    other = Decision("rome", "military.legion", "", (("done",), ("move", "A", "B")))
    assert term._numbers(other) == [1, 2]              # a new kind of question starts afresh


def test_a_typed_line_that_picks_nothing_is_told_why() -> None:
    """Rome's coin is gone from the trade menu: typing its key again says which keys are
    there now; words fitting two options name both keys; words fitting none say so."""
    from mnrules.frontends.terminal import key_spans, no_match
    from mnrules.language.present import presenter

    say = presenter(load_ruleset("en"))
    texts, keys = ["grain", "metal", "oil", "sheep", "wine"], [2, 3, 4, 5, 6]
    assert no_match(say, "1", texts, keys) == \
        "There is no option 1 now; the options are 2–6."
    assert no_match(say, "e", texts, keys) == "“e” fits options 3, 5, 6: type one of their keys."
    assert no_match(say, "gold", texts, keys) == "No option reads “gold” (h for help)."
    assert key_spans([1, 2, 3, 5, 7, 8]) == "1–3, 5, 7, 8"
    fr = presenter(load_ruleset("fr"))
    assert no_match(fr, "9", texts, keys) == \
        "Il n'y a pas de choix 9 maintenant ; les choix sont 2–6."


def test_a_long_payment_menu_is_short_and_not_reprinted() -> None:
    rules = load_ruleset("en")
    game = new_game(rules, players=5, seed=1)
    game.state.screens["rome"] = {"grain": 2, "wine": 2, "oil": 2, "metal": 2, "sheep": 2,
                                  "coin": 1}
    pay = Decision("rome", "build.pay", "", tuple(
        tuple(sorted(c)) for c in __import__("itertools").combinations(
            ["grain", "wine", "oil", "metal", "sheep"], 3)))
    out = io.StringIO()
    term = Terminal({"rome"}, {}, out=out, colour=False)
    term.watch(game)
    texts = [term._presenter(game).option(game, pay, o) for o in pay.options]
    keys = term._numbers(pay)
    term.menu(game, pay, texts, keys)
    shown = out.getvalue().strip().splitlines()
    assert len(pay.options) == 10 and len(shown) < 10
    assert "grain + metal + oil" in out.getvalue()
    term.menu(game, pay, texts, keys)
    assert "the same choices as above" in out.getvalue()


def test_ending_a_build_turn_warns_of_the_goods_given_back() -> None:
    rules = load_ruleset("en")
    game = new_game(rules, players=5, seed=1)
    game.state.screens["rome"] = {"grain": 1, "wine": 1, "oil": 1, "metal": 1, "coin": 5}
    from mnrules.language.present import presenter

    say = presenter(rules)
    dec = Decision("rome", "build.action", "", (("end",),))
    # he keeps 2 coins and no goods (3.0): 3 coins and 4 goods go back
    assert say.option(game, dec, ("end",)) == ("End your build turn (you will give back 7 "
                                               "goods to the supply!)")
    game.state.screens["rome"] = {"coin": 2}
    assert say.option(game, dec, ("end",)) == "End your build turn"
