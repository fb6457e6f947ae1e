"""Cards as data: one YAML document per card under ``cards/<game>/``.

This module reads the declarative part of a card (kind, phase, leadership bonuses,
names, printed text). Its powers are scripts in the effect language.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import PackError
from .yamlsource import caret_block, did_you_mean, line_of, load_yaml, suggest

CARD_KEYS = ("id", "kind", "phase", "bonuses", "names", "text", "effects", "cost", "copyable",
             "variants")
VARIANT_KEYS = ("note", "effects", "text", "names", "bonuses", "phase", "cost", "copyable")
"""What a named variant of a card may hold: its note (what it is, and the books' sections
that print it) and the card keys it changes."""
DEFAULT_VARIANT = "default"
"""The name that selects a card as its file has it, outside its ``variants``."""


@dataclass(frozen=True)
class CardVariant:
    """A named variant of a card, as its file declares it (``variants: {NAME: ...}``)."""

    name: str
    note: str
    change: dict[str, Any]                 # the card keys it changes, checked
    effects_at: tuple[int, int] = (1, 1)   # where its script starts in the card file


@dataclass(frozen=True)
class CardData:
    id: str
    kind: str
    phase: str | None
    bonuses: dict[str, int]
    names: dict[str, str]
    text: dict[str, str]
    file: str
    effects: str | None = None
    effects_at: tuple[int, int] = (1, 1)   # where the script starts in the file
    cost: int | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    variants: dict[str, CardVariant] = field(default_factory=dict)
    variant: str | None = None             # the variant a pack selected, if any

    def name(self, lang: str = "en") -> str:
        return self.names.get(lang) or self.names.get("en") or self.id


def _where(file: Path, src: Any, path: tuple[str | int, ...]) -> str:
    pos = src.position(path)
    return f"{file}:{pos[0]}:{pos[1]}" if pos else str(file)


MAX_CARD_BYTES = 256 * 1024      # a card file is a few hundred bytes; a script 20,000 chars
MAX_NAME_CHARS = 200             # a name in one language
MAX_TEXT_CHARS = 4000            # a card's printed text in one language
BONUS_RANGE = (0, 9)             # leadership bonus icons on one tile, per track
COST_RANGE = (0, 99)             # a fixed price
ID_PATTERN = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_'&-]{0,63}")


def _show(value: Any) -> str:
    """A value as the user wrote it, short (a huge number is not spelled out)."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 64:
        return f"a number of about {int(value.bit_length() * 0.30103) + 1} digits"
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _kind_of(value: Any) -> str:
    names = {bool: "true/false", int: "a whole number", float: "a decimal number",
             str: "text", list: "a list", dict: "a mapping", type(None): "nothing"}
    return names.get(type(value), type(value).__name__)


