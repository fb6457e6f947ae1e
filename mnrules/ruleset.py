"""A rule set: an edition pack's data (board, components, parameters, names) plus the
rule plugins it names, registered on one pluggy bus. Built once, shared by every game
played under it."""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import math
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pluggy import PluginValidationError

from . import hookspecs, packs
from .board import Board, BoardError, load_board
from .bus import Bus
from .card_files import CardData, load_cards, override
from .engine import Param, Step
from .errors import PackError
from .flow import CORE_STEPS, Flow
from .hookspecs import hookimpl
from .language.compiler import CardEffects, compile_card
from .language.steps import CardSteps
from .language.syntax import Problem, ScriptError, parse_script
from .language.words import Sets, Vocabulary, Word
from .packs import TYPE_WORDS, _merge
from .resources import data_dir
from .yamlsource import Problem as BoardProblem
from .yamlsource import suggest


@dataclass
class Ruleset:
    pack: str
    data: dict[str, Any]
    board: Board
    pm: Bus
    params: dict[str, Any]
    declared: dict[str, Param]
    steps: dict[str, Step]
    phases: list[str]
    components: dict[str, Any]
    names: dict[str, str] = field(default_factory=dict)
    cards: dict[str, CardData] = field(default_factory=dict)
    effects: dict[str, CardEffects] = field(default_factory=dict)
    chain: list[str] = field(default_factory=list)

    @property
    def hook(self) -> Any:
        return self.pm.hook

    @property
    def language(self) -> str:
        return str(self.data.get("language", "en"))

    def name(self, key: str) -> str:
        """The pack's name for an id (a province, good, title, phase), or the id itself."""
        return self.names.get(key, key)


def _load_plugin(name: str, where: str) -> object:
    """A rule plugin: a bundled one (``mnrules.plugins.<name>``) or a .py file (the pack
    reader has checked that it lies in its pack's folder). Nothing else is imported."""
    if name.endswith(".py"):
        return _load_plugin_file(Path(name), where)
    known = packs.bundled_plugins()
    if name not in known:
        hint = suggest(name, known)
        raise PackError(f"{where}: plugins: no rule plugin named {name!r}"
                        + (f"; did you mean {hint!r}?" if hint else "")
                        + f" (a plugin is one of {', '.join(known)}, or a .py file beside "
                        f"the pack)")
    return importlib.import_module(f"mnrules.plugins.{name}")


def _load_plugin_file(path: Path, where: str) -> object:
    """Execute a plugin file as a module of its own, registered in sys.modules under a
    name unique to its path (so that ``@dataclass`` and pickling find it)."""
    if not path.is_file():
        raise PackError(f"{where}: plugins: no plugin file {str(path)!r}")
    stem = "".join(c if c.isalnum() else "_" for c in path.stem)
    digest = hashlib.sha1(str(path.resolve()).encode()).hexdigest()[:12]
    module_name = f"mnrules_variant_{stem}_{digest}"
    spec = importlib.util.spec_from_file_location(module_name, path)
    if spec is None or spec.loader is None:
        raise PackError(f"{where}: plugins: cannot load {str(path)!r} as a plugin")
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    try:
        spec.loader.exec_module(module)
    except SyntaxError as exc:
        del sys.modules[module_name]
        at = f"{exc.filename or path}:{exc.lineno or 0}" + (f":{exc.offset}" if exc.offset
                                                            else "")
        raise PackError(f"{at}: plugin file: {exc.msg} (named in {where})") from None
    except Exception as exc:  # the plugin's own code failed as it was imported
        del sys.modules[module_name]
        raise PackError(f"{path}:{_failing_line(exc, path)}: plugin file: "
                        f"{type(exc).__name__}: {exc} (named in {where})") from None
    return module


def _failing_line(exc: BaseException, path: Path) -> int:
    """The line of ``path`` where an exception was raised (its deepest frame there)."""
    line = 0
    tb = exc.__traceback__
    while tb is not None:
        if Path(tb.tb_frame.f_code.co_filename) == path:
            line = tb.tb_lineno
        tb = tb.tb_next
    return line


