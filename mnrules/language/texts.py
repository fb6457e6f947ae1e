"""The effect language's texts in a pack's language: a ``words.yaml`` beside the pack file.

A card's text is generated from its script (:mod:`mnrules.language.explain`); English is
the vocabulary's own, every other language is data a translator edits without Python::

    format: mnrules-words/1
    language: fr
    frames:                      # the language's sentences (explain.ENGLISH), same {fields}
      add: "ajoutez {value}"
    words:                       # by kind, the word's pattern: its text, same {placeholders}
      condition:
        land battle: "c'est une bataille terrestre"
      item:
        "{unit}": {legion: "une légion", fortress: "une forteresse", _: "un {unit}"}
    whose:                       # who an event's player is, by event word
      built: "l'acheteur"
    names:                       # names the pack's own ``names`` lack (units)
      units: {legion: légion}
    contractions:                # words that join where they meet, whole words only
      - [que un, "qu'un"]

A text may be a mapping from its first named placeholder's value to the form that value
needs (a gender, a case), ``_`` for the others. The texts of a language are gathered from
the rule set's own packs (most derived first: a modder's pack adds the words of its own
plugin) and then the game's bundled pack written in that language.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from ..content.yamlsource import Sourced, did_you_mean, load_yaml
from ..errors import MnrulesError, PackError
from .explain import ENGLISH, FRAME_FIELDS, SLOT_FIELD, Texts
from .words import KINDS, Vocabulary

FILE = "words.yaml"
UNSHOWN = ("resource", "holder")
"""Kinds of word a card's text never shows: resources (the pack's goods' names serve) and
holders (who else holds a card's power: the engine's, not the script's)."""
FORMAT = "mnrules-words/1"
KEYS = ("format", "language", "frames", "words", "whose", "names", "contractions")
MAX_TEXT = 1000



def _text(src: Sourced, path: tuple[str | int, ...], value: Any, fields: frozenset[str] | None
          ) -> str:
    """A text of the file, checked: a string, not too long, naming only ``fields``."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        value = str(value)
    key = ".".join(str(p) for p in path)
    if not isinstance(value, str) or not value.strip() or len(value) > MAX_TEXT:
        raise PackError(f"{src.at(path)}: {key}: expected a text (1 to {MAX_TEXT} "
                        f"characters; quote a yes/no/true/false), got {value!r:.60}")
    if fields is not None:      # '{name:phases}' is the {name} placeholder, named as phases
        for name in re.findall(r"\{(\w+)(?::\w+)?\}", value):
            if name not in fields:
                known = ", ".join("{" + f + "}" for f in sorted(fields)) or "none"
                raise PackError(f"{src.at(path)}: {key}: the text names {{{name}}}, "
                                f"which this text does not have (it has: {known})")
    return value


def _mapping(src: Sourced, path: tuple[str | int, ...], value: Any, what: str
             ) -> dict[Any, Any]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise PackError(f"{src.at(path)}: {'.'.join(str(p) for p in path)}: expected "
                        f"{what}, got {type(value).__name__}")
    return value


def _placeholders(pattern: str) -> frozenset[str]:
    return frozenset(SLOT_FIELD.findall(pattern))


def read_texts(file: Path) -> tuple[str, dict[str, Any]]:
    """A ``words.yaml``, checked: (its language, its sections)."""
    src = load_yaml(file)
    data = src.data
    if not isinstance(data, dict):
        raise PackError(f"{file}: a words file is a mapping with the keys {', '.join(KEYS)}")
    for key in data:
        if key not in KEYS:
            raise PackError(f"{src.at((key,))}: unknown key {key!r}"
                            + did_you_mean(str(key), KEYS, f"; expected {', '.join(KEYS)}"))
    if data.get("format") != FORMAT:
        raise PackError(f"{src.at(('format',))}: format: expected {FORMAT!r}, got "
                        f"{data.get('format')!r:.40}")
    lang = data.get("language")
    if not isinstance(lang, str) or not lang.isidentifier():
        raise PackError(f"{src.at(('language',))}: language: expected a language code "
                        f"(fr, nl...), got {lang!r:.40}")
    frames: dict[str, str] = {}
    for key, text in _mapping(src, ("frames",), data.get("frames"), "a mapping").items():
        if key not in ENGLISH:
            raise PackError(f"{src.at(('frames', key))}: frames.{key}: no such sentence"
                            + did_you_mean(str(key), ENGLISH))
        frames[key] = _text(src, ("frames", key), text, FRAME_FIELDS[key])
    words: dict[str, dict[str, Any]] = {}
    for kind, entries in _mapping(src, ("words",), data.get("words"), "a mapping").items():
        if kind not in KINDS:
            raise PackError(f"{src.at(('words', kind))}: words.{kind}: no such kind of word"
                            + did_you_mean(str(kind), KINDS))
        out: dict[str, Any] = {}
        for pattern, text in _mapping(src, ("words", kind), entries, "a mapping").items():
            at = ("words", kind, pattern)
            fields = _placeholders(str(pattern)) if kind not in ("quantity", "event") \
                else frozenset()
            if isinstance(text, dict):
                out[str(pattern)] = {str(v): _text(src, (*at, v), t, fields)
                                     for v, t in text.items()}
            else:
                out[str(pattern)] = _text(src, at, text, fields)
        words[str(kind)] = out
    whose = {str(k): _text(src, ("whose", k), v, frozenset())
             for k, v in _mapping(src, ("whose",), data.get("whose"), "a mapping").items()}
    names: dict[str, dict[str, str]] = {}
    for kind, entries in _mapping(src, ("names",), data.get("names"), "a mapping").items():
        names[str(kind)] = {str(i): _text(src, ("names", kind, i), t, frozenset())
                            for i, t in _mapping(src, ("names", kind), entries,
                                                 "a mapping of ids to names").items()}
    contractions: list[tuple[str, str]] = []
    pairs = data.get("contractions") or []
    if not isinstance(pairs, list):
        raise PackError(f"{src.at(('contractions',))}: contractions: expected a list of "
                        f"[written, joined] pairs, such as ['que un', \"qu'un\"]")
    for i, pair in enumerate(pairs):
        if not isinstance(pair, list) or len(pair) != 2:
            raise PackError(f"{src.at(('contractions', i))}: contractions[{i}]: expected "
                            f"a pair [written, joined], got {pair!r:.60}")
        contractions.append((_text(src, ("contractions", i, 0), pair[0], frozenset()),
                             _text(src, ("contractions", i, 1), pair[1], frozenset())))
    return lang, {"frames": frames, "words": words, "whose": whose, "names": names,
                  "contractions": contractions}


def _pack_files(rules: Any, lang: str) -> list[Path]:
    """The pack files whose ``words.yaml`` may hold ``lang``: the rule set's chain (most
    derived first), then the game's bundled pack in that language and its chain."""
    from ..content import packs

    files = [Path(f) for f in getattr(rules, "chain", [])]
    game = rules.data.get("game")
    for pack, qualified in packs.list_packs().items():
        if pack != qualified:
            continue
        try:
            source = packs.read(pack)
        except MnrulesError:
            continue
        if source.data.get("game") == game and source.data.get("language") == lang:
            files += [Path(f) for f in source.chain]
    return list(dict.fromkeys(files))


