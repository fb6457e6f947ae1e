"""Reading edition packs and variants: files that extend one another and list only what
differs. Every key is checked against the pack schema, and every problem names the
file, the line, the key path and what was expected (with the nearest valid key).

A pack (``editions/<id>/pack.yaml``) or a variant (any YAML file) may hold:

``format``, ``id``, ``name``, ``language``, ``engine`` (the engine versions it was written
for, e.g. ``">=0.1"``), ``extends`` (a pack id or a path), ``board`` (a file beside it),
``plugins`` (a list, or ``{add, remove, replace}`` against what it extends), ``phases``,
``components``, ``params``, ``cards`` (``{add, remove, override}``), ``names`` (ids to the
pack's words), ``readings`` (for each ambiguous rule, the reading chosen and why),
``notes``.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import PackError
from .resources import data_dir
from .yamlsource import Sourced, load_yaml, suggest

PACK_FORMAT = "mnrules-pack/1"
MAX_EXTENDS = 32
"""Longest chain of packs and variants extending one another."""
SCHEMA: dict[str, type | tuple[type, ...]] = {
    "format": str, "id": str, "name": str, "language": str, "engine": str, "extends": str,
    "game": str, "board": str, "plugins": (list, dict), "phases": list, "components": dict,
    "params": dict, "cards": dict, "names": dict, "readings": dict, "notes": (str, list),
    "battles": list,
}
CARD_SECTION = {"add": list, "remove": list, "override": dict}
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
        return data_dir("editions") / known[str(pack)] / "pack.yaml"
    known_ids = list(known)
    hint = suggest(str(pack), known_ids)
    raise PackError(f"unknown edition {str(pack)!r}"
                    + (f"; did you mean {hint!r}?" if hint else "")
                    + f" (known: {', '.join(known_ids)})")


def list_packs() -> dict[str, str]:
    """The bundled packs: ``editions/<game>/<pack>/``, by pack id ("en") and by qualified
    id ("mare_nostrum/en"); a pack id two games share is known only qualified."""
    root = data_dir("editions")
    out: dict[str, str] = {}
    shared: set[str] = set()
    for game in sorted(d for d in root.iterdir() if d.is_dir()):
        for d in sorted(game.iterdir()):
            if (d / "pack.yaml").exists():
                qualified = f"{game.name}/{d.name}"
                out[qualified] = qualified
                if d.name in out:
                    shared.add(d.name)
                out[d.name] = qualified
    for name in shared:
        del out[name]
    return dict(sorted(out.items()))


def _at(src: Sourced, path: tuple[str | int, ...]) -> str:
    pos = src.position(path)
    return f"{src.file}:{pos[0]}:{pos[1]}" if pos else src.file


def _check_section(src: Sourced, key: str, value: Any, schema: Mapping[str, Any]) -> None:
    for k, v in value.items():
        if k not in schema:
            hint = suggest(str(k), schema)
            raise PackError(f"{_at(src, (key, k))}: {key}.{k}: unknown key"
                            + (f"; did you mean {hint!r}?" if hint else
                               f"; expected one of {', '.join(schema)}"))
        if not isinstance(v, schema[k]):
            raise PackError(f"{_at(src, (key, k))}: {key}.{k}: expected "
                            f"{TYPE_WORDS.get(schema[k], schema[k])}, got {v!r}")


def check_schema(src: Sourced) -> None:
    data = src.data
    if not isinstance(data, dict):
        raise PackError(f"{src.file}: a pack must be a mapping of keys")
    for key, value in data.items():
        if key not in SCHEMA:
            hint = suggest(str(key), SCHEMA)
            raise PackError(f"{_at(src, (key,))}: unknown pack key {key!r}"
                            + (f"; did you mean {hint!r}?" if hint else ""))
        want = SCHEMA[key]
        if not isinstance(value, want):
            words = " or ".join(TYPE_WORDS.get(t, str(t)) for t in
                                (want if isinstance(want, tuple) else (want,)))
            raise PackError(f"{_at(src, (key,))}: {key}: expected {words}, got {value!r}")
    if data.get("format", PACK_FORMAT) != PACK_FORMAT:
        raise PackError(f"{_at(src, ('format',))}: format: expected {PACK_FORMAT!r}, "
                        f"got {data.get('format')!r}")
    if isinstance(data.get("cards"), dict):
        _check_section(src, "cards", data["cards"], CARD_SECTION)
    if isinstance(data.get("plugins"), dict):
        _check_section(src, "plugins", data["plugins"], PLUGIN_SECTION)
    if "engine" in data:
        check_engine(data["engine"], _at(src, ("engine",)))
    for key in ("names", "readings"):
        for k, v in (data.get(key) or {}).items():
            if not isinstance(k, str) or not isinstance(v, str):
                raise PackError(f"{_at(src, (key, k))}: {key}.{k}: expected a name and its "
                                f"text, got {v!r:.80}")
    for key in ("phases", "notes"):
        value = data.get(key)
        for i, v in enumerate(value if isinstance(value, list) else []):
            if not isinstance(v, str):
                raise PackError(f"{_at(src, (key, i))}: {key}[{i}]: expected a text, "
                                f"got {v!r:.80}")


def _version(text: str) -> tuple[int, ...]:
    return tuple(int(x) for x in text.strip().split(".") if x.isdigit() and len(x) <= 9)


_COMPARISON = re.compile(r"(>=|<=|==|>|<)\s*(\d{1,9}(?:\.\d{1,9}){0,3})")


def check_engine(spec: str, where: str) -> None:
    """Refuse a pack written for another engine version (``">=0.1,<1"``)."""
    from . import __version__

    have = _version(__version__)
    for part in spec.split(","):
        found = _COMPARISON.fullmatch(part.strip())
        if found is None:
            raise PackError(f"{where}: engine: expected comparisons like '>=0.1', "
                            f"got {part.strip()!r:.80}")
        op, want = found.group(1), _version(found.group(2))
        ok = {">=": have >= want, "<=": have <= want, "==": have == want,
              ">": have > want, "<": have < want}[op]
        if not ok:
            raise PackError(f"{where}: engine: this pack needs mnrules {spec}, "
                            f"this is {__version__}")


def _record(origins: dict[tuple[str, ...], str], src: Sourced, value: Any,
            path: tuple[str | int, ...]) -> None:
    """Remember where every key and item (to five levels) was set, for messages."""
    origins[tuple(str(k) for k in path)] = _at(src, path)
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
    """The rule plugins shipped with the engine: modules of ``plugins/<game>/`` (of every
    game when ``game`` is None, as when a pack is read before its game is known)."""
    games = [data_dir("plugins") / game] if game else \
        [d for d in data_dir("plugins").iterdir() if (d / "__init__.py").is_file()]
    return sorted({p.stem for g in games for p in g.glob("*.py")
                   if not p.stem.startswith("_")})


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
        hint = suggest(name, known)
        raise PackError(f"{where}: {key}: no rule plugin named {name!r}"
                        + (f"; did you mean {hint!r}?" if hint else "")
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
                hint = suggest(str(old), out)
                raise PackError(f"{where}: plugins.replace: no plugin {old!r} to replace"
                                + (f"; did you mean {hint!r}?" if hint else "")
                                + f" (plugins: {', '.join(out)})")
            out[out.index(old)] = _plugin_ref(new, f"plugins.replace.{old}", where, folder)
        for old in _list(change.get("remove"), "plugins.remove", where):
            if old not in out:
                hint = suggest(str(old), out)
                raise PackError(f"{where}: plugins.remove: no plugin {old!r}"
                                + (f"; did you mean {hint!r}?" if hint else "")
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
        _path_text(parent, "extends", _at(src, ("extends",)))
        if len(_seen) + 1 >= MAX_EXTENDS:
            raise PackError(f"{_at(src, ('extends',))}: extends: a chain of more than "
                            f"{MAX_EXTENDS} packs and variants (from {_seen[0]})")
        ref = str(parent)
        if ref.endswith((".yaml", ".yml")) and not Path(ref).is_absolute():
            ref = str(file.parent / ref)
        try:
            base = read(ref, (*_seen, str(file.resolve())))
        except PackError as exc:
            text = str(exc)
            if "unknown edition" in text or "no such file" in text:
                raise PackError(f"{_at(src, ('extends',))}: extends: {text}") from None
            if text.startswith("extends: circular chain") and not _seen:
                raise PackError(f"{_at(src, ('extends',))}: {text}") from None
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
                                 _at(src, ("plugins",)), file.parent)
        elif k == "cards":
            continue
        elif k == "game":
            merged[k] = _plugin_ref(v, "game", _at(src, ("game",)), file.parent) \
                if str(v).endswith(".py") else v
        elif isinstance(v, dict) and isinstance(merged.get(k), dict):
            merged[k] = _merge(merged[k], v)
        else:
            merged[k] = v
    if "board" in data:
        board_file = file.parent / _path_text(data["board"], "board", _at(src, ("board",)))
        if not board_file.is_file():
            raise PackError(f"{_at(src, ('board',))}: board: no board file {data['board']!r} "
                            f"in {file.parent}")
    else:
        board_file = base.board_file
    out = Pack(merged, [str(file), *base.chain], board_file, origins,
               list(base.card_dirs), dict(base.card_overrides), dict(base.removed_at))
    cards = data.get("cards") or {}
    for i, d in enumerate(cards.get("add") or []):
        if not isinstance(d, str) or not d.strip():
            raise PackError(f"{_at(src, ('cards', 'add', i))}: cards.add[{i}]: expected "
                            f"the path of a folder of cards, got {d!r:.80}")
        where = _at(src, ("cards", "add", i))
        folder = (file.parent / _path_text(d, f"cards.add[{i}]", where)).resolve()
        if ".." in Path(d).parts or not folder.is_relative_to(file.parent.resolve()):
            raise PackError(f"{where}: cards.add[{i}]: a folder of cards must be in the "
                            f"pack's folder ({file.parent}) or below it, not {d!r}")
        if not folder.is_dir():
            raise PackError(f"{_at(src, ('cards', 'add'))}: cards.add: no folder {d!r}")
        out.card_dirs.append(folder)
    removed = set(out.data.get("_removed_cards", []))
    for i, c in enumerate(cards.get("remove") or []):
        if not isinstance(c, str):
            raise PackError(f"{_at(src, ('cards', 'remove', i))}: cards.remove[{i}]: "
                            f"expected a card id, got {c!r:.80}")
        removed.add(c)
    out.data["_removed_cards"] = sorted(removed)
    out.removed_at.update({str(c): _at(src, ("cards", "remove", i))
                           for i, c in enumerate(cards.get("remove") or [])})
    for cid, change in (cards.get("override") or {}).items():
        if not isinstance(change, dict):
            raise PackError(f"{_at(src, ('cards', 'override', cid))}: cards.override."
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
