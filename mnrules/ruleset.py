"""A rule set: an edition pack's data (board, components, parameters, names) plus the
game it plays (``game:``) and the rule plugins it names, registered on one pluggy bus.
Built once, shared by every game played under it."""

from __future__ import annotations

import importlib
import importlib.util
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import hookspecs, packs
from .bus import Bus
from .card_files import CardData, load_cards, override
from .engine import Param, Step
from .errors import PackError
from .flow import Flow
from .language.compiler import CardEffects, compile_card
from .language.steps import CardSteps
from .language.syntax import Problem, ScriptError, parse_script
from .language.words import Sets, Vocabulary, Word
from .packs import TYPE_WORDS, _merge
from .resources import data_dir
from .state import State
from .yamlsource import suggest


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
    names: dict[str, str] = field(default_factory=dict)
    cards: dict[str, CardData] = field(default_factory=dict)
    effects: dict[str, CardEffects] = field(default_factory=dict)
    chain: list[str] = field(default_factory=list)
    game: str = ""
    state_class: type[State] = State
    seating: dict[int, list[str]] = field(default_factory=dict)

    @property
    def hook(self) -> Any:
        return self.pm.hook

    @property
    def language(self) -> str:
        return str(self.data.get("language", "en"))

    def name(self, key: str) -> str:
        """The pack's name for an id (a province, good, title, phase), or the id itself."""
        return self.names.get(key, key)


def _load_game(name: str, where: str) -> object:
    """The game package a pack plays: a folder of plugins/ (``mare_nostrum``), or a .py
    file beside the pack for a game that ships as a pack and plugins only."""
    if not name:
        raise PackError(f"{where}: game: the pack names no game (game: NAME, a folder of plugins/)")
    if name.endswith(".py"):
        return _load_plugin(name, where, "")
    known = sorted(p.name for p in data_dir("plugins").iterdir()
                   if (p / "__init__.py").is_file())
    if name not in known:
        hint = suggest(name, known)
        raise PackError(f"{where}: game: no game named {name!r}"
                        + (f"; did you mean {hint!r}?" if hint else
                           f"; known: {', '.join(known)}"))
    return importlib.import_module(f"mnrules.plugins.{name}")


