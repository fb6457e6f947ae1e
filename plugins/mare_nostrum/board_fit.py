"""The board against the rest of a Mare Nostrum pack: starting heroes that are cards,
starting pieces within the box, standard battles on the board's places. Run when a rule
set is assembled and by ``mnrules map check``."""

from __future__ import annotations

from typing import Any

from mare_nostrum.board import BoardError
from mare_nostrum.box_data import creature_kinds
from mnrules.content.packs import TYPE_WORDS
from mnrules.content.yamlsource import Problem, did_you_mean
from mnrules.errors import PackError
from mnrules.hooks.hookspecs import hookimpl


class BoardFit:
    """The checks of a board against the pack's cards and box, answering mn_check_board
    first (so ``mnrules map check FILE`` runs them too): they raise a BoardError with the
    board file's positions rather than return lines."""

    @hookimpl(tryfirst=True)
    def mn_check_board(self, rules: Any) -> list[str]:
        problems = board_fit(rules)
        if problems:
            raise BoardError(problems)
        return []


def board_fit(rules: Any) -> list[Problem]:
    """What in the board does not fit the rule set: starting heroes that are not cards,
    starting pieces beyond the box."""
    board = rules.board
    out: list[Problem] = []
    comp = rules.components
    pieces = comp.get("pieces") or {}
    buildings = comp.get("buildings") or {}
    for empire in board.empires.values():
        path: tuple[str | int, ...] = ("empires", empire.id)
        hero = empire.starting_hero
        if hero not in rules.cards:
            removed = " (the pack removes it)" if hero in rules.data.get("_removed_cards",
                                                                       ()) else ""
            heroes = [c for c, card in rules.cards.items() if "hero" in card.kind]
            out.append(board.problem((*path, "starting_hero"),
                                     f"no card {hero!r}{removed}"
                                     + did_you_mean(hero, heroes)))
        used = {"legion": sum(empire.legions.values()), "trireme": sum(empire.triremes.values()),
                "fortress": len(empire.fortresses), "marker": len(empire.provinces)}
        for piece, n in used.items():
            have = pieces.get(piece, 0)
            if n > have:
                key = {"legion": "legions", "trireme": "triremes", "fortress": "fortresses",
                       "marker": "provinces"}[piece]
                out.append(board.problem((*path, key), f"{empire.id} starts with {n} "
                                         f"{piece}(s) but the box gives each empire {have}"))
    for n, playing in sorted(board.players.items()):
        built: dict[str, int] = {}
        for empire_id in playing:
            starts = board.empires.get(empire_id)
            for prov, idx in (starts.buildings.items() if starts else ()):
                for i in idx:
                    kind = board.provinces[prov].slots[i].kind
                    built[kind] = built.get(kind, 0) + 1
        for kind, k in sorted(built.items()):
            if k > buildings.get(kind, 0):
                out.append(board.problem(("players", n), f"with {n} players the empires "
                                         f"start with {k} {kind}(s), the box holds "
                                         f"{buildings.get(kind, 0)}"))
    return out


def check_pack(rules: Any, source: Any) -> None:
    """Every check ``mnrules map check`` makes, for the board a rule set plays on; the
    pack's standard battles name what is on the board; no starting hero is removed."""
    heroes = {e.starting_hero: e.id for e in rules.board.empires.values()}
    for cid in rules.data.get("_removed_cards", []):
        if cid in heroes:
            where = source.removed_at.get(cid, source.where("cards"))
            raise PackError(f"{where}: cards.remove: {cid!r} is the starting hero of "
                            f"{heroes[cid]} (the board gives it at setup); it cannot be "
                            f"removed")
    for i, battle in enumerate(rules.data.get("battles") or []):
        check_battle(source, i, battle)
    problems: list[Problem] = []
    try:
        for found in rules.hook.mn_check_board(rules=rules):
            for line in found or []:
                key, _, rest = str(line).partition(": ")
                problems.append(rules.board.problem(tuple(key.split(".")), rest))
    except BoardError as exc:
        problems = list(exc.problems)
    if problems:
        start = any("starting pieces" in str(p) or "rulebook says" in str(p)
                    for p in problems)
        hint = ("\n(a start that departs from the books on purpose is written as a "
                "`patch:` of the board in the variant, which keeps every other fact of "
                "the printed board and is exempt from the books' start figures: "
                "docs/board.md)") if start else ""
        raise PackError(f"{source.chain[0]}: the board does not fit this rule set (its "
                        f"box, cards and parameters):\n"
                        + "\n".join(f"  {p}" for p in problems) + hint)
    board = rules.board
    for kind, spec in creature_kinds(rules.components).items():
        enters = spec["enters"] if isinstance(spec["enters"], list) else []
        for i, area in enumerate(enters):
            if area not in board.provinces:
                sea = " (a sea: a creature stands on land)" if area in board.seas else ""
                raise PackError(f"{source.where('components', 'creatures', kind, 'enters')}"
                                f": components.creatures.{kind}.enters[{i}]: no province "
                                f"{area!r} on the board{sea}"
                                + did_you_mean(area, board.provinces))
    for i, battle in enumerate(rules.data.get("battles") or []):
        for key, known, what in (("attacker", board.empires, "empire"),
                                 ("defender", board.empires, "empire"),
                                 ("province", board.provinces, "province"),
                                 ("sea", board.seas, "sea"),
                                 ("marker", board.empires, "empire")):
            if key in battle and battle[key] not in known:
                raise PackError(f"{source.where('battles', str(i), key)}: battles[{i}]."
                                f"{key}: no {what} {battle[key]!r} on the board"
                                + did_you_mean(str(battle[key]), known))
        for who in battle.get("tiles") or {}:
            if who not in board.empires:
                raise PackError(f"{source.where('battles', str(i), 'tiles', str(who))}: "
                                f"battles[{i}].tiles.{who}: no empire {who!r} on the board")