def languages(rules: Any) -> list[str]:
    """The languages a card's text can be written in under ``rules``: English and those
    of the ``words.yaml`` of its packs and of the game's bundled packs."""
    from ..content import packs

    found = {"en"}
    game = rules.data.get("game")
    files = [Path(f) for f in getattr(rules, "chain", [])]
    for pack, qualified in packs.list_packs().items():
        if pack == qualified:
            try:
                source = packs.read(pack)
            except MnrulesError:
                continue
            if source.data.get("game") == game:
                files.append(Path(source.chain[0]))
    for f in files:
        if (f.parent / FILE).is_file():
            found.add(read_texts(f.parent / FILE)[0])
    return sorted(found)


def load_texts(rules: Any, lang: str | None = None) -> Texts:
    """The texts to write ``rules``' cards in ``lang`` (default: the pack's language, or
    English if no pack gives texts in it), with that language's names for goods, empires,
    tracks, units and cards; a language asked that no pack has texts for is refused,
    naming those that have."""
    from ..content import packs

    asked = bool(lang)
    lang = lang or str(rules.data.get("language", "en"))
    frames: dict[str, str] = dict(ENGLISH) if lang == "en" else {}
    words: dict[str, dict[str, Any]] = {}
    whose: dict[str, str] = {}
    names: dict[str, dict[str, str]] = {}
    contractions: list[tuple[str, str]] = []
    found = lang == "en"
    for pack_file in _pack_files(rules, lang):
        file = pack_file.parent / FILE
        if not file.is_file():
            continue
        file_lang, got = read_texts(file)
        if file_lang != lang:
            continue
        found = True
        for key, text in got["frames"].items():
            frames.setdefault(key, text)
        for kind, entries in got["words"].items():
            for pattern, text in entries.items():
                words.setdefault(kind, {}).setdefault(pattern, text)
        for key, text in got["whose"].items():
            whose.setdefault(key, text)
        for kind, entries in got["names"].items():
            for i, text in entries.items():
                names.setdefault(kind, {}).setdefault(i, text)
        contractions += [c for c in got["contractions"] if c not in contractions]
    if not found and not asked:        # the pack's language has no texts yet: English
        return load_texts(rules, "en")
    if not found:
        known = languages(rules)
        raise MnrulesError(f"--lang: no texts in {lang!r} for this game's cards"
                           + did_you_mean(lang, known)
                           + f" (written in: {', '.join(known)}; a pack gives a language "
                             f"in a {FILE} beside its pack.yaml)")
    # the pack's names in that language: the rule set's own if it is written in it
    pack_names: dict[str, dict[str, str]] = {}
    if str(rules.data.get("language", "en")) == lang:
        pack_names = dict(rules.names_by_kind)
    else:
        for pack_file in _pack_files(rules, lang):
            try:
                data = packs.read(pack_file).data
            except MnrulesError:
                continue
            if data.get("language") == lang:
                pack_names = packs.name_kinds(data.get("names") or {})
                break
    for kind, entries in pack_names.items():
        for i, text in entries.items():
            names.setdefault(kind, {}).setdefault(i, text)
    cards = {cid: card.name(lang) for cid, card in rules.cards.items()}
    return Texts(lang, {**ENGLISH, **frames} if lang == "en" else frames, words, whose, names,
                 cards, tuple(contractions))


