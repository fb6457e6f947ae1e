"""Hero and wonder tiles as data: one YAML document per tile under ``cards/``.

This module reads the declarative part of a card (kind, phase, leadership bonuses,
names, printed text). Its powers are scripts in the effect language.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import PackError
from .resources import data_dir
from .yamlsource import load_yaml, suggest

KINDS = ("starting hero", "hero", "wonder", "pyramids")
TRACKS = ("trade", "culture", "military")
CARD_KEYS = ("id", "kind", "phase", "bonuses", "names", "text", "effects")


@dataclass(frozen=True)
class CardData:
    id: str
    kind: str
    phase: str | None
    bonuses: dict[str, int]
    names: dict[str, str]
    text: dict[str, str]
    file: str
    effects: Any = None
    extra: dict[str, Any] = field(default_factory=dict)

    def name(self, lang: str = "en") -> str:
        return self.names.get(lang) or self.names.get("en") or self.id


def _where(file: Path, src: Any, path: tuple[str | int, ...]) -> str:
    pos = src.position(path)
    return f"{file}:{pos[0]}:{pos[1]}" if pos else str(file)


def read_card(file: Path) -> CardData:
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
    if d["kind"] not in KINDS:
        hint = suggest(str(d["kind"]), KINDS)
        raise PackError(f"{_where(file, src, ('kind',))}: kind: expected one of {list(KINDS)}, "
                        f"got {d['kind']!r}" + (f"; did you mean {hint!r}?" if hint else ""))
    bonuses = d.get("bonuses") or {}
    if not isinstance(bonuses, dict):
        raise PackError(f"{_where(file, src, ('bonuses',))}: bonuses: expected a mapping")
    for track, n in bonuses.items():
        if track not in TRACKS:
            hint = suggest(str(track), TRACKS)
            raise PackError(f"{_where(file, src, ('bonuses', track))}: bonuses.{track}: "
                            f"unknown track" + (f"; did you mean {hint!r}?" if hint else ""))
        if not isinstance(n, int) or n < 0:
            raise PackError(f"{_where(file, src, ('bonuses', track))}: bonuses.{track}: "
                            f"expected a whole number, got {n!r}")
    return CardData(id=str(d["id"]), kind=str(d["kind"]), phase=d.get("phase"),
                    bonuses={str(k): int(v) for k, v in bonuses.items()},
                    names={str(k): str(v) for k, v in (d.get("names") or {}).items()},
                    text={str(k): str(v) for k, v in (d.get("text") or {}).items()},
                    file=str(file), effects=d.get("effects"))


def load_cards(dirs: Iterable[Path] | None = None) -> dict[str, CardData]:
    """Every card under the given folders (the bundled ``cards/`` by default), by id."""
    cards: dict[str, CardData] = {}
    for folder in dirs if dirs is not None else [data_dir("cards")]:
        for file in sorted(Path(folder).rglob("*.yaml")):
            card = read_card(file)
            if card.id in cards:
                raise PackError(f"{file}: card id {card.id!r} is already used by "
                                f"{cards[card.id].file}")
            cards[card.id] = card
    return cards
