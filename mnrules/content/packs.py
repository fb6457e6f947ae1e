"""Reading edition packs and variants: files that extend one another and list only what
differs. Every key is checked against the pack schema, and every problem names the
file, the line, the key path and what was expected (with the nearest valid key).

A pack (``editions/<id>/pack.yaml``) or a variant (any YAML file) may hold:

``format``, ``id``, ``name``, ``language``, ``engine`` (the engine versions it was written
for, e.g. ``">=0.1"``), ``extends`` (a pack id or a path), ``board`` (a file beside it),
``plugins`` (a list, or ``{add, remove, replace}`` against what it extends), ``phases``,
``components``, ``params``, ``cards`` (``{add, remove, override, variant}``: ``variant``
selects one of a card's named variants, declared in its file), ``names`` (the pack's words
for ids, grouped by kind: ``{phases: {trade: ...}, tracks: {trade: ...}}``; an entry
``id: text`` outside a kind names the id whatever its kind), ``patch`` (changes to a data
file by key path, ``{board: {start_titles.culture.3: rome}}``, applied before the game
reads it), ``readings`` (for each ambiguous rule, the reading chosen and why), ``notes``.
"""

from __future__ import annotations

import copy
import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import PackError
from .yamlsource import KeyPath, Problem, Sourced, did_you_mean, listed, load_yaml

PACK_FORMAT = "mnrules-pack/1"
MAX_EXTENDS = 32
"""Longest chain of packs and variants extending one another."""
SCHEMA: dict[str, type | tuple[type, ...]] = {
    "format": str, "id": str, "name": str, "language": str, "engine": str, "api": str,
    "extends": str,
    "game": str, "board": str, "plugins": (list, dict), "phases": list, "components": dict,
    "params": dict, "cards": dict, "names": dict, "readings": dict, "notes": (str, list),
    "battles": list, "patch": dict,
}
CARD_SECTION = {"add": list, "remove": list, "override": dict, "variant": dict}
PATCH_TARGETS = ("board",)
"""The data files a pack may patch by key path (``patch: {board: ...}``)."""
PATCH_VERBS = {"set": "to", "add": "to", "remove": "from", "delete": None}
"""A patch step's verb and the key that goes with it: ``{set: PATH, to: VALUE}``,
``{add: VALUE, to: PATH}`` (a list's new last item), ``{remove: VALUE, from: PATH}`` (a
list's item, or a mapping's key) and ``{delete: PATH}``."""
PATCHED = "_patched"
"""The key of the data handed to the game's ``mn_load_board`` under which the kernel puts
each data file the pack patches, read and patched (``{"board": PatchedSource}``)."""
PLUGIN_SECTION = {"add": list, "remove": list, "replace": dict}
TYPE_WORDS = {str: "a text", list: "a list", dict: "a mapping", int: "a whole number"}


@dataclass
class Pack:
    """A pack with everything it extends merged in."""

    data: dict[str, Any]
    chain: list[str]                      # files, most derived first
    board_file: Path
    origins: dict[tuple[str, ...], str] = field(default_factory=dict)
    card_dirs: list[Path] = field(default_factory=list)
    card_overrides: dict[str, tuple[dict[str, Any], str, Sourced]] = field(default_factory=dict)
    removed_at: dict[str, str] = field(default_factory=dict)  # card id -> file:line:col
    card_variants: dict[str, tuple[str, str]] = field(default_factory=dict)  # id -> name, at
    patches: dict[str, list[PatchStep]] = field(default_factory=dict)  # target -> steps

    def where(self, *path: str) -> str:
        """file:line:col where the value at ``path`` was set (or the nearest parent)."""
        for n in range(len(path), 0, -1):
            if path[:n] in self.origins:
                return self.origins[path[:n]]
        return self.chain[0]


def pack_file(pack: str | Path) -> Path:
    """The pack file named by an edition id, a folder or a file path."""
    p = Path(pack)
    if p.suffix in (".yaml", ".yml"):
        if not p.exists():
            raise PackError(f"{p}: no such file")
        return p
    if p.is_dir() and (p / "pack.yaml").exists():
        return p / "pack.yaml"
    known = list_packs()
    if str(pack) in known:
        return pack_folders()[known[str(pack)]] / "pack.yaml"
    # A file the user named is read as a pack whatever its suffix (its content is then
    # judged), rather than mistaken for an unknown edition id.
    if p.is_file():
        return p
    if p.is_dir():
        raise PackError(f"{p}: a folder without pack.yaml")
    known_ids = list(known)
    raise PackError(f"unknown edition {str(pack)!r}"
                    + did_you_mean(str(pack), known_ids)
                    + f" (known: {', '.join(known_ids)})")