BATTLE_KEYS = {"name": str, "attacker": str, "defender": str, "province": str,
               "marker": str, "attacker_legions": list, "defender_legions": list,
               "fortress": list, "tiles": dict, "sea": str, "attacker_triremes": list,
               "defender_triremes": list}
BATTLE_NUMBERS = {"attacker_legions": (1, 8), "defender_legions": (1, 8), "fortress": (0, 1),
                  "attacker_triremes": (1, 8), "defender_triremes": (1, 8)}
LAND_ONLY = ("province", "marker", "attacker_legions", "defender_legions", "fortress")
SEA_ONLY = ("sea", "attacker_triremes", "defender_triremes")


def check_battle(source: Any, i: int, battle: Any) -> None:
    """A comparison battle (``battles``): its keys, their types, small force sizes. A
    land battle names its ``province``, a sea battle its ``sea`` (and triremes, not
    legions, markers or a fortress)."""
    at = ("battles", i)
    if not isinstance(battle, dict):
        raise PackError(f"{source.where(*map(str, at))}: battles[{i}]: expected a mapping such as "
                        f"{{name: ..., attacker: rome, defender: egypt, province: ...}}, "
                        f"got {battle!r:.80}")
    sea = "sea" in battle
    for key in ("name", "attacker", "defender", "sea" if sea else "province"):
        if key not in battle:
            raise PackError(f"{source.where(*map(str, at))}: battles[{i}]: missing key {key!r}"
                            + ("" if sea or key != "province" else
                               " (or 'sea', for a sea battle)"))
    for key in (LAND_ONLY if sea else SEA_ONLY[1:]):
        if key in battle:
            raise PackError(f"{source.where(*map(str, (*at, key)))}: battles[{i}].{key}: "
                            f"not for a {'sea' if sea else 'land'} battle (a sea battle "
                            f"names its 'sea' and triremes, a land battle its 'province' "
                            f"and legions)")
    for key, value in battle.items():
        where = source.where(*map(str, (*at, key)))
        if key not in BATTLE_KEYS:
            raise PackError(f"{where}: battles[{i}].{key}: unknown key"
                            + did_you_mean(str(key), BATTLE_KEYS))
        want = BATTLE_KEYS[key]
        if not isinstance(value, want):
            raise PackError(f"{where}: battles[{i}].{key}: expected "
                            f"{TYPE_WORDS[want]}, got {value!r:.80}")
        if key in BATTLE_NUMBERS:
            low, high = BATTLE_NUMBERS[key]
            if not 1 <= len(value) <= 8 or not all(
                    type(n) is int and low <= n <= high for n in value):
                raise PackError(f"{where}: battles[{i}].{key}: expected a list of 1 to 8 "
                                f"whole numbers from {low} to {high}, got {value!r:.80}")
        if key == "tiles":
            for who, tiles in value.items():
                if not isinstance(tiles, list) or not all(isinstance(t, str) for t in tiles):
                    place = source.where(*map(str, (*at, key, who)))
                    raise PackError(f"{place}: battles[{i}].tiles."
                                    f"{who}: expected a list of card ids, got {tiles!r:.80}")