def _answers(pm: Bus, hook: str) -> list[tuple[str, Any]]:
    """Each plugin's answer to an assembly hook (mn_params, mn_steps), with its name; a
    plugin whose hook fails is refused by name."""
    out = []
    for impl in reversed(getattr(pm.hook, hook).get_hookimpls()):
        name = pm.get_name(impl.plugin) or repr(impl.plugin)
        try:
            answer = impl.function()
        except Exception as exc:  # a variant's plugin is the user's own code
            raise PackError(f"plugin {name!r}: {hook} failed: {type(exc).__name__}: "
                            f"{exc}") from None
        if answer is not None:
            out.append((name, answer))
    return out


# --- parameter values --------------------------------------------------------------------
def _type_word(example: Any) -> str:
    if isinstance(example, bool):
        return "true or false"
    if isinstance(example, float):
        return "a number"
    return TYPE_WORDS.get(type(example), type(example).__name__)


def _example(items: list[Any]) -> Any:
    """One item standing for all of a default's items: a non-empty list or mapping if
    there is one (so an empty list in a default borrows its siblings' item type)."""
    for item in items:
        if isinstance(item, list | dict) and item:
            return item
    return items[0] if items else None


def _range_words(p: Param) -> str:
    if p.minimum is not None and p.maximum is not None:
        return f" from {p.minimum} to {p.maximum}"
    if p.minimum is not None:
        return f" of at least {p.minimum}"
    if p.maximum is not None:
        return f" of at most {p.maximum}"
    return ""


def param_problem(p: Param, value: Any, example: Any = None, path: tuple[str | int, ...] = (),
                  top: bool = True) -> tuple[tuple[str | int, ...], str] | None:
    """What is wrong with ``value`` as parameter ``p`` (the key path inside the value,
    and the problem), or None when the declaration accepts it."""
    if top:
        example = p.default
    got = f"got {value!r:.80}"
    if example is None:  # an item of an empty default: any plain value
        if not isinstance(value, str | int) or isinstance(value, bool):
            return path, f"expected a text or a whole number, {got}"
    elif isinstance(example, bool):
        if not isinstance(value, bool):
            return path, f"expected true or false, {got}"
    elif isinstance(example, int | float):
        whole = isinstance(example, int)
        if isinstance(value, bool) or not isinstance(value, int if whole else int | float) \
                or (isinstance(value, float) and not math.isfinite(value)):
            kind = "a whole number" if whole else "a number"
            return path, f"expected {kind}{_range_words(p)}, {got}"
        if (p.minimum is not None and value < p.minimum) or \
                (p.maximum is not None and value > p.maximum):
            kind = "a whole number" if whole else "a number"
            return path, f"expected {kind}{_range_words(p)}, {got}"
    elif isinstance(example, str):
        if not isinstance(value, str):
            return path, f"expected a text, {got}"
    elif isinstance(example, list):
        if not isinstance(value, list):
            return path, f"expected a list, {got}"
        if p.length is not None and not p.length[0] <= len(value) <= p.length[1]:
            low, high = p.length
            return path, f"expected a list of {low} to {high} items, got {len(value)}"
        item = _example(example)
        for i, v in enumerate(value):
            found = param_problem(p, v, item, (*path, i), False)
            if found:
                return found
        return None
    elif isinstance(example, dict):
        if not isinstance(value, dict):
            return path, f"expected a mapping, {got}"
        for key in example:
            if key not in value:
                return path, f"missing {key!r} (give every one of {', '.join(example)})"
        fallback = _example(list(example.values()))
        for key, v in value.items():
            if key not in example and not p.open_keys:
                hint = suggest(str(key), [str(k) for k in example])
                return (*path, key), ("unknown key" + (f"; did you mean {hint!r}?" if hint
                                                        else f" (expected {', '.join(example)})"))
            if not isinstance(key, str):
                return (*path, key), f"a key must be a name, got {key!r:.40}"
            item = example.get(key)
            if item is None or (isinstance(item, list | dict) and not item):
                item = fallback if item is None or fallback is not None else item
            found = param_problem(p, v, item, (*path, key), False)
            if found:
                return found
        return None
    else:
        return None
    if p.choices and value not in p.choices:
        return path, f"expected one of {list(p.choices)}, {got}"
    return None


