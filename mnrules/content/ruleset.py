"""A rule set: an edition pack's data (board, components, parameters, names) plus the
game it plays (``game:``) and the rule plugins it names, registered on one pluggy bus.
Built once, shared by every game played under it."""

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

from ..core.definition import GameDefinition
from ..core.engine import Param, Step
from ..core.flow import CORE_STEPS, Flow
from ..core.state import State
from ..errors import PackError
from ..hooks import hookspecs, legacy_game
from ..hooks.bus import Bus
from ..language.compiler import CardEffects, compile_card
from ..language.memory import CardMemory
from ..language.plugin_files import check_hook_names
from ..language.steps import CardSteps
from ..language.syntax import Problem, ScriptError, parse_script
from ..language.words import Sets, Vocabulary, Word
from . import packs
from .card_files import CardData, load_cards, override, use_variant
from .packs import _merge
from .yamlsource import did_you_mean, suggest


@dataclass
class Ruleset:
    pack: str
    data: dict[str, Any]
    board: Any          # the game's map, as its ``mn_load_board`` read it (None: no map)
    pm: Bus
    params: dict[str, Any]
    declared: dict[str, Param]
    steps: dict[str, Step[Any]]
    phases: list[str]
    components: dict[str, Any]
    names: dict[str, str] = field(default_factory=dict)   # one name per id (see name())
    cards: dict[str, CardData] = field(default_factory=dict)
    effects: dict[str, CardEffects] = field(default_factory=dict)
    chain: list[str] = field(default_factory=list)
    game: str = ""
    definition: GameDefinition = field(default_factory=lambda: GameDefinition(name="?"))
    seating: dict[int, list[str]] = field(default_factory=dict)
    # decision kind -> an option's first item (or None) -> the typed form steps receive
    choice_types: dict[str, dict[str | None, Any]] = field(default_factory=dict)
    names_by_kind: dict[str, dict[str, str]] = field(default_factory=dict)
    source: packs.Pack | None = field(default=None, repr=False)  # the pack files, as read

    @property
    def hook(self) -> Any:
        return self.pm.hook

    @property
    def state_class(self) -> type[State]:
        """The game's state (its definition's)."""
        return self.definition.state

    @property
    def language(self) -> str:
        return str(self.data.get("language", "en"))

    def name(self, key: str, kind: str | None = None) -> str:
        """The pack's name for an id of a kind (``name("trade", "phases")``; the kinds are
        those the pack's ``names`` group: phases, tracks, goods...), or the id itself.
        Without a kind, the id's first name (see :func:`packs.flat_names`)."""
        if kind is not None:
            found = self.names_by_kind.get(kind, {}).get(key)
            if found is not None:
                return found
            return self.names_by_kind.get("", {}).get(key, key)
        return self.names.get(key, key)


def game_module(name: str, where: str) -> object:
    """The game a pack plays: an installed game (the package a distribution declares in
    the entry-point group ``mnrules.games``, see :mod:`mnrules.content.games`; its hooks
    say what the game is made of), or a .py file beside the pack for a game that ships as a pack."""
    if not name:
        raise PackError(f"{where}: game: the pack names no game (game: NAME, an installed "
                        f"game, or a .py file beside the pack)")
    if name.endswith(".py"):
        return _load_plugin_file(Path(name), where)
    from . import games

    return games.package(name, where)


def board_loader(module: object) -> Any:
    """The board reader of a game's package (its ``GAME.load_board``, or the
    ``mn_load_board`` of a game written as 0.2's hooks), for a board file checked with
    no pack; None when the game reads none."""
    found = getattr(module, "GAME", None)
    if isinstance(found, GameDefinition):
        return found.load_board
    return getattr(module, "mn_load_board", None)


def _load_plugin(name: str, where: str, game: str) -> object:
    """A rule plugin: a module of the game's package (``<package>.<name>``) or a .py file
    (the pack reader has checked that it lies in its pack's folder). Nothing else is
    imported."""
    if name.endswith(".py"):
        return _load_plugin_file(Path(name), where)
    from . import games

    known = packs.bundled_plugins(game) if game else []
    if name not in known:
        raise PackError(f"{where}: plugins: no rule plugin named {name!r}"
                        + did_you_mean(name, known)
                        + f" (a plugin is one of {', '.join(known)}, or a .py file beside "
                        f"the pack)")
    return games.module(game, name)


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