def pack_folders() -> dict[str, Path]:
    """Every installed game's packs: the folders of its ``<package>.editions`` holding a
    ``pack.yaml``, by qualified id ("mare_nostrum/en")."""
    from . import games

    out: dict[str, Path] = {}
    for game in games.installed():
        try:
            root = games.editions_dir(game)
        except PackError:  # a broken game hides its packs, not every other game's
            continue       # (naming it plays it, and says what is wrong: games.package)
        for d in sorted(root.iterdir()) if root is not None else ():
            if (d / "pack.yaml").is_file():
                out[f"{game}/{d.name}"] = d
    return out


def list_packs() -> dict[str, str]:
    """The installed games' packs (see :func:`pack_folders`), by pack id ("en") and by
    qualified id ("mare_nostrum/en"); a pack id two games share is known only qualified."""
    out: dict[str, str] = {}
    shared: set[str] = set()
    for qualified in pack_folders():
        short = qualified.split("/", 1)[1]
        out[qualified] = qualified
        if short in out:
            shared.add(short)
        out[short] = qualified
    for name in shared:
        del out[name]
    return dict(sorted(out.items()))


def first_pack(game: str) -> str | None:
    """The first pack of a game (``<game>/<pack>``, by name), None if it has none."""
    return next((p for p in list_packs() if p.startswith(f"{game}/")), None)


def base_pack(game: str) -> str:
    """The pack a game is played with when only the game is named: its one pack that
    extends no other, by its id (qualified when another game's pack shares it)."""
    from . import games

    found = list_packs()
    roots: list[str] = []
    for short, qualified in found.items():
        name, _, pack = qualified.partition("/")
        if short == qualified and name == game \
                and not load_yaml(pack_file(qualified)).data.get("extends"):
            roots.append(pack if found.get(pack) == qualified else qualified)
    installed = sorted(games.installed())
    if game not in installed:
        raise PackError(f"no game named {game!r}"
                        + did_you_mean(game, installed, f" (games: {', '.join(installed)})"))
    if len(roots) != 1:
        raise PackError(f"the game {game} has {len(roots)} packs that extend none "
                        f"({', '.join(roots) or 'none'}): name one with --edition")
    return roots[0]


def default_pack(game: str | None = None) -> str:
    """The pack played when none is named: the base pack of ``game``, or of the one game
    installed (:func:`default_game`)."""
    return base_pack(game if game is not None else default_game())


def default_game() -> str:
    """The one game installed; with several, the one an installed distribution declares
    the default (entry-point group ``mnrules.default_game``: this repository's declares
    Mare Nostrum, so ``mnrules play`` plays it as it always has). The kernel itself
    prefers no game: with several and no one declaration, the error says how to name
    one."""
    from . import games

    installed = sorted(games.installed())
    if len(installed) == 1:
        return installed[0]
    chosen = games.preferred()
    if len(chosen) == 1:
        return chosen[0]
    if not installed:
        raise PackError("no game is installed (a game is a package declared in the "
                        "entry-point group mnrules.games): name a pack file with --edition")
    shown = ", ".join(f"{g} (--game {g}, or --edition {base_pack(g)})" for g in installed)
    raise PackError(f"{len(installed)} games are installed, so no pack is the default: "
                    f"name one: {shown}")


def game_packs(game: str) -> list[str]:
    """Every pack of ``game``, by id (qualified when another game's pack shares it)."""
    found = list_packs()
    out = []
    for qualified in pack_folders():
        name, _, short = qualified.partition("/")
        if name == game:
            out.append(short if found.get(short) == qualified else qualified)
    return out



def _check_section(src: Sourced, key: str, value: Any, schema: Mapping[str, Any]) -> None:
    for k, v in value.items():
        if k not in schema:
            raise PackError(f"{src.at((key, k))}: {key}.{k}: unknown key"
                            + did_you_mean(str(k), schema,
                                           f"; expected one of {', '.join(schema)}"))
        if not isinstance(v, schema[k]):
            raise PackError(f"{src.at((key, k))}: {key}.{k}: expected "
                            f"{TYPE_WORDS.get(schema[k], schema[k])}, got {v!r}")


def _first_phase(data: Mapping[str, Any]) -> str:
    """The pack's own first phase, for an example (a pack that extends one may list none)."""
    phases = data.get("phases")
    first = phases[0] if isinstance(phases, list) and phases else None
    return first if isinstance(first, str) else "PHASE"