def missing_texts(texts: Texts, vocab: Vocabulary, stale: bool = True) -> list[str]:
    """What a language lacks to write every card of ``vocab``: each sentence and each
    word (quantities and events included) without a text, and each event with a player
    but no 'whose'; with ``stale``, also each text for no word (one the vocabulary
    dropped: harmless, but a translator's leftover)."""
    out = [f"frames.{k}" for k in ENGLISH if k not in texts.frames]
    for kind in KINDS:
        if kind in UNSHOWN:
            continue
        have = texts.words.get(kind, {})
        patterns = {w.pattern for w in vocab.words(kind)}
        out += [f"words.{kind}.{p}" for p in sorted(patterns - set(have))]
        if stale:
            out += [f"words.{kind}.{p}: no such word" for p in sorted(set(have) - patterns)]
    for w in vocab.words("event"):
        if w.whose and w.pattern not in texts.whose:
            out.append(f"whose.{w.pattern}")
    return out


def bundled_languages(game_dir: Path) -> dict[str, Path]:
    """The ``words.yaml`` files of a game's bundled packs, by language."""
    out: dict[str, Path] = {}
    for folder in sorted(p for p in game_dir.iterdir() if p.is_dir()):
        if (folder / FILE).is_file():
            out[read_texts(folder / FILE)[0]] = folder / FILE
    return out