def value_words(p: Param, example: Any = None, top: bool = True) -> str:
    """What values parameter ``p`` accepts, in words (``mnrules editions show``)."""
    if top:
        example = p.default
    if p.choices and not isinstance(example, list | dict):
        return "one of " + ", ".join(repr(c) for c in p.choices)
    if isinstance(example, bool):
        return "true or false"
    if isinstance(example, int | float):
        return ("a whole number" if isinstance(example, int) else "a number") + \
            _range_words(p)
    if isinstance(example, str):
        return "a resource of the pack (one of its goods or a word of the default; a|b " \
            "for a choice)" if p.resources else "a text"
    if isinstance(example, list):
        size = f" of {p.length[0]} to {p.length[1]} items" if p.length else ""
        return f"a list{size}, each " + value_words(p, _example(example), False)
    if isinstance(example, dict):
        keys = ", ".join(str(k) for k in example)
        keys = f"at least {keys} (more may be added)" if p.open_keys else keys
        return f"a mapping of {keys}, each to " + value_words(
            p, _example(list(example.values())), False)
    return "a text or a whole number"


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
    # the pack's goods, and whatever the parameter's default names (coin, ...)
    words = [*goods, *(part for _, t in _texts(p.default) for part in t.split("|"))]
    for path, text in _texts(value):
        for part in text.split("|"):
            if part not in words:
                known = f" ({', '.join(dict.fromkeys(words))}; a|b for a choice)"
                return path, (f"{part!r} is no resource of this pack"
                              + did_you_mean(part, words, known))
    return None


def _param_values(declared: dict[str, Param], given: Any, source: packs.Pack,
                  goods: list[str]) -> dict[str, Any]:
    values = {name: p.default for name, p in declared.items()}
    for name, value in (given or {}).items():
        where = source.where("params", str(name))
        if name not in declared:
            raise PackError(f"{where}: params.{name}: no plugin declares this parameter"
                            + did_you_mean(str(name), declared))
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


def load_ruleset(pack: str | Path | None = None, overrides: Mapping[str, Any] | None = None,
                 card_dirs: list[Path] | None = None, variant: str | Path | None = None
                 ) -> Ruleset:
    """Assemble the rule set of an edition pack (an id or a path), optionally with a
    variant file on top (which extends it unless it names its own base) and parameter
    overrides (``{"params": {...}}``). Without a pack: the one installed game's base
    pack (:func:`mnrules.content.packs.default_pack`)."""
    if pack is None:
        pack = packs.default_pack()
    source = packs.read(variant, default_base=str(pack)) if variant is not None \
        else packs.read(pack)
    data = source.data
    if overrides:
        data = _merge(data, overrides)
    components = data.get("components") or {}
    game = str(data.get("game") or "")

    pm = Bus(hookspecs.PROJECT)
    pm.add_hookspecs(hookspecs)
    pm.register(Flow(), name="flow")
    pm.register(CardSteps(), name="card steps")
    pm.register(CardMemory(), name="card memory")
    module = game_module(game, source.where("game"))
    game_name = "" if game.endswith(".py") else game
    definition = game_definition(module, game, source.where("game"), pm)
    for i, extra in enumerate(definition.plugins):
        pm.register(extra, name=f"game part {i}")
    patched = packs.patched_sources(source)  # the board as the pack's patches change it
    board = definition.load_board(
        path=source.board_file, where=source.where,
        data={**data, packs.PATCHED: patched} if patched else data) \
        if definition.load_board is not None and source.board_file.is_file() else None
    goods = [str(g) for g in (components.get("goods") or {})]
    for name in data.get("plugins") or []:
        plugin = _load_plugin(str(name), source.where("plugins"), game_name)
        try:
            pm.register(plugin, name=str(name))
        except (ValueError, PluginValidationError) as exc:
            raise PackError(f"{source.where('plugins')}: plugins: cannot register "
                            f"{str(name)!r}: {exc}") from None
        check_hook_names(pm, plugin, str(name), source.where("plugins"))

    declared = _declare(pm)
    values = _param_values(declared, data.get("params"), source, goods)

    steps: dict[str, Step[Any]] = {}
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
            raise PackError(f"{source.where('phases')}: phases: no plugin provides the phase {ph!r}"
                            + did_you_mean(ph, steps))
    schema = dict(definition.card_schema)
    from . import games

    bundled = games.cards_dir(game_name) if game_name else None
    default_dirs = [bundled] if bundled is not None else []
    cards = load_cards([*(card_dirs or default_dirs), *source.card_dirs], schema)
    for cid in data.get("_removed_cards", []):
        if cid not in cards:
            raise PackError(f"{source.where('cards')}: cards.remove: no card {cid!r}"
                            + did_you_mean(cid, cards))
        del cards[cid]
    for cid, (variant, where) in source.card_variants.items():
        if cid not in cards:
            raise PackError(f"{where}: cards.variant.{cid}: no such card"
                            + did_you_mean(cid, cards))
        cards[cid] = use_variant(cards[cid], variant, where)
    for cid, (change, file, src) in source.card_overrides.items():
        if cid not in cards:
            raise PackError(f"{src.at(('cards', 'override', cid))}: cards.override."
                            f"{cid}: no such card"
                            + did_you_mean(cid, cards))
        cards[cid] = override(cards[cid], change, file, src, schema)
    rules = Ruleset(pack=str(data.get("id", pack)), data=data, board=board, pm=pm,
                    params=values, declared=declared, steps=steps, phases=phases,
                    components=components, names=packs.flat_names(data.get("names") or {}),
                    names_by_kind=packs.name_kinds(data.get("names") or {}), source=source,
                    cards=cards, chain=source.chain, game=game, definition=definition)
    rules.seating = definition.seats(rules)
    pm.hook.mn_check_pack(rules=rules, source=source)
    rules.effects = compile_cards(rules)
    for card_id, effects in rules.effects.items():
        pm.register(effects, name=f"card:{card_id}")
    _check_pending(pm, source.where("game"))
    # a misspelt route or an undeclared name fails now, not mid-game
    rules.choice_types = pm.check_contract().typed_choices()
    return rules