def check_schema(src: Sourced) -> None:
    data = src.data
    if not isinstance(data, dict):
        raise PackError(f"{src.file}: a pack must be a mapping of keys")
    for key, value in data.items():
        if key not in SCHEMA:
            raise PackError(f"{src.at((key,))}: unknown pack key {key!r}"
                            + did_you_mean(str(key), SCHEMA))
        want = SCHEMA[key]
        if not isinstance(value, want):
            words = " or ".join(TYPE_WORDS.get(t, str(t)) for t in
                                (want if isinstance(want, tuple) else (want,)))
            raise PackError(f"{src.at((key,))}: {key}: expected {words}, got {value!r}")
    if data.get("format", PACK_FORMAT) != PACK_FORMAT:
        raise PackError(f"{src.at(('format',))}: format: expected {PACK_FORMAT!r}, "
                        f"got {data.get('format')!r}")
    if isinstance(data.get("cards"), dict):
        _check_section(src, "cards", data["cards"], CARD_SECTION)
    if isinstance(data.get("plugins"), dict):
        _check_section(src, "plugins", data["plugins"], PLUGIN_SECTION)
    if "engine" in data:
        check_engine(data["engine"], src.at(("engine",)))
    if "api" in data:
        check_api(data["api"], src.at(("api",)))
    for k, v in (data.get("readings") or {}).items():
        if not isinstance(k, str) or not isinstance(v, str):
            raise PackError(f"{src.at(('readings', k))}: readings.{k}: expected a name and "
                            f"its text, got {v!r:.80}")
    for k, v in (data.get("names") or {}).items():
        if isinstance(v, dict) and isinstance(k, str):
            for i, text in v.items():
                if not isinstance(i, str | int) or isinstance(i, bool) or \
                        not isinstance(text, str):
                    raise PackError(f"{src.at(('names', k, i))}: names.{k}.{i}: expected "
                                    f"an id and its name, got {text!r:.80}")
        elif not isinstance(k, str) or not isinstance(v, str):
            raise PackError(f"{src.at(('names', k))}: names.{k}: expected a name (a text) "
                            f"or the names of one kind (a mapping of ids to texts, e.g. "
                            f"phases: {{{_first_phase(data)}: ...}}), got {v!r:.80}")
    for k in data.get("patch") or {}:
        if k not in PATCH_TARGETS:
            raise PackError(f"{src.at(('patch', k))}: patch.{k}: no data file to patch by "
                            f"that name" + did_you_mean(str(k), PATCH_TARGETS)
                            + f" (a pack patches {', '.join(PATCH_TARGETS)})")
    for key in ("phases", "notes"):
        value = data.get(key)
        for i, v in enumerate(value if isinstance(value, list) else []):
            if not isinstance(v, str):
                raise PackError(f"{src.at((key, i))}: {key}[{i}]: expected a text, "
                                f"got {v!r:.80}")


def _version(text: str) -> tuple[int, ...]:
    return tuple(int(x) for x in text.strip().split(".") if x.isdigit() and len(x) <= 9)


_COMPARISON = re.compile(r"(>=|<=|==|>|<)\s*(\d{1,9}(?:\.\d{1,9}){0,3})")


def _meets(spec: str, have: str, key: str, where: str) -> bool:
    """Whether version ``have`` meets every comparison of ``spec`` (``">=0.1,<1"``)."""
    version = _version(have)
    for part in spec.split(","):
        found = _COMPARISON.fullmatch(part.strip())
        if found is None:
            raise PackError(f"{where}: {key}: expected comparisons like '>=0.1', "
                            f"got {part.strip()!r:.80}")
        op, want = found.group(1), _version(found.group(2))
        if not {">=": version >= want, "<=": version <= want, "==": version == want,
                ">": version > want, "<": version < want}[op]:
            return False
    return True


def check_engine(spec: str, where: str) -> None:
    """Refuse a pack written for another engine version (``">=0.1,<1"``)."""
    from ..version import __version__

    if not _meets(spec, __version__, "engine", where):
        raise PackError(f"{where}: engine: this pack needs mnrules {spec}, "
                        f"this is {__version__}")


def check_api(spec: str, where: str) -> None:
    """Refuse a pack whose game or plugins need another version of the public surface
    (``api: ">=1.0"``, compared with :data:`mnrules.api.API_VERSION`)."""
    from ..version import API_VERSION, __version__

    if not _meets(spec, API_VERSION, "api", where):
        raise PackError(f"{where}: api: this pack needs the plugin API {spec} "
                        f"(mnrules.api), mnrules {__version__} provides API {API_VERSION}")


