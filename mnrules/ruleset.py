"""A rule set: an edition pack's data (board, components, parameters, names) plus the
rule plugins it names, registered on one pluggy bus. Built once, shared by every game
played under it."""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pluggy

from . import hookspecs
from .board import Board, load_board
from .cards import CardData, load_cards
from .engine import Param, Step
from .errors import PackError
from .flow import Flow
from .language.compiler import CardEffects, compile_card
from .language.steps import CardSteps
from .language.syntax import Problem, ScriptError, parse_script
from .language.words import Sets, Vocabulary, Word
from .resources import data_dir
from .yamlsource import load_yaml, suggest

PACK_FORMAT = "mnrules-pack/1"
PACK_KEYS = {
    "format", "id", "name", "language", "engine", "extends", "board", "plugins", "phases",
    "components", "params", "names", "notes",
}


@dataclass
class Ruleset:
    pack: str
    data: dict[str, Any]
    board: Board
    pm: pluggy.PluginManager
    params: dict[str, Any]
    declared: dict[str, Param]
    steps: dict[str, Step]
    phases: list[str]
    components: dict[str, Any]
    names: dict[str, str] = field(default_factory=dict)
    cards: dict[str, CardData] = field(default_factory=dict)
    effects: dict[str, CardEffects] = field(default_factory=dict)

    @property
    def hook(self) -> Any:
        return self.pm.hook

    def name(self, key: str) -> str:
        """The pack's name for an id (a province, good, title, phase), or the id itself."""
        return self.names.get(key, key)


def pack_dir(pack: str | Path) -> Path:
    p = Path(pack)
    if p.suffix in (".yaml", ".yml") or p.is_dir():
        return p if p.is_dir() else p.parent
    found = data_dir("editions") / str(pack)
    if not found.is_dir():
        known = sorted(d.name for d in data_dir("editions").iterdir() if d.is_dir())
        hint = suggest(str(pack), known)
        raise PackError(f"unknown edition {pack!r}"
                        + (f"; did you mean {hint!r}?" if hint else "")
                        + f" (known: {', '.join(known)})")
    return found


def _merge(base: dict[str, Any], over: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for k, v in over.items():
        if isinstance(v, Mapping) and isinstance(out.get(k), Mapping):
            out[k] = _merge(dict(out[k]), v)
        else:
            out[k] = v
    return out


def read_pack(pack: str | Path, _seen: tuple[str, ...] = ()) -> tuple[dict[str, Any], Path]:
    """The pack's data with everything it extends merged in, and the folder of its board."""
    folder = pack_dir(pack)
    file = folder / "pack.yaml" if folder == Path(pack) or not str(pack).endswith(".yaml") \
        else Path(pack)
    if not file.exists():
        file = folder / "pack.yaml"
    src = load_yaml(file)
    data = src.data
    if not isinstance(data, dict):
        raise PackError(f"{file}: a pack must be a mapping of keys")
    for key in data:
        if key not in PACK_KEYS:
            hint = suggest(str(key), PACK_KEYS)
            line = src.position((key,))
            at = f":{line[0]}:{line[1]}" if line else ""
            raise PackError(f"{file}{at}: unknown pack key {key!r}"
                            + (f"; did you mean {hint!r}?" if hint else ""))
    if data.get("format", PACK_FORMAT) != PACK_FORMAT:
        raise PackError(f"{file}: format: expected {PACK_FORMAT!r}, got {data.get('format')!r}")
    board_dir = folder
    parent = data.get("extends")
    if parent:
        if str(parent) in _seen:
            raise PackError(f"{file}: extends: circular chain {' -> '.join((*_seen, parent))}")
        base, base_board_dir = read_pack(str(parent), (*_seen, str(parent)))
        if "board" not in data:
            board_dir = base_board_dir
        data = _merge(base, data)
    return data, board_dir


def _load_plugin(name: str) -> object:
    module = name if "." in name else f"mnrules.plugins.{name}"
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name != module:
            raise
        raise PackError(f"plugins: no rule plugin named {name!r}") from None


def load_ruleset(pack: str | Path = "en", overrides: Mapping[str, Any] | None = None,
                 card_dirs: list[Path] | None = None) -> Ruleset:
    """Assemble the rule set of an edition pack (by name or path), with parameter overrides."""
    data, board_dir = read_pack(pack)
    if overrides:
        data = _merge(data, overrides)
    components = data.get("components") or {}
    goods = list((components.get("goods") or {}).keys())
    board = load_board(board_dir / str(data.get("board", "board.yaml")), goods)

    pm = pluggy.PluginManager(hookspecs.PROJECT)
    pm.add_hookspecs(hookspecs)
    pm.register(Flow(), name="flow")
    pm.register(CardSteps(), name="card steps")
    for name in data.get("plugins") or []:
        pm.register(_load_plugin(str(name)), name=str(name))

    declared: dict[str, Param] = {}
    for params in pm.hook.mn_params():
        for p in params:
            if p.name in declared:
                raise PackError(f"parameter {p.name!r} is declared by two plugins")
            declared[p.name] = p
    values = {name: p.default for name, p in declared.items()}
    for name, value in (data.get("params") or {}).items():
        if name not in declared:
            hint = suggest(str(name), declared)
            raise PackError(f"params.{name}: no plugin declares this parameter"
                            + (f"; did you mean {hint!r}?" if hint else ""))
        p = declared[name]
        if p.choices and value not in p.choices:
            raise PackError(f"params.{name}: expected one of {list(p.choices)}, got {value!r}")
        if p.default is not None and not p.choices and type(value) is not type(p.default) \
                and not (isinstance(p.default, float) and isinstance(value, int)):
            raise PackError(f"params.{name}: expected a {type(p.default).__name__}, "
                            f"got {value!r}")
        values[name] = value

    steps: dict[str, Step] = {}
    for provided in pm.hook.mn_steps():
        for name, step in provided.items():
            if name in steps:
                raise PackError(f"step {name!r} is provided by two plugins")
            steps[name] = step
    phases = [str(p) for p in data.get("phases") or []]
    for ph in phases:
        if ph not in steps:
            hint = suggest(ph, steps)
            raise PackError(f"phases: no plugin provides the phase {ph!r}"
                            + (f"; did you mean {hint!r}?" if hint else ""))
    cards = load_cards(card_dirs)
    rules = Ruleset(pack=str(data.get("id", pack)), data=data, board=board, pm=pm,
                    params=values, declared=declared, steps=steps, phases=phases,
                    components=components, names=dict(data.get("names") or {}),
                    cards=cards)
    rules.effects = compile_cards(rules)
    for card_id, effects in rules.effects.items():
        pm.register(effects, name=f"card:{card_id}")
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