def game_definition(module: object, game: str, where: str, pm: Bus | None = None
                    ) -> GameDefinition:
    """Register the game's package on ``pm`` (as the plugin ``game``, for the rules hooks
    it answers; a bus of its own when none is given) and read its ``GAME``; a game
    written as the hooks of mnrules 0.2 is read from them, with a DeprecationWarning."""
    if pm is None:
        pm = Bus(hookspecs.PROJECT)
        pm.add_hookspecs(hookspecs)
    legacy = legacy_game.is_legacy(module)
    found = getattr(module, "GAME", None)
    if found is not None and not isinstance(found, GameDefinition):
        raise PackError(f"{where}: game: {game!r}: its GAME must be a "
                        f"mnrules.api.GameDefinition, not {type(found).__name__}")
    if found is None and not legacy:
        raise PackError(f"{where}: game: {game!r} defines no GAME: write GAME = "
                        f"mnrules.api.GameDefinition(name=..., state=..., seating=...) in "
                        f"it (docs/writing-a-game.md)")
    if found is not None and legacy:
        hooks = sorted(h for h in legacy_game.HOOKS if callable(getattr(module, h, None)))
        raise PackError(f"{where}: game: {game!r} has a GAME and also answers the game "
                        f"hooks of mnrules 0.2 ({', '.join(hooks)}), which its GAME "
                        f"replaces: move them into the GameDefinition")
    specs: Any = found.hookspecs if found is not None else getattr(module, "HOOKSPECS", None)
    if specs is not None:                # the hooks the game's plugins call on each other
        pm.add_hookspecs(specs)
    if legacy:
        pm.add_hookspecs(legacy_game)
    pm.register(module, name="game")
    # the game's own hooks are held to the plugins' rule: a misspelt one is refused
    check_hook_names(pm, module, game, where, key="game")
    if found is None:
        name = Path(game).stem if game.endswith(".py") else game
        return legacy_game.definition_from_hooks(pm, name, where)
    return found


def _check_pending(pm: Bus, where: str) -> None:
    """Refuse a hook implementation no spec declares (a misspelt ``mn_reports`` for
    ``mn_report`` in a game package would otherwise never be called): pluggy's
    ``check_pending``, told as a pack error naming the plugin and the nearest hook."""
    try:
        pm.check_pending()
    except PluginValidationError as exc:
        hooks = sorted(h for h, caller in vars(pm.hook).items()
                       if getattr(caller, "spec", None) is not None)
        name = next((h for h, caller in vars(pm.hook).items()
                     if getattr(caller, "spec", None) is None
                     and caller.get_hookimpls()), "")
        plugin = getattr(exc, "plugin", None)
        owner = pm.get_name(plugin) if plugin is not None else None
        raise PackError(f"{where}: plugin {owner or '?'!r}: {name or exc} is no hook"
                        + did_you_mean(name, hooks, "; the hooks are listed in "
                                       "mnrules/hooks/hookspecs.py")) from None


def vocabulary(rules: Ruleset) -> Vocabulary:
    """The words card scripts may use under this rule set: the quantity and event words
    of the rules' contract (each declared quantity's and performed event's ``word``, with
    the ``Terms`` the plugins give it) and the plugins' other words (``mn_vocabulary``);
    a plugin's word that does not fit the contract is refused (ContractError)."""
    from ..hooks.contract import KERNEL, Contract, card_words, unnamed

    contract = rules.pm.contract or Contract(KERNEL)
    answers = [(impl.plugin_name, impl.function() or [])
               for impl in reversed(rules.hook.mn_vocabulary.get_hookimpls())]
    words = card_words(contract, answers)
    named: dict[str, frozenset[str]] = {}
    for found_sets in rules.hook.mn_word_sets(rules=rules):
        named.update(found_sets)
    sets = Sets(goods=named.get("goods", frozenset()), units=named.get("units", frozenset()),
                cards=frozenset(rules.cards), tracks=named.get("tracks", frozenset()),
                players=named.get("players", frozenset()), named=named)
    words += [Word("resource", g, g, "a good") for g in sorted(sets.goods)]
    return Vocabulary(words, sets, unnamed(contract))


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