def _doc(p: Param) -> str:
    """The first clause of a parameter's description, for messages."""
    text = p.doc.split(". ")[0].split(": ")[0]
    return text if len(text) <= 100 else text[:97] + "..."


def _declare(pm: Bus) -> dict[str, Param]:
    declared: dict[str, Param] = {}
    owner: dict[str, str] = {}
    for plugin, params in _answers(pm, "mn_params"):
        if not isinstance(params, list | tuple):
            raise PackError(f"plugin {plugin!r}: mn_params must return a list of Param, "
                            f"not {params!r:.80}")
        for p in params:
            if not isinstance(p, Param) or not isinstance(p.name, str):
                raise PackError(f"plugin {plugin!r}: mn_params: expected Param(...), "
                                f"got {p!r:.80}")
            if p.name in declared:
                raise PackError(f"parameter {p.name!r} is declared by two plugins "
                                f"({owner[p.name]!r} and {plugin!r})")
            bad = param_problem(p, p.default)
            if bad is not None:
                raise PackError(f"plugin {plugin!r}: parameter {p.name!r}: its default "
                                f"{p.default!r:.80} does not fit its own declaration: {bad[1]}")
            declared[p.name] = p
            owner[p.name] = plugin
    return declared


def _texts(value: Any, path: tuple[str | int, ...] = ()
           ) -> list[tuple[tuple[str | int, ...], str]]:
    if isinstance(value, str):
        return [(path, value)]
    if isinstance(value, list):
        return [t for i, v in enumerate(value) for t in _texts(v, (*path, i))]
    if isinstance(value, dict):
        return [t for k, v in value.items() for t in _texts(v, (*path, k))]
    return []


def resource_problem(p: Param, value: Any, goods: list[str]
                     ) -> tuple[tuple[str | int, ...], str] | None:
    """A text of a ``resources`` parameter that names no resource of the pack."""
    words = ["coin", "legendary", *goods, *(t for _, t in _texts(p.default))]
    for path, text in _texts(value):
        for part in text.split("|"):
            if part not in words:
                hint = suggest(part, words)
                return path, (f"{part!r} is no resource of this pack"
                              + (f"; did you mean {hint!r}?" if hint else
                                 " (coin, legendary or a good; a|b for a choice)"))
    return None


def _param_values(declared: dict[str, Param], given: Any, source: packs.Pack,
                  goods: list[str]) -> dict[str, Any]:
    values = {name: p.default for name, p in declared.items()}
    for name, value in (given or {}).items():
        where = source.where("params", str(name))
        if name not in declared:
            hint = suggest(str(name), declared)
            raise PackError(f"{where}: params.{name}: no plugin declares this parameter"
                            + (f"; did you mean {hint!r}?" if hint else ""))
        p = declared[name]
        found = param_problem(p, value)
        if found is None and p.resources:
            found = resource_problem(p, value, goods)
        if found is not None:
            sub, problem = found
            key = "params." + packs.key_path((name, *sub))
            raise PackError(f"{source.where('params', name, *map(str, sub))}: {key}: "
                            f"{problem} ({name}: {_doc(p)})")
        values[name] = value
    return values


# --- the board against the rest of the pack ------------------------------------------------
class BoardFit:
    """The checks of a board against the pack's cards and box, answering mn_check_board
    first (so ``mnrules map check FILE`` runs them too): they raise a BoardError with the
    board file's positions rather than return lines."""

    @hookimpl(tryfirst=True)
    def mn_check_board(self, rules: Ruleset) -> list[str]:
        problems = board_fit(rules)
        if problems:
            raise BoardError(problems)
        return []