def _load_plugin(name: str, where: str, game: str) -> object:
    """A rule plugin: a module of the game's folder in plugins/, a dotted module path,
    or a .py file."""
    if name.endswith(".py"):
        path = Path(name)
        spec = importlib.util.spec_from_file_location(f"mnrules_variant_{path.stem}", path)
        if spec is None or spec.loader is None or not path.exists():
            raise PackError(f"{where}: plugins: no plugin file {name!r}")
        module = importlib.util.module_from_spec(spec)
        # registered before it runs, as an import would: @dataclass looks its module up
        sys.modules[spec.name] = module
        spec.loader.exec_module(module)
        return module
    module_name = name if "." in name else f"mnrules.plugins.{game}.{name}"
    try:
        return importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name != module_name:
            raise
        from .resources import data_dir
        known = sorted(p.stem for p in (data_dir("plugins") / game).glob("*.py")
                       if not p.stem.startswith("_"))
        hint = suggest(name, known)
        raise PackError(f"{where}: plugins: no rule plugin named {name!r}"
                        + (f"; did you mean {hint!r}?" if hint else "")) from None


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
    game = str(data.get("game") or "")

    pm = Bus(hookspecs.PROJECT)
    pm.add_hookspecs(hookspecs)
    pm.register(Flow(), name="flow")
    pm.register(CardSteps(), name="card steps")
    game_module = _load_game(game, source.where("game"))
    pm.register(game_module, name="game")
    game_name = "" if game.endswith(".py") else game
    for name in data.get("plugins") or []:
        pm.register(_load_plugin(str(name), source.where("plugins"), game_name),
                    name=str(name))
    board = pm.hook.mn_load_board(path=source.board_file, data=data) \
        if source.board_file.is_file() else None
    state_class = pm.hook.mn_state_class() or State

    declared: dict[str, Param] = {}
    for params in pm.hook.mn_params():
        for p in params:
            if p.name in declared:
                raise PackError(f"parameter {p.name!r} is declared by two plugins")
            declared[p.name] = p
    values = {name: p.default for name, p in declared.items()}
    for name, value in (data.get("params") or {}).items():
        where = source.where("params", str(name))
        if name not in declared:
            hint = suggest(str(name), declared)
            raise PackError(f"{where}: params.{name}: no plugin declares this parameter"
                            + (f"; did you mean {hint!r}?" if hint else ""))
        p = declared[name]
        if p.choices and value not in p.choices:
            raise PackError(f"{where}: params.{name}: expected one of {list(p.choices)}, "
                            f"got {value!r}")
        if p.default is not None and not p.choices and type(value) is not type(p.default) \
                and not (isinstance(p.default, float) and isinstance(value, int)):
            raise PackError(f"{where}: params.{name}: expected "
                            f"{TYPE_WORDS.get(type(p.default), type(p.default).__name__)}, "
                            f"got {value!r}")
        values[name] = value

    steps: dict[str, Step[Any]] = {}
    for provided in pm.hook.mn_steps():
        for name, step in provided.items():
            if name in steps:
                raise PackError(f"step {name!r} is provided by two plugins")
            steps[name] = step
    phases = [str(p) for p in data.get("phases") or []]
    for ph in phases:
        if ph not in steps:
            hint = suggest(ph, steps)
            raise PackError(f"{source.where('phases')}: phases: no plugin provides the phase {ph!r}"
                            + (f"; did you mean {hint!r}?" if hint else ""))
    schema = pm.hook.mn_card_schema() or {}
    bundled = data_dir("cards") / game_name if game_name else None
    default_dirs = [bundled] if bundled is not None and bundled.is_dir() else []
    cards = load_cards([*(card_dirs or default_dirs), *source.card_dirs], schema)
    for cid in data.get("_removed_cards", []):
        if cid not in cards:
            hint = suggest(cid, cards)
            raise PackError(f"{source.where('cards')}: cards.remove: no card {cid!r}"
                            + (f"; did you mean {hint!r}?" if hint else ""))
        del cards[cid]
    for cid, (change, file, src) in source.card_overrides.items():
        if cid not in cards:
            hint = suggest(cid, cards)
            raise PackError(f"{packs._at(src, ('cards', 'override', cid))}: cards.override."
                            f"{cid}: no such card"
                            + (f"; did you mean {hint!r}?" if hint else ""))
        cards[cid] = override(cards[cid], change, file, src, schema)
    rules = Ruleset(pack=str(data.get("id", pack)), data=data, board=board, pm=pm,
                    params=values, declared=declared, steps=steps, phases=phases,
                    components=components, names=dict(data.get("names") or {}),
                    cards=cards, chain=source.chain, game=game, state_class=state_class)
    rules.seating = pm.hook.mn_seating(rules=rules) or {}
    rules.effects = compile_cards(rules)
    for card_id, effects in rules.effects.items():
        pm.register(effects, name=f"card:{card_id}")
    return rules


def vocabulary(rules: Ruleset) -> Vocabulary:
    """The words card scripts may use under this rule set."""
    words = [w for found in rules.hook.mn_vocabulary() for w in found]
    named: dict[str, frozenset[str]] = {}
    for found_sets in rules.hook.mn_word_sets(rules=rules):
        named.update(found_sets)
    sets = Sets(goods=named.get("goods", frozenset()), units=named.get("units", frozenset()),
                cards=frozenset(rules.cards), tracks=named.get("tracks", frozenset()),
                players=named.get("players", frozenset()))
    words += [Word("resource", g, g, "a good") for g in sorted(sets.goods)]
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