def _record(origins: dict[tuple[str, ...], str], src: Sourced, value: Any,
            path: tuple[str | int, ...]) -> None:
    """Remember where every key and item (to five levels) was set, for messages."""
    origins[tuple(str(k) for k in path)] = src.at(path)
    if len(path) >= 5:
        return
    if isinstance(value, dict):
        for k, v in value.items():
            _record(origins, src, v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            _record(origins, src, v, (*path, i))


def _merge(base: dict[str, Any], over: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for k, v in over.items():
        if isinstance(v, Mapping) and isinstance(out.get(k), Mapping):
            out[k] = _merge(dict(out[k]), v)
        else:
            out[k] = v
    return out


def _path_text(value: str, key: str, where: str) -> str:
    """A file or folder name as a pack writes it: text without control characters."""
    if any(unicodedata.category(c)[0] == "C" for c in value):
        raise PackError(f"{where}: {key}: a file name cannot hold control or invisible "
                        f"characters, got {value!r:.80}")
    return value


def bundled_plugins(game: str | None = None) -> list[str]:
    """The rule plugins the installed games ship: modules of each game's package (of
    every game when ``game`` is None, as when a pack is read before its game is known)."""
    from . import games

    names = [game] if game else list(games.installed())
    return sorted({p for g in names for p in games.plugin_names(g)})


def _plugin_ref(name: Any, key: str, where: str, folder: Path) -> str:
    """What a pack's plugin entry names: a bundled plugin, or a .py file in the pack's
    folder (given relative to it, or absolute), as an absolute path. Pack data never
    names an arbitrary module: no dotted names, no file outside the pack's folder."""
    if not isinstance(name, str) or not name.strip():
        raise PackError(f"{where}: {key}: expected the name of a rule plugin or a .py "
                        f"file beside the pack, got {name!r}")
    _path_text(name, key, where)
    if name.endswith(".py"):
        rel = Path(name)
        if ".." in rel.parts:
            raise PackError(f"{where}: {key}: a plugin file must be in the pack's folder "
                            f"or below it, not {name!r} ('..')")
        path = (rel if rel.is_absolute() else folder / rel).resolve()
        if not path.is_relative_to(folder.resolve()):
            raise PackError(f"{where}: {key}: a plugin file must be in the pack's folder "
                            f"({folder}) or below it, not {name!r}")
        if not path.is_file():
            raise PackError(f"{where}: {key}: no plugin file {name!r} in {folder}")
        return str(path)
    known = bundled_plugins()
    if name not in known:
        raise PackError(f"{where}: {key}: no rule plugin named {name!r}"
                        + did_you_mean(name, known)
                        + f" (a plugin is one of {', '.join(known)}, or a .py file "
                        f"beside the pack)")
    return name


def _plugins(base: list[str], change: Any, where: str, folder: Path) -> list[str]:
    if isinstance(change, list):
        out = [_plugin_ref(p, f"plugins[{i}]", where, folder) for i, p in enumerate(change)]
    else:
        out = list(base)
        for old, new in (change.get("replace") or {}).items():
            if old not in out:
                raise PackError(f"{where}: plugins.replace: no plugin {old!r} to replace"
                                + did_you_mean(str(old), out)
                                + f" (plugins: {', '.join(out)})")
            out[out.index(old)] = _plugin_ref(new, f"plugins.replace.{old}", where, folder)
        for old in _list(change.get("remove"), "plugins.remove", where):
            if old not in out:
                raise PackError(f"{where}: plugins.remove: no plugin {old!r}"
                                + did_you_mean(str(old), out)
                                + f" (plugins: {', '.join(out)})")
            out.remove(old)
        out.extend(_plugin_ref(p, f"plugins.add[{i}]", where, folder)
                   for i, p in enumerate(_list(change.get("add"), "plugins.add", where)))
    seen: set[str] = set()
    for ref in out:
        if ref in seen:
            raise PackError(f"{where}: plugins: {ref!r} is listed twice (a plugin is "
                            f"registered once)")
        seen.add(ref)
    return out


def _list(value: Any, key: str, where: str) -> list[Any]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise PackError(f"{where}: {key}: expected a list, got {value!r:.80}")
    return value


# --- names by kind --------------------------------------------------------------------------
def name_kinds(names: Mapping[str, Any]) -> dict[str, dict[str, str]]:
    """A pack's ``names`` by kind (``""``: the entries outside a kind, which name an id of
    any kind)."""
    out: dict[str, dict[str, str]] = {}
    for k, v in names.items():
        if isinstance(v, dict):
            out[str(k)] = {str(i): str(t) for i, t in v.items()}
        else:
            out.setdefault("", {})[str(k)] = str(v)
    return out


def flat_names(names: Mapping[str, Any]) -> dict[str, str]:
    """One name per id whatever its kind: the entries outside a kind first, then each
    kind's in the order the packs give the kinds (the base pack's first)."""
    out: dict[str, str] = {}
    kinds = name_kinds(names)
    for kind in ("", *(k for k in kinds if k)):
        for i, text in kinds.get(kind, {}).items():
            out.setdefault(i, text)
    return out


def _declared_ids(data: Mapping[str, Any]) -> set[str]:
    """Ids a pack's own data declares (its phases, the keys and items of its components),
    which it may name though the packs it extends do not."""
    out = {str(p) for p in data.get("phases") or [] if isinstance(p, str)}

    def walk(value: Any, depth: int) -> None:
        if depth > 3:
            return
        if isinstance(value, dict):
            for k, v in value.items():
                out.add(str(k))
                walk(v, depth + 1)
        elif isinstance(value, list):
            out.update(str(v) for v in value if isinstance(v, str))
    walk(data.get("components") or {}, 0)
    patch = data.get("patch")
    for steps in patch.values() if isinstance(patch, dict) else ():  # a new empire's id
        paths = list(steps) if isinstance(steps, dict) else \
            [s.get("set") for s in steps if isinstance(s, dict)] \
            if isinstance(steps, list) else []
        for path in paths:
            last = path.rsplit(".", 1)[-1] if isinstance(path, str) else \
                path[-1] if isinstance(path, list) and path else None
            if isinstance(last, str):
                out.add(last)
    return out


MAX_NAME_CHARS = 200
"""The longest name a pack may give an id (a card's name has the same bound)."""


def _check_names(src: Sourced, names: Mapping[str, Any], base: Mapping[str, Any],
                 merged: Mapping[str, Any]) -> None:
    """A pack names only kinds the packs it extends name, and in each kind only ids they
    name or its own data declares (so a misspelt kind or id is refused, with the nearest);
    a pack that extends none declares its kinds and ids. A name is at most
    MAX_NAME_CHARS long."""
    for kind, v in names.items():
        for i, text in (v.items() if isinstance(v, dict) else [(None, v)]):
            if len(str(text)) > MAX_NAME_CHARS:
                at = ("names", kind) if i is None else ("names", kind, i)
                raise PackError(f"{src.at(at)}: names.{kind}{'' if i is None else f'.{i}'}"
                                f": a name of {len(str(text))} characters; a name is shown "
                                f"on every line that names its id, at most "
                                f"{MAX_NAME_CHARS} characters")
    known = {k: v for k, v in name_kinds(base).items() if k}
    if not known:
        return
    declared = _declared_ids(merged)
    for kind, v in names.items():
        if not isinstance(v, dict):
            continue
        if kind not in known:
            raise PackError(f"{src.at(('names', kind))}: names.{kind}: the packs this one "
                            f"extends name no {kind!r}"
                            + did_you_mean(str(kind), known)
                            + f" (kinds: {', '.join(known)})")
        for i in v:
            if str(i) not in known[kind] and str(i) not in declared:
                raise PackError(f"{src.at(('names', kind, i))}: names.{kind}.{i}: no "
                                f"{kind} has this id"
                                + did_you_mean(str(i), known[kind])
                                + f" ({kind}: {', '.join(known[kind])})")


# --- patches: a data file changed by key path ------------------------------------------------
@dataclass(frozen=True)
class PatchStep:
    """One change a pack makes to a data file: ``verb`` (set, add, remove, delete) at the
    key ``path`` (as written: text keys, and int for ``[i]``), with ``value``."""

    verb: str
    path: KeyPath
    text: str                      # the path as written
    value: Any
    src: Sourced = field(repr=False)
    at: KeyPath = ()               # the step's key path in the pack file
    value_at: KeyPath = ()         # its value's

    @property
    def where(self) -> str:
        return self.src.at(self.at)

    def refuse(self, message: str) -> PackError:
        return PackError(f"{self.where}: patch: {self.text}: {message}")


_INDEX = re.compile(r"\[(\d{1,6})\]")


def parse_path(value: Any, where: str) -> KeyPath:
    """A key path as a patch writes it: ``empires.rome.buildings.LATIUM[2]`` (a list item
    by ``[i]`` or ``.2``; a key holding a dot is written as a list of keys instead)."""
    if isinstance(value, list) and value and all(
            isinstance(p, str | int) and not isinstance(p, bool) for p in value):
        return tuple(value)
    if not isinstance(value, str) or not value.strip():
        raise PackError(f"{where}: patch: expected a key path such as "
                        f"key.key[0].key, got {value!r:.80}")
    out: list[str | int] = []
    for part in value.split("."):
        key, _, rest = part.partition("[")
        rest = "[" + rest if rest else ""
        indices = _INDEX.findall(rest)
        if "".join(f"[{i}]" for i in indices) != rest or (not key and not (out and indices)):
            raise PackError(f"{where}: patch: {value}: expected keys joined by '.' and list "
                            f"items as [0], [1]...; {part!r} is neither")
        if key:
            out.append(key.strip())
        out.extend(int(i) for i in indices)
    return tuple(out)


def _patch_steps(src: Sourced, target: str, body: Any) -> list[PatchStep]:
    at: KeyPath = ("patch", target)
    if isinstance(body, dict):
        return [PatchStep("set", parse_path(k, src.at((*at, k))), str(k), v, src,
                          (*at, k), (*at, k)) for k, v in body.items()]
    if not isinstance(body, list):
        raise PackError(f"{src.at(at)}: patch.{target}: expected key paths and their "
                        f"values ({{KEY.KEY.KEY: VALUE}}) or a list of steps "
                        f"({{set: PATH, to: VALUE}}, {{add: VALUE, to: PATH}}, "
                        f"{{remove: VALUE, from: PATH}}, {{delete: PATH}}), got {body!r:.80}")
    steps = []
    for i, step in enumerate(body):
        here = (*at, i)
        verbs = [v for v in PATCH_VERBS if isinstance(step, dict) and v in step]
        if not isinstance(step, dict) or len(verbs) != 1:
            raise PackError(f"{src.at(here)}: patch.{target}[{i}]: expected one of "
                            f"{{set: PATH, to: VALUE}}, {{add: VALUE, to: PATH}}, "
                            f"{{remove: VALUE, from: PATH}}, {{delete: PATH}}, got "
                            f"{step!r:.80}")
        verb = verbs[0]
        other = PATCH_VERBS[verb]
        allowed = [verb, *([other] if other else [])]
        for key in step:
            if key not in allowed:
                has = f" (a {verb} step has {', '.join(allowed)})"
                raise PackError(f"{src.at((*here, key))}: patch.{target}[{i}].{key}: "
                                f"unknown key" + did_you_mean(str(key), allowed, has))
        if other and other not in step:
            raise PackError(f"{src.at(here)}: patch.{target}[{i}]: a {verb} step needs "
                            f"'{other}:'")
        path_key, value_key = (verb, other) if verb in ("set", "delete") else (other, verb)
        assert path_key is not None
        text = step[path_key]
        steps.append(PatchStep(verb, parse_path(text, src.at((*here, path_key))),
                               str(text) if isinstance(text, str) else ".".join(map(str, text)),
                               step.get(value_key) if value_key else None, src,
                               (*here, path_key), (*here, value_key) if value_key else here))
    return steps


@dataclass(frozen=True)
class PatchedSource(Sourced):
    """A data file as the pack's patches change it. A problem at a patched key path (or
    below it) is reported at the patch's own file and line, not the data file's."""

    patched: Mapping[KeyPath, tuple[Sourced, KeyPath]] = field(default_factory=dict,
                                                               repr=False)
    changes: tuple[tuple[KeyPath, str], ...] = field(default=(), repr=False)
    """Each step's changed path (the list or mapping it adds to or removes from) and the
    step's file:line:col."""

    def problem(self, key_path: Any, message: str) -> Problem:
        path = tuple(key_path)
        for n in range(len(path), -1, -1):
            found = self.patched.get(path[:n])
            if found is not None:
                src, at = found
                pos = src.position((*at, *path[n:]))
                line, column = pos if pos is not None else (None, None)
                return Problem(src.file, self.key_string(path),
                               f"{message} (as this file patches {Path(self.file).name})",
                               line, column)
        near = [where for changed, where in self.changes
                if changed[:len(path)] == path or path[:len(changed)] == changed
                or len(_common(changed, path)) >= 2]
        if near:
            message += f" (the file as patched at {', '.join(dict.fromkeys(near))})"
        return super().problem(path, message)


def _common(a: KeyPath, b: KeyPath) -> KeyPath:
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return a[:n]


def _lookup(node: Any, part: str | int) -> tuple[bool, Any]:
    """The key of ``node`` a path part names: a mapping's key as written or as the whole
    number it spells (``3`` in ``culture.3``), a list's index."""
    if isinstance(node, dict):
        if part in node:
            return True, part
        if isinstance(part, str) and part.isdigit() and int(part) in node:
            return True, int(part)
        if isinstance(part, int) and str(part) in node:
            return True, str(part)
        return False, (int(part) if isinstance(part, str) and part.isdigit() else part)
    if isinstance(node, list):
        index = part if isinstance(part, int) else int(part) if str(part).isdigit() else None
        if index is None:
            return False, part
        return 0 <= index < len(node), index
    return False, part


def _missing(step: PatchStep, node: Any, part: str | int, walked: KeyPath) -> PackError:
    shown = key_path(walked) or "the file"
    if isinstance(node, dict):
        keys = [str(k) for k in node]
        return step.refuse(f"{shown} has no key {str(part)!r}"
                           + did_you_mean(str(part), keys)
                           + (f" (its keys: {listed(keys)})" if keys else ""))
    if isinstance(node, list):
        return step.refuse(f"{shown} is a list of {len(node)} items: no item {part!r} "
                           f"(write [0] to [{len(node) - 1}])" if node else
                           f"{shown} is an empty list")
    return step.refuse(f"{shown} is {node!r:.40}, which has no keys (no {str(part)!r})")


def apply_patches(src: Sourced, steps: list[PatchStep]) -> PatchedSource:
    """``src``'s data with every step applied in order (a copy: ``src`` is unchanged); a
    path that leads nowhere is refused at the step's file and line, with the nearest key."""
    data = copy.deepcopy(src.data)
    positions = dict(src.positions)
    patched: dict[KeyPath, tuple[Sourced, KeyPath]] = dict(getattr(src, "patched", {}))

    tables: tuple[dict[KeyPath, Any], ...] = (positions, patched)

    def drop(prefix: KeyPath) -> None:
        for table in tables:
            for k in [k for k in table if k[:len(prefix)] == prefix]:
                del table[k]

    def shift(prefix: KeyPath, index: int) -> None:
        """The items of the list at ``prefix`` after ``index`` move up one."""
        n = len(prefix)
        for table in tables:
            moved: dict[KeyPath, Any] = {}
            for k in [k for k in table if len(k) > n and k[:n] == prefix]:
                i = k[n]
                if isinstance(i, int) and i > index:
                    moved[(*prefix, i - 1, *k[n + 1:])] = table.pop(k)
            table.update(moved)

    changes: list[tuple[KeyPath, str]] = list(getattr(src, "changes", ()))
    for step in steps:
        if not step.path:
            raise step.refuse("the path names no key")
        changes.append((_resolved(data, step.path), step.where))
        node: Any = data
        walked: KeyPath = ()
        into = step.path if step.verb in ("add", "remove") else step.path[:-1]
        for part in into:
            found, key = _lookup(node, part)
            if not found:
                raise _missing(step, node, part, walked)
            node, walked = node[key], (*walked, key)
        if step.verb in ("add", "remove"):
            if step.verb == "add" and not isinstance(node, list):
                raise step.refuse(f"add {step.value!r:.40}: this is not a list (a mapping's "
                                  f"new key is given with set)")
            if step.verb == "add":
                node.append(copy.deepcopy(step.value))
                patched[(*walked, len(node) - 1)] = (step.src, step.value_at)
                continue
            if isinstance(node, list):
                if step.value not in node:
                    items = [str(v) for v in node if isinstance(v, str | int)]
                    raise step.refuse(f"remove {step.value!r:.40}: no such item"
                                      + did_you_mean(str(step.value), items)
                                      + f" (the list holds {', '.join(items)})")
                index = node.index(step.value)
                del node[index]
                drop((*walked, index))
                shift(walked, index)
                continue
            found, key = _lookup(node, step.value)
            if not isinstance(node, dict) or not found:
                raise _missing(step, node, step.value, walked)
            del node[key]
            drop((*walked, key))
            continue
        last = step.path[-1]
        found, key = _lookup(node, last)
        if step.verb == "delete":
            if not found:
                raise _missing(step, node, last, walked)
            del node[key]
            drop((*walked, key))
            if isinstance(node, list):
                shift(walked, key)
            continue
        if isinstance(node, list) and not found:
            raise _missing(step, node, last, walked)
        if not isinstance(node, dict | list):
            raise _missing(step, node, last, walked)
        node[key] = copy.deepcopy(step.value)
        drop((*walked, key))
        patched[(*walked, key)] = (step.src, step.value_at)
    return PatchedSource(data, src.file, positions, patched, tuple(changes))


def _resolved(data: Any, path: KeyPath) -> KeyPath:
    """``path`` with each part as the data's own key (``3`` for ``"3"`` where the mapping's
    key is the number), as far as it leads."""
    out: list[str | int] = []
    node = data
    for part in path:
        found, key = _lookup(node, part)
        out.append(key)
        node = node[key] if found else None
    return tuple(out)


def patched_sources(source: Pack) -> dict[str, PatchedSource]:
    """Each data file the pack patches, read and patched (today the board file)."""
    out: dict[str, PatchedSource] = {}
    for target, steps in source.patches.items():
        if not steps:
            continue
        if target == "board":
            if not source.board_file.is_file():
                raise PackError(f"{steps[0].where}: patch.board: the pack has no board file "
                                f"to patch")
            out[target] = apply_patches(load_yaml(source.board_file), steps)
    return out


def read(pack: str | Path, _seen: tuple[str, ...] = (), default_base: str | None = None
         ) -> Pack:
    """Read a pack or variant and everything it extends (``default_base`` when it names
    no base itself: the edition a variant is played on)."""
    file = pack_file(pack)
    if str(file.resolve()) in _seen:
        raise PackError(f"extends: circular chain {' -> '.join((*_seen, str(file)))}")
    src = load_yaml(file)
    check_schema(src)
    data: dict[str, Any] = dict(src.data)
    parent = data.pop("extends", None) or default_base
    if parent is not None:
        _path_text(parent, "extends", src.at(("extends",)))
        if len(_seen) + 1 >= MAX_EXTENDS:
            raise PackError(f"{src.at(('extends',))}: extends: a chain of more than "
                            f"{MAX_EXTENDS} packs and variants (from {_seen[0]})")
        ref = str(parent)
        if ref.endswith((".yaml", ".yml")) and not Path(ref).is_absolute():
            ref = str(file.parent / ref)
        try:
            base = read(ref, (*_seen, str(file.resolve())))
        except PackError as exc:
            text = str(exc)
            if "unknown edition" in text or "no such file" in text:
                raise PackError(f"{src.at(('extends',))}: extends: {text}") from None
            if text.startswith("extends: circular chain") and not _seen:
                raise PackError(f"{src.at(('extends',))}: {text}") from None
            raise
    else:
        base = Pack({}, [], file.parent / "board.yaml")
    origins = dict(base.origins)
    for k, v in data.items():
        _record(origins, src, v, (str(k),))
    merged = dict(base.data)
    for k, v in data.items():
        if k == "plugins":
            merged[k] = _plugins(list(base.data.get("plugins") or []), v,
                                 src.at(("plugins",)), file.parent)
        elif k in ("cards", "patch"):
            continue
        elif k == "game":
            merged[k] = _plugin_ref(v, "game", src.at(("game",)), file.parent) \
                if str(v).endswith(".py") else v
        elif isinstance(v, dict) and isinstance(merged.get(k), dict):
            merged[k] = _merge(merged[k], v)
        else:
            merged[k] = v
    if "board" in data:
        board_file = file.parent / _path_text(data["board"], "board", src.at(("board",)))
        if not board_file.is_file():
            raise PackError(f"{src.at(('board',))}: board: no board file {data['board']!r} "
                            f"in {file.parent}")
    else:
        board_file = base.board_file
    _check_names(src, data.get("names") or {}, base.data.get("names") or {},
                 {**merged, "patch": data.get("patch")})
    out = Pack(merged, [str(file), *base.chain], board_file, origins,
               list(base.card_dirs), dict(base.card_overrides), dict(base.removed_at),
               dict(base.card_variants), {t: list(s) for t, s in base.patches.items()})
    for target, body in (data.get("patch") or {}).items():
        out.patches.setdefault(str(target), []).extend(_patch_steps(src, str(target), body))
    cards = data.get("cards") or {}
    for i, d in enumerate(cards.get("add") or []):
        if not isinstance(d, str) or not d.strip():
            raise PackError(f"{src.at(('cards', 'add', i))}: cards.add[{i}]: expected "
                            f"the path of a folder of cards, got {d!r:.80}")
        where = src.at(("cards", "add", i))
        folder = (file.parent / _path_text(d, f"cards.add[{i}]", where)).resolve()
        if ".." in Path(d).parts or not folder.is_relative_to(file.parent.resolve()):
            raise PackError(f"{where}: cards.add[{i}]: a folder of cards must be in the "
                            f"pack's folder ({file.parent}) or below it, not {d!r}")
        if not folder.is_dir():
            raise PackError(f"{src.at(('cards', 'add'))}: cards.add: no folder {d!r}")
        out.card_dirs.append(folder)
    removed = set(out.data.get("_removed_cards", []))
    for i, c in enumerate(cards.get("remove") or []):
        if not isinstance(c, str):
            raise PackError(f"{src.at(('cards', 'remove', i))}: cards.remove[{i}]: "
                            f"expected a card id, got {c!r:.80}")
        removed.add(c)
    out.data["_removed_cards"] = sorted(removed)
    out.removed_at.update({str(c): src.at(("cards", "remove", i))
                           for i, c in enumerate(cards.get("remove") or [])})
    for cid, name in (cards.get("variant") or {}).items():
        where = src.at(("cards", "variant", cid))
        if not isinstance(name, str) or not name.strip():
            raise PackError(f"{where}: cards.variant.{cid}: expected the name of one of the "
                            f"card's variants (declared in its file), got {name!r:.80}")
        out.card_variants[str(cid)] = (name, where)
        out.card_overrides.pop(str(cid), None)  # an override of the packs it extends
    for cid, change in (cards.get("override") or {}).items():
        if not isinstance(change, dict):
            raise PackError(f"{src.at(('cards', 'override', cid))}: cards.override."
                            f"{cid}: expected a mapping of card keys")
        out.card_overrides[str(cid)] = (change, str(file), src)
    return out


def key_path(path: tuple[str | int, ...]) -> str:
    """``("costs", "city")`` -> ``costs.city``; ``("land_die", 2)`` -> ``land_die[2]``."""
    out = ""
    for part in path:
        if isinstance(part, int) and not isinstance(part, bool):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out