def board_fit(rules: Ruleset) -> list[BoardProblem]:
    """What in the board does not fit the rule set: starting heroes that are not cards,
    starting pieces beyond the box."""
    board = rules.board
    out: list[BoardProblem] = []
    comp = rules.components
    pieces = comp.get("pieces") or {}
    buildings = comp.get("buildings") or {}
    for empire in board.empires.values():
        path: tuple[str | int, ...] = ("empires", empire.id)
        hero = empire.starting_hero
        if hero not in rules.cards:
            hint = suggest(hero, [c for c, card in rules.cards.items() if "hero" in card.kind])
            removed = " (the pack removes it)" if hero in rules.data.get("_removed_cards",
                                                                       ()) else ""
            out.append(board.problem((*path, "starting_hero"),
                                     f"no card {hero!r}{removed}"
                                     + (f"; did you mean {hint!r}?" if hint else "")))
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


def _check_board(rules: Ruleset, source: packs.Pack) -> None:
    """Every check ``mnrules map check`` makes, for the board a rule set plays on."""
    problems: list[BoardProblem] = []
    try:
        for found in rules.hook.mn_check_board(rules=rules):
            for line in found or []:
                key, _, rest = str(line).partition(": ")
                problems.append(rules.board.problem(tuple(key.split(".")), rest))
    except BoardError as exc:
        problems = list(exc.problems)
    if problems:
        raise PackError(f"{source.chain[0]}: the board does not fit this rule set (its "
                        f"box, cards and parameters):\n"
                        + "\n".join(f"  {p}" for p in problems))
    board = rules.board
    for i, battle in enumerate(rules.data.get("battles") or []):
        for key, known, what in (("attacker", board.empires, "empire"),
                                 ("defender", board.empires, "empire"),
                                 ("province", board.provinces, "province"),
                                 ("marker", board.empires, "empire")):
            if key in battle and battle[key] not in known:
                hint = suggest(str(battle[key]), known)
                raise PackError(f"{source.where('battles', str(i), key)}: battles[{i}]."
                                f"{key}: no {what} {battle[key]!r} on the board"
                                + (f"; did you mean {hint!r}?" if hint else ""))
        for who in battle.get("tiles") or {}:
            if who not in board.empires:
                raise PackError(f"{source.where('battles', str(i), 'tiles', str(who))}: "
                                f"battles[{i}].tiles.{who}: no empire {who!r} on the board")