def _whole(value: Any, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def _checked(d: dict[Any, Any], at: Callable[[tuple[str | int, ...]], str],
             prefix: str, schema: dict[str, Any] | None = None) -> dict[str, Any]:
    """The card keys present in ``d``, each checked; PackError at the first bad one.

    ``at`` gives a key path's place (file:line:column); ``prefix`` is how the keys are
    named in messages (``""`` in a card file, ``cards.override.ID.`` in a pack)."""
    out: dict[str, Any] = {}
    # the game's card schema (mn_card_schema): its card kinds and what bonuses may name
    kinds = tuple((schema or {}).get("kinds") or ())
    bonus_keys = tuple((schema or {}).get("bonus_keys") or ())

    def bad(path: tuple[str | int, ...], expected: str, value: Any) -> PackError:
        name = prefix + ".".join(str(k) for k in path)
        return PackError(f"{at(path)}: {name}: expected {expected}, got {_kind_of(value)}"
                         + ("" if isinstance(value, list | dict | type(None))
                            else f" {_show(value)}"))

    # a key another game's cards have (Mare Nostrum's bonuses on an Antike II card)
    # would be read by no rule of this one: refused, not silently ignored
    allowed = (schema or {}).get("keys")
    if allowed is not None:
        for key in d:
            if key in CARD_KEYS and key not in allowed:
                raise PackError(f"{at((key,))}: {prefix}{key}: not a key of this game's "
                                f"cards (they hold {', '.join(allowed)})")
    if "id" in d:
        v = d["id"]
        if not isinstance(v, str) or not ID_PATTERN.fullmatch(v):
            raise bad(("id",), "a name of letters, digits and _ (at most 64)", v)
        out["id"] = v
    if "kind" in d:
        v = d["kind"]
        if not isinstance(v, str) or (kinds and v not in kinds):
            hint = suggest(v, kinds) if isinstance(v, str) else None
            raise PackError(f"{at(('kind',))}: {prefix}kind: expected one of {list(kinds)}, "
                            f"got {_show(v)}" + (f"; did you mean {hint!r}?" if hint else ""))
        out["kind"] = v
    if "phase" in d:
        v = d["phase"]
        if v is not None and (not isinstance(v, str) or len(v) > MAX_NAME_CHARS):
            raise bad(("phase",), "the name of a phase", v)
        out["phase"] = v
    if "bonuses" in d:
        v = d["bonuses"] if d["bonuses"] is not None else {}
        if not isinstance(v, dict):
            example = f" ({{{bonus_keys[0]}: 1}})" if bonus_keys else ""
            raise bad(("bonuses",), f"a mapping of tracks to numbers{example}", v)
        for track, n in v.items():
            if bonus_keys and track not in bonus_keys:
                raise PackError(f"{at(('bonuses', track))}: {prefix}bonuses.{track}: unknown "
                                f"track; expected one of {list(bonus_keys)}"
                                + did_you_mean(str(track), bonus_keys))
            if not _whole(n, *BONUS_RANGE):
                raise bad(("bonuses", track), f"a whole number from {BONUS_RANGE[0]} to "
                          f"{BONUS_RANGE[1]}", n)
        out["bonuses"] = {str(k): int(n) for k, n in v.items()}
    for key, most in (("names", MAX_NAME_CHARS), ("text", MAX_TEXT_CHARS)):
        if key not in d:
            continue
        v = d[key] if d[key] is not None else {}
        if not isinstance(v, dict):
            raise bad((key,), "a mapping of languages to text ({en: ...})", v)
        for lang, words in v.items():
            if not isinstance(lang, str) or not ID_PATTERN.fullmatch(lang):
                raise bad((key, lang), "a language code as the key (en, fr, ...)", lang)
            if isinstance(words, int | float) and not isinstance(words, bool):
                words = str(words)          # a name like 1984, as written
            if not isinstance(words, str) or len(words) > most:
                raise bad((key, lang), f"text (at most {most} characters; quote a "
                          f"yes/no/true/false)", words)
            v[lang] = words
        out[key] = {str(k): str(w) for k, w in v.items()}
    if "effects" in d:
        v = d["effects"]
        if v is not None and not isinstance(v, str):
            raise bad(("effects",), "a script (a text block after 'effects: |')", v)
        if not prefix and not (v and any(ln.split("#", 1)[0].strip()
                                         for ln in v.splitlines())):
            raise PackError(f"{at(('effects',))}: effects: the script is empty; write at "
                            f"least one rule, or leave the key out for a card with no power")
        out["effects"] = v
    if "cost" in d:
        v = d["cost"]
        if v is not None and not _whole(v, *COST_RANGE):
            raise bad(("cost",), f"a whole number from {COST_RANGE[0]} to {COST_RANGE[1]}", v)
        out["cost"] = v
    if "copyable" in d:
        v = d["copyable"]
        if not isinstance(v, bool):
            raise bad(("copyable",), "true or false", v)
        out["copyable"] = v
    return out


# What YAML may not hold (as PyYAML's reader has it): control characters and the like.
_NOT_PRINTABLE = re.compile("[^\x09\x0A\x0D\x20-\x7E\x85\xA0-\uD7FF\uE000-\uFFFD"
                            "\U00010000-\U0010FFFF]")


def _read_text(file: Path) -> str:
    """The text of a card file. Only a regular file is read (a named pipe or a device
    would block or never end), at most MAX_CARD_BYTES of it."""
    try:
        fd = os.open(file, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise PackError(f"{file}: cannot read: {exc.strerror or exc}") from None
    with os.fdopen(fd, "rb") as f:
        st = os.fstat(f.fileno())
        if not stat.S_ISREG(st.st_mode):
            what = "a folder" if stat.S_ISDIR(st.st_mode) else \
                "a named pipe" if stat.S_ISFIFO(st.st_mode) else "not a regular file"
            raise PackError(f"{file}: a card must be a regular file, and this is {what}")
        try:
            raw = f.read(MAX_CARD_BYTES + 1)
        except OSError as exc:
            raise PackError(f"{file}: cannot read: {exc.strerror or exc}") from None
    if len(raw) > MAX_CARD_BYTES:
        line = raw.count(b"\n", 0, MAX_CARD_BYTES) + 1
        raise PackError(f"{file}:{line}: a card file may hold at most "
                        f"{MAX_CARD_BYTES // 1024} KiB, and this one goes on past line {line}")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line_start = raw.rfind(b"\n", 0, exc.start) + 1
        line = raw.count(b"\n", 0, exc.start) + 1
        col = len(raw[line_start:exc.start].decode("utf-8", "replace")) + 1
        end = raw.find(b"\n", exc.start)
        source = raw[line_start:end if end >= 0 else len(raw)][:400].decode("utf-8", "replace")
        what = "a binary file, not a card" if b"\0" in raw[:8192] else "not UTF-8 text"
        raise PackError(f"{file}:{line}:{col}: {what} (byte 0x{raw[exc.start]:02X} cannot be "
                        f"read as UTF-8: {exc.reason})" + caret_block(source, col)) from None
    if not text.strip():
        raise PackError(f"{file}: the file is empty; a card is a mapping of keys, at least "
                        f"'id: ...' and 'kind: ...'")
    bad = _NOT_PRINTABLE.search(text)
    if bad is not None:        # YAML refuses them too, but without saying where
        line = text.count("\n", 0, bad.start()) + 1
        col = bad.start() - (text.rfind("\n", 0, bad.start()) + 1) + 1
        what = "a binary file, not a card" if "\0" in text[:8192] else "a control character"
        raise PackError(f"{file}:{line}:{col}: the character U+{ord(bad.group()):04X} may not "
                        f"appear in a card file ({what})"
                        + caret_block(line_of(text, line) or "", col))
    return text


def _load(file: Path, text: str) -> Any:
    """The card's YAML, with positions. A plain number too long for Python to convert
    and nesting too deep to build are refused here, with their place."""
    try:
        return load_yaml(file, text)
    except ValueError as exc:
        found = re.search(r"\d{4000,}", text)
        if found is None:
            raise PackError(f"{file}: {exc}") from None
        line = text.count("\n", 0, found.start()) + 1
        col = found.start() - (text.rfind("\n", 0, found.start()) + 1) + 1
        raise PackError(f"{file}:{line}:{col}: a number of {len(found.group())} digits: no "
                        f"number in a card is that long") from None
    except RecursionError:
        raise PackError(f"{file}: the YAML nests too deeply") from None


def _pointed(exc: PackError, file: Path, text: str) -> PackError:
    """``exc``, which names its place as ``file:line:column:``, with that line of the card
    and a caret under the column (once: an error that shows its line already is kept)."""
    message = str(exc)
    found = re.match(re.escape(str(file)) + r":(\d+):(\d+): ", message)
    if found is None or "\n" in message:
        return exc
    source = line_of(text, int(found.group(1)))
    if source is None:
        return exc
    return PackError(message + caret_block(source, int(found.group(2))))


def read_card(file: Path, schema: dict[str, Any] | None = None) -> CardData:
    """One card file, checked against the game's card schema (``mn_card_schema``); an
    error names its file, line and column, and shows the line with a caret."""
    text = _read_text(file)
    try:
        return _read_card(file, text, schema)
    except PackError as exc:
        raise _pointed(exc, file, text) from None


def _read_card(file: Path, text: str, schema: dict[str, Any] | None) -> CardData:
    src = _load(file, text)
    d = src.data
    if not isinstance(d, dict):
        raise PackError(f"{_where(file, src, ())}: a card must be a mapping of keys, got "
                        f"{_kind_of(d)}")
    for key in d:
        if key not in CARD_KEYS:
            raise PackError(f"{_where(file, src, (key,))}: unknown card key {_show(key)}"
                            + did_you_mean(str(key), CARD_KEYS))
    for key in ("id", "kind"):
        if key not in d:
            raise PackError(f"{_where(file, src, ())}: missing card key {key!r}")
    got = _checked(d, lambda path: _where(file, src, path), "", schema)
    effects = got.get("effects")
    return CardData(id=got["id"], kind=got["kind"], phase=got.get("phase"),
                    bonuses=got.get("bonuses", {}), names=got.get("names", {}),
                    text=got.get("text", {}), file=str(file), effects=effects,
                    effects_at=script_start(file, src, ("effects",), text) if effects
                    else (1, 1),
                    cost=got.get("cost"), extra={"copyable": got.get("copyable", True)},
                    variants=_variants(file, src, text, d.get("variants"), schema))


def _variants(file: Path, src: Any, text: str, value: Any, schema: dict[str, Any] | None
              ) -> dict[str, CardVariant]:
    """A card file's ``variants``: NAME -> {note, and the card keys it changes}."""
    if value is None:
        return {}
    if not isinstance(value, dict) or not value:
        raise PackError(f"{_where(file, src, ('variants',))}: variants: expected a mapping "
                        f"of variant names to {{note: ..., effects: ...}}, got "
                        f"{_kind_of(value)}")
    out: dict[str, CardVariant] = {}
    for name, body in value.items():
        at = ("variants", name)
        if not isinstance(name, str) or not ID_PATTERN.fullmatch(name) or \
                name == DEFAULT_VARIANT:
            raise PackError(f"{_where(file, src, at)}: variants.{name}: a variant's name is "
                            f"letters, digits and _ (at most 64), and not "
                            f"{DEFAULT_VARIANT!r} (which selects the card as printed)")
        if not isinstance(body, dict):
            raise PackError(f"{_where(file, src, at)}: variants.{name}: expected a mapping "
                            f"such as {{note: ..., effects: ...}}, got {_kind_of(body)}")
        for key in body:
            if key not in VARIANT_KEYS:
                expected = f"; expected {', '.join(VARIANT_KEYS)}"
                raise PackError(f"{_where(file, src, (*at, key))}: variants.{name}.{key}: "
                                f"unknown key" + did_you_mean(str(key), VARIANT_KEYS, expected))
        note = body.get("note")
        if not isinstance(note, str) or not note.strip() or len(note) > MAX_TEXT_CHARS:
            raise PackError(f"{_where(file, src, (*at, 'note'))}: variants.{name}.note: "
                            f"expected a text saying what the variant is and where a book "
                            f"prints it" + ("" if note is None else f", got {_show(note)}"))
        def place(path: tuple[str | int, ...], at: tuple[str | int, ...] = at) -> str:
            return _where(file, src, (*at, *path))

        change = _checked({k: v for k, v in body.items() if k != "note"}, place,
                          f"variants.{name}.", schema)
        out[name] = CardVariant(name, note.strip(), change,
                                script_start(file, src, (*at, "effects"), text)
                                if change.get("effects") else (1, 1))
    return out


def use_variant(card: CardData, name: str, where: str) -> CardData:
    """The card as its variant ``name`` has it (``default``: as its file prints it), or a
    PackError at ``where`` (the pack's ``cards.variant.ID``) naming the variants."""
    from dataclasses import replace

    if name == DEFAULT_VARIANT:
        return replace(card, variant=None)
    found = card.variants.get(name)
    if found is None:
        names = [DEFAULT_VARIANT, *card.variants]
        raise PackError(f"{where}: cards.variant.{card.id}: the card has no variant {name!r}"
                        + did_you_mean(name, names)
                        + f" (its variants: {', '.join(names)}; see {card.file})")
    got = found.change
    fields: dict[str, Any] = {"variant": name}
    if "effects" in got:
        fields["effects"] = got["effects"]
        fields["effects_at"] = found.effects_at
    for key in ("names", "text"):
        if key in got:
            fields[key] = {**getattr(card, key), **got[key]}
    if "copyable" in got:
        fields["extra"] = {**card.extra, "copyable": got["copyable"]}
    for key in ("phase", "cost", "bonuses"):
        if key in got:
            fields[key] = got[key]
    return replace(card, **fields)


def script_start(file: Path, src: Any, path: tuple[str, ...],
                 text: str | None = None) -> tuple[int, int]:
    """Line and column of the first character of the script at ``path`` in the file."""
    pos = src.position(path)
    if pos is None:
        return (1, 1)
    lines = (text if text is not None else file.read_text(encoding="utf-8")).splitlines()
    line = pos[0]
    if not 0 < line <= len(lines):
        return (1, 1)
    after = lines[line - 1].split(":", 1)[1].strip() if ":" in lines[line - 1] else ""
    if after.startswith(("|", ">")):
        for i in range(line, len(lines)):
            if lines[i].strip():
                return (i + 1, len(lines[i]) - len(lines[i].lstrip()) + 1)
        return (line + 1, 1)
    return (line, lines[line - 1].index(after) + 1 if after in lines[line - 1] and after
            else 1)


def override(card: CardData, change: dict[str, Any], file: str, src: Any,
             schema: dict[str, Any] | None = None) -> CardData:
    """A card as an edition pack or variant changes it (its script, text, bonuses...)."""
    from dataclasses import replace

    for key in change:
        if key == "variants":
            at = _where(Path(file), src, ("cards", "override", card.id, key))
            raise PackError(f"{at}: cards.override.{card.id}.variants: a card's variants "
                            f"are declared in its file ({card.file}); a pack selects one "
                            f"with cards.variant")
        if key not in CARD_KEYS or key == "id":
            at = _where(Path(file), src, ("cards", "override", card.id, key))
            raise PackError(f"{at}: cards.override.{card.id}.{key}: unknown card key"
                            + did_you_mean(str(key), CARD_KEYS))
    got = _checked(change, lambda path: _where(Path(file), src,
                                               ("cards", "override", card.id, *path)),
                   f"cards.override.{card.id}.", schema)
    fields: dict[str, Any] = {}
    if "effects" in got:
        fields["effects"] = got["effects"]
        fields["file"] = file
        fields["effects_at"] = script_start(Path(file), src, ("cards", "override", card.id,
                                                              "effects"))
    for key in ("names", "text"):
        if key in got:
            fields[key] = {**getattr(card, key), **got[key]}
    if "copyable" in got:
        fields["extra"] = {**card.extra, "copyable": got["copyable"]}
    for key in ("kind", "phase", "cost", "bonuses"):
        if key in got:
            fields[key] = got[key]
    return replace(card, **fields)


def load_cards(dirs: Iterable[Path], schema: dict[str, Any] | None = None
               ) -> dict[str, CardData]:
    """Every card under the given folders, by id, checked against the game's schema."""
    cards: dict[str, CardData] = {}
    for folder in dirs:
        if not Path(folder).is_dir():
            raise PackError(f"{folder}: no such folder of cards")
        for file in sorted(Path(folder).rglob("*.yaml")):
            card = read_card(file, schema)
            if card.id in cards:
                raise PackError(f"{file}: card id {card.id!r} is already used by "
                                f"{cards[card.id].file}")
            cards[card.id] = card
    return cards
