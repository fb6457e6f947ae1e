"""Cards as data: one YAML document per card under ``cards/<game>/``.

This module reads the declarative part of a card (kind, phase, leadership bonuses,
names, printed text). Its powers are scripts in the effect language.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import PackError
from .yamlsource import load_yaml, suggest

CARD_KEYS = ("id", "kind", "phase", "bonuses", "names", "text", "effects", "cost", "copyable")


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

    def name(self, lang: str = "en") -> str:
        return self.names.get(lang) or self.names.get("en") or self.id


def _where(file: Path, src: Any, path: tuple[str | int, ...]) -> str:
    pos = src.position(path)
    return f"{file}:{pos[0]}:{pos[1]}" if pos else str(file)


def read_card(file: Path, schema: dict[str, Any] | None = None) -> CardData:
    """One card file, checked against the game's card schema (``mn_card_schema``: its
    ``kinds`` and the ``bonus_keys`` a card's bonuses may name)."""
    kinds = tuple((schema or {}).get("kinds") or ())
    bonus_keys = tuple((schema or {}).get("bonus_keys") or ())
    src = load_yaml(file)
    d = src.data
    if not isinstance(d, dict):
        raise PackError(f"{file}: a card must be a mapping of keys")
    for key in d:
        if key not in CARD_KEYS:
            hint = suggest(str(key), CARD_KEYS)
            raise PackError(f"{_where(file, src, (key,))}: unknown card key {key!r}"
                            + (f"; did you mean {hint!r}?" if hint else ""))
    for key in ("id", "kind"):
        if key not in d:
            raise PackError(f"{file}: missing card key {key!r}")
    if kinds and d["kind"] not in kinds:
        hint = suggest(str(d["kind"]), kinds)
        raise PackError(f"{_where(file, src, ('kind',))}: kind: expected one of {list(kinds)}, "
                        f"got {d['kind']!r}" + (f"; did you mean {hint!r}?" if hint else ""))
    bonuses = d.get("bonuses") or {}
    if not isinstance(bonuses, dict):
        raise PackError(f"{_where(file, src, ('bonuses',))}: bonuses: expected a mapping")
    for track, n in bonuses.items():
        if track not in bonus_keys:
            hint = suggest(str(track), bonus_keys)
            raise PackError(f"{_where(file, src, ('bonuses', track))}: bonuses.{track}: "
                            f"unknown track" + (f"; did you mean {hint!r}?" if hint else ""))
        if not isinstance(n, int) or n < 0:
            raise PackError(f"{_where(file, src, ('bonuses', track))}: bonuses.{track}: "
                            f"expected a whole number, got {n!r}")
    effects = d.get("effects")
    if effects is not None and not isinstance(effects, str):
        raise PackError(f"{_where(file, src, ('effects',))}: effects: expected a script "
                        f"(a text block after 'effects: |'), got {type(effects).__name__}")
    cost = d.get("cost")
    if cost is not None and (not isinstance(cost, int) or cost < 0):
        raise PackError(f"{_where(file, src, ('cost',))}: cost: expected a whole number")
    return CardData(id=str(d["id"]), kind=str(d["kind"]), phase=d.get("phase"),
                    bonuses={str(k): int(v) for k, v in bonuses.items()},
                    names={str(k): str(v) for k, v in (d.get("names") or {}).items()},
                    text={str(k): str(v) for k, v in (d.get("text") or {}).items()},
                    file=str(file), effects=effects,
                    effects_at=script_start(file, src, ("effects",)) if effects else (1, 1),
                    cost=cost, extra={"copyable": d.get("copyable", True)})


def script_start(file: Path, src: Any, path: tuple[str, ...]) -> tuple[int, int]:
    """Line and column of the first character of the script at ``path`` in the file."""
    pos = src.position(path)
    if pos is None:
        return (1, 1)
    lines = file.read_text(encoding="utf-8").splitlines()
    line = pos[0]
    after = lines[line - 1].split(":", 1)[1].strip() if ":" in lines[line - 1] else ""
    if after.startswith(("|", ">")):
        for i in range(line, len(lines)):
            if lines[i].strip():
                return (i + 1, len(lines[i]) - len(lines[i].lstrip()) + 1)
        return (line + 1, 1)
    return (line, lines[line - 1].index(after) + 1 if after else 1)


def override(card: CardData, change: dict[str, Any], file: str, src: Any) -> CardData:
    """A card as an edition pack or variant changes it (its script, text, bonuses...)."""
    from dataclasses import replace

    for key in change:
        if key not in CARD_KEYS or key == "id":
            hint = suggest(str(key), CARD_KEYS)
            at = _where(Path(file), src, ("cards", "override", card.id, key))
            raise PackError(f"{at}: cards.override.{card.id}.{key}: unknown card key"
                            + (f"; did you mean {hint!r}?" if hint else ""))
    fields: dict[str, Any] = {}
    if "effects" in change:
        effects = change["effects"]
        if effects is not None and not isinstance(effects, str):
            raise PackError(f"{file}: cards.override.{card.id}.effects: expected a script")
        fields["effects"] = effects
        fields["file"] = file
        fields["effects_at"] = script_start(Path(file), src, ("cards", "override", card.id,
                                                              "effects"))
    for key in ("names", "text"):
        if key in change:
            fields[key] = {**getattr(card, key), **{str(k): str(v) for k, v in
                                                    change[key].items()}}
    if "bonuses" in change:
        fields["bonuses"] = {str(k): int(v) for k, v in change["bonuses"].items()}
    for key in ("kind", "phase", "cost"):
        if key in change:
            fields[key] = change[key]
    return replace(card, **fields)


def load_cards(dirs: Iterable[Path], schema: dict[str, Any] | None = None
               ) -> dict[str, CardData]:
    """Every card under the given folders, by id."""
    cards: dict[str, CardData] = {}
    for folder in dirs:
        for file in sorted(Path(folder).rglob("*.yaml")):
            card = read_card(file, schema)
            if card.id in cards:
                raise PackError(f"{file}: card id {card.id!r} is already used by "
                                f"{cards[card.id].file}")
            cards[card.id] = card
    return cards