def load_ruleset(pack: str | Path = "en", overrides: Mapping[str, Any] | None = None,
                 card_dirs: list[Path] | None = None, variant: str | Path | None = None
                 ) -> Ruleset:
    """Assemble the rule set of an edition pack (an id or a path), optionally with a
    variant file on top (which extends it unless it names its own base) and parameter
    overrides (``{"params": {...}}``)."""
    source = packs.read(variant, default_base=str(pack)) if variant is not None \
        else packs.read(pack)
    data = source.data
    if overrides:
        data = _merge(data, overrides)
    components = data.get("components") or {}
    packs.check_components(components,
                           lambda *key: source.where("components", *map(str, key)))
    goods = list(components["goods"])
    board = load_board(source.board_file, goods)

    pm = Bus(hookspecs.PROJECT)
    pm.add_hookspecs(hookspecs)
    pm.register(Flow(), name="flow")
    pm.register(CardSteps(), name="card steps")
    pm.register(BoardFit(), name="board fit")
    for name in data.get("plugins") or []:
        plugin = _load_plugin(str(name), source.where("plugins"))
        try:
            pm.register(plugin, name=str(name))
        except (ValueError, PluginValidationError) as exc:
            raise PackError(f"{source.where('plugins')}: plugins: cannot register "
                            f"{str(name)!r}: {exc}") from None

    declared = _declare(pm)
    values = _param_values(declared, data.get("params"), source, goods)

    steps: dict[str, Step] = {}
    for plugin_name, provided in _answers(pm, "mn_steps"):
        if not isinstance(provided, dict):
            raise PackError(f"plugin {plugin_name!r}: mn_steps must return a mapping of "
                            f"step names to steps, not {provided!r:.80}")
        for name, step in provided.items():
            if name in steps:
                raise PackError(f"step {name!r} is provided by two plugins")
            steps[name] = step
    phases = [str(p) for p in data.get("phases") or []]
    if not phases:
        raise PackError(f"{source.where('phases')}: phases: the pack names no phase, so a "
                        f"round would do nothing and a game never end; list the phases each "
                        f"round runs")
    for ph in phases:
        if ph in CORE_STEPS:
            raise PackError(f"{source.where('phases')}: phases: {ph!r} is the engine's own "
                            f"step (it runs the {'rounds' if ph == 'game' else 'phases'}), "
                            f"not a phase")
    for ph in phases:
        if ph not in steps:
            hint = suggest(ph, steps)
            raise PackError(f"{source.where('phases')}: phases: no plugin provides the phase {ph!r}"
                            + (f"; did you mean {hint!r}?" if hint else ""))
    cards = load_cards([*(card_dirs or [data_dir("cards")]), *source.card_dirs])
    heroes = {e.starting_hero: e.id for e in board.empires.values()}
    for cid in data.get("_removed_cards", []):
        if cid not in cards:
            hint = suggest(cid, cards)
            raise PackError(f"{source.where('cards')}: cards.remove: no card {cid!r}"
                            + (f"; did you mean {hint!r}?" if hint else ""))
        if cid in heroes:
            where = source.removed_at.get(cid, source.where("cards"))
            raise PackError(f"{where}: cards.remove: {cid!r} is the starting hero of "
                            f"{heroes[cid]} (the board gives it at setup); it cannot be "
                            f"removed")
        del cards[cid]
    for cid, (change, file, src) in source.card_overrides.items():
        if cid not in cards:
            hint = suggest(cid, cards)
            raise PackError(f"{packs._at(src, ('cards', 'override', cid))}: cards.override."
                            f"{cid}: no such card"
                            + (f"; did you mean {hint!r}?" if hint else ""))
        cards[cid] = override(cards[cid], change, file, src)
    rules = Ruleset(pack=str(data.get("id", pack)), data=data, board=board, pm=pm,
                    params=values, declared=declared, steps=steps, phases=phases,
                    components=components, names=dict(data.get("names") or {}),
                    cards=cards, chain=source.chain)
    _check_board(rules, source)
    rules.effects = compile_cards(rules)
    for card_id, effects in rules.effects.items():
        pm.register(effects, name=f"card:{card_id}")
    pm.check_contract()  # a misspelt route or an undeclared name fails now, not mid-game
    return rules


def vocabulary(rules: Ruleset) -> Vocabulary:
    """The words card scripts may use under this rule set."""
    comp = rules.components
    words = [w for found in rules.hook.mn_vocabulary() for w in found]
    goods = frozenset(str(g) for g in (comp.get("goods") or {}))
    sets = Sets(goods=goods, units=frozenset({"legion", "trireme", "fortress"}),
                cards=frozenset(rules.cards), tracks=frozenset({"trade", "culture",
                                                                "military"}),
                players=frozenset(rules.board.empires))
    words += [Word("resource", g, g, "a good") for g in sorted(goods)]
    return Vocabulary(words, sets)


def compile_cards(rules: Ruleset) -> dict[str, CardEffects]:
    """Parse and compile every card's script; all errors of all cards in one report."""
    vocab = vocabulary(rules)
    out: dict[str, CardEffects] = {}
    problems: list[Problem] = []
    for card in rules.cards.values():
        if not card.effects:
            continue
        lines = Path(card.file).read_text(encoding="utf-8").splitlines() \
            if Path(card.file).exists() else card.effects.splitlines()
        try:
            parsed = parse_script(card.effects, card.file, *card.effects_at)
            out[card.id] = compile_card(card, vocab, parsed, lines)
        except ScriptError as exc:
            problems.extend(exc.problems)
    if problems:
        raise ScriptError(problems)
    return out
