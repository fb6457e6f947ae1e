"""What a player reads, for every front end (the terminal, the web app, ``play``'s
summaries, the board picture): each event, decision and option as a sentence in a
language, with the pack's names.

The kernel knows no game's words. A game says its sentences through the presentation
hooks (``mn_event_text``, ``mn_option_text``, ``mn_prompt_text``, ``mn_table``...), each
built with a :class:`Presenter`: the pack's names by kind in the language asked and the
*messages* of that language, templates read from ``messages.yaml`` files beside the
packs (``editions/<game>/<pack>/messages.yaml``), the base pack's first, then each pack
of the chain and the language's own pack over it. A template names its values in braces
(``"{player} moves a {unit} from {from} to {to}"``); nothing else in it is code.

What no hook answers still reaches a player as words, never as a dict, a tuple or an
internal id: :func:`plain` spells any value out with the names it knows.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..content.yamlsource import did_you_mean, load_yaml
from ..errors import MnrulesError, PackError

if TYPE_CHECKING:
    from ..content.ruleset import Ruleset
    from ..core.effects import Event
    from ..core.engine import Decision, Game

MESSAGES_FILE = "messages.yaml"
FORMAT = "mnrules-messages/1"
PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)(?::([^{}:\s]+))?\}")
"""``{name}``, or ``{name:CASE}``: the value in a grammatical case of the language (a
messages file's ``cases``: a preposition that gives a country its article, a city none)."""
MAX_TEMPLATE = 400

# The kernel's own sentences, in English, for what every game has (rounds, phases,
# the end, yes/no, the front ends' buttons). A pack's messages file overrides any of
# them in its language; a game adds its own keys.
KERNEL_MESSAGES: dict[str, str] = {
    "ui.round": "Round {round}",
    "ui.round_phase": "Round {round}, {phase}",
    "ui.setup": "setting up",
    "ui.your_turn": "{player}, your turn: {prompt}",
    "ui.waiting": "Waiting for {player}: {prompt}",
    "ui.waiting_hidden": "Waiting for {player}",
    "ui.undo": "Undo",
    "ui.undone": "Your last choice is undone.",
    "ui.cannot_undo": "Nothing of yours to undo (another player chose, or a die was "
                      "rolled, since).",
    "ui.save": "Save",
    "ui.load": "Load",
    "ui.log": "What happened",
    "ui.options": "Your choices",
    "ui.form_edition": "Edition",
    "ui.form_language": "Language",
    "ui.form_players": "Players",
    "ui.form_seed": "Seed",
    "ui.form_start": "Start",
    "ui.form_load_title": "Load a save",
    "ui.form_load": "Load",
    "ui.form_play_all": "Play (every human seat at this screen)",
    "ui.seat_human": "a human",
    "ui.bot_random": "random bot",
    "ui.bot_heuristic": "heuristic bot",
    "ui.bot_search": "search bot (MCTS)",
    "ui.replay_open": "Open",
    "ui.replay_prev_round": "<< round",
    "ui.replay_prev": "< choice",
    "ui.replay_next": "choice >",
    "ui.replay_next_round": "round >>",
    "ui.replay_where": "choice {step} of {steps} (round {round})",
    "ui.nav_new": "New game",
    "ui.nav_replay": "Replay a log",
    "ui.nav_editor": "Card editor",
    "ui.nav_design": "Simulate",
    "ui.nobody": "nobody",
    "ui.none": "none",
    "ui.and": "and",
    "ui.or": "or",
    "ui.language_name": "English",      # the language's own name, where one is picked
    "ui.labelled": "{label}: {value}",
    "ui.list_sep": "; ",
    "ui.yes": "yes",
    "ui.no": "no",
    "ui.game_over": "Game over: {winners} won — {victory}.",
    "ui.game_over_nobody": "Game over: nobody won ({victory}).",
    "ui.quit": "Game left.",
    "ui.help": "Type an option's key or words that pick out one option; v shows the "
               "board, s your screen, l lists the options again, u undoes your last "
               "choice, h helps, q quits.",
    "ui.pick_one": "Type an option's key or words that pick out one option (h for help).",
    "ui.no_key": "There is no option {number} now; the options are {keys}.",
    "ui.ambiguous": "“{text}” fits options {keys}: type one of their keys.",
    "ui.no_match": "No option reads “{text}” (h for help).",
    "ui.same_options": "(the same choices as above: l lists them again)",
    "ui.blank": "blank",
    "ui.refused_over": "The game is over: there is nothing left to choose.",
    "ui.refused_not_yours": "It is not your decision: wait for your turn.",
    "ui.refused_moved_on": "The game has moved on since you looked: look again and choose.",
    "ui.refused_no_option": "That is not one of your options: look again and choose.",
    "ui.refused_full": "This server keeps at most {limit} games and holds as many: no new "
                       "game can start here.",
    "ui.refused_bot_budget": "{player}: the bot {bot} searches more than this server "
                             "allows (at most {limit} iterations a decision): choose "
                             "another bot.",
    "ui.refused_save_host": "Only the host's link saves the game (a save holds every "
                            "screen).",
    "ui.refused_log_host": "Only the host's link takes the log of a game in play; every "
                           "seat may once it is over.",
    "ui.busy": "The server is busy: try again in a moment.",
    "ui.download_log": "Log",
    "ui.nav_lobby": "Lobby",
    "ui.options_narrow": "Show only",
    "ui.options_all": "every choice",
    "ui.turn_title": "Your turn",
    "ui.turn_sound": "Play a sound when it is my turn",
    "ui.turn_notify": "Notify me when it is my turn",
    "ui.board_label": "The board (arrow keys scroll it, + and - zoom)",
    "ui.zoom": "Zoom of the board",
    "ui.zoom_in": "Zoom in",
    "ui.zoom_out": "Zoom out",
    "ui.zoom_reset": "Actual size",
    "ui.watching": "spectator",
    "ui.undo_why_over": "The game is over: nothing can be undone.",
    "ui.undo_why_none": "You have no choice to undo: none since the last die roll, draw "
                        "or other player's choice.",
    "ui.undo_why_drawn": "Your last choice cannot be undone: a die was rolled or a card "
                         "drawn since.",
    "ui.undo_why_other": "Your last choice cannot be undone: another player has chosen since.",
    "ui.refused_seat_taken": "This seat is taken, or the game is over: pick another free seat.",
    "ui.lobby_title": "Open games",
    "ui.lobby_none": "No game has a free seat now: start one with “In the lobby” ticked.",
    "ui.lobby_join": "Join",
    "ui.lobby_watch": "Watch",
    "ui.lobby_free": "free seat",
    "ui.lobby_bot": "bot",
    "ui.lobby_human": "taken",
    "ui.lobby_refresh": "Refresh",
    "ui.form_hotseat": "Hotseat: this screen plays every human seat",
    "ui.form_lobby": "In the lobby: friends join the free human seats",
    "ui.form_watch": "Spectator link (what every player sees)",
    "ui.form_play_own": "Play your seat",
    "ui.form_file": "Save file",
    "ui.replay_file": "Log file",
    "play.header": "mnrules: {game}; {players_count} ({players}); seed {seed}",
    "play.over.one": "Game over {where}: the winner is {winners} — {victory}",
    "play.over.other": "Game over {where}: the winners are {winners} — {victory}",
    "play.over_nobody": "Game over {where}: nobody won ({victory})",
    "replay.done": "{file}: {choices} replayed, {chances} checked.",
    "replay.written": "The final state is written to {file}.",
    "replay.divergence": "The log and the rules diverge: {divergence}",
    "audit.done": "{file}: {choices} audited, {findings}.",
    "audit.divergence": "The log leaves the rules: {divergence}.",
    "audit.finding": "{file}: round {round}: {text}",
    "play.no_victory": "no victory",
    "play.stopped": "Stopped {where}; no winner yet.",
    "play.in_round": "in round {round} ({phase} phase)",
    "play.after_rounds": "after {rounds}",
    "play.at_start": "at the start of round {round}",
    "play.saved": "saved to {file} (round {round})",
    "cards.bonuses": "bonuses: {bonuses}",
    "cards.text": "text: {text}",
    "cards.explained": "text (from its script): {text}",
    "editor.fired": "★ {card}: {rule}",
    "editor.changed": "★ {card} makes {quantity} {after} (it was {before}).",
    "cards.others_broken": "Other card files of the folder have errors and were left "
                           "out: {files}.",
    "plural.player.one": "{n} player",
    "plural.player.other": "{n} players",
    "plural.round.one": "{n} round",
    "plural.round.other": "{n} rounds",
    "plural.choice.one": "{n} choice",
    "plural.choice.other": "{n} choices",
    "plural.chance.one": "{n} die roll or draw",
    "plural.finding.one": "{n} finding",
    "plural.finding.other": "{n} findings",
    "plural.chance.other": "{n} die rolls and draws",
    "event.phase_start": "— {phase} —",
    "decision.card.may": "{player}, {card}: do you use it?",
    "decision.card.choose": "{player}, {card}: choose",
    "decision.card.who": "{player}, {card}: which player?",
    "decision.any": "{player}: choose",
}

# The ends the kernel itself gives a game (mnrules/core/flow.py), named like a game's victories
# so that "nobody won (...)" reads as words; a pack names them in its language under
# ``names: {victories: ...}`` of its messages file.
KERNEL_NAMES: dict[str, dict[str, str]] = {
    "victories": {"round cap": "round limit reached",
                  "no decision": "nothing left to decide"},
}


@dataclass
class Presenter:
    """Names and sentences of one language for one rule set."""

    rules: Ruleset
    language: str
    messages: dict[str, str]
    names: dict[str, dict[str, str]]
    player_kind: str = ""
    roman_kinds: frozenset[str] = frozenset()
    notes: dict[str, Any] = field(default_factory=dict)
    cases: dict[str, dict[str, str]] = field(default_factory=dict)
    _explained: dict[str, str] = field(default_factory=dict, repr=False)
    _writer: Any = field(default=None, repr=False)

    # -- words -------------------------------------------------------------------------
    def say(self, key: str, **values: Any) -> str:
        """The template ``key`` with its values spelt out (a missing value stays empty)."""
        template = self.messages.get(key)
        if template is None:
            return ""
        return elide(self.language,
                     PLACEHOLDER.sub(lambda m: self._fill(m, values), template))

    def _fill(self, m: re.Match[str], values: dict[str, Any]) -> str:
        text = self.plain(values.get(m.group(1), ""))
        case = m.group(2)
        if not case or not text:
            return text
        forms = self.cases.get(case, {})
        return forms.get(text) or forms.get("default", "{name}").replace("{name}", text)

    def pack_name(self) -> str:
        """The played pack's name in this language: its own ``name``, or under another
        language (``--lang``) the name that language's messages give it (``names:
        packs:``), so that a header reads in one language."""
        pid = str(self.rules.data.get("id", ""))
        own = str(self.rules.data.get("name", self.rules.pack))
        if self.language == self.rules.language:
            return own
        return self.names.get("packs", {}).get(pid, own)

    def has(self, key: str) -> bool:
        return key in self.messages

    def name(self, key: Any, kind: str | None = None) -> str:
        """The name of an id: of its kind when given, else of whatever kind names it."""
        key = str(key)
        if kind is not None:
            found = self.names.get(kind, {}).get(key)
            if found is not None:
                return found
        for by_id in self.names.values():
            if key in by_id:
                return by_id[key]
        return place_name(key)

    def player(self, player: str | None) -> str:
        if not player:
            return self.say("ui.nobody")
        return self.name(player, self.player_kind or None)

    def players(self, players: Iterable[str]) -> str:
        return self.join([self.player(p) for p in players]) or self.say("ui.nobody")

    def join(self, items: Sequence[str], word: str = "ui.and") -> str:
        """``a, b and c`` in this language (``word="ui.or"``: ``a, b or c``)."""
        items = [i for i in items if i]
        if len(items) <= 1:
            return "".join(items)
        return f"{', '.join(items[:-1])} {self.say(word)} {items[-1]}"

    def count(self, n: int, word: str, kind: str | None = None, case: str = "") -> str:
        """``n`` things of ``word`` with the language's plural (``2 легиона``, ``5
        легионов``): the template ``plural.WORD.CATEGORY`` of its messages (``{n}`` the
        number), the category by :func:`plural_category`; else its ``other`` form, else
        the number and the name. A ``case`` a verb governs (``"acc"``: ``потерять 1
        галеру``) is looked for first, as ``plural.WORD.CASE.CATEGORY``."""
        category = plural_category(self.language, n)
        words = [f"{word}.{case}", word] if case else [word]
        for w in words:
            for key in (f"plural.{w}.{category}", f"plural.{w}.other"):
                if key in self.messages:
                    return self.say(key, n=n)
        return f"{n} {self.name(word, kind)}"

    def counted(self, key: str, n: int, **values: Any) -> str:
        """The template ``key.CATEGORY`` for a sentence whose words agree with the number
        ``n`` ("the winner is" / "the winners are"), else ``key.other``."""
        for category in (plural_category(self.language, n), "other"):
            if f"{key}.{category}" in self.messages:
                return self.say(f"{key}.{category}", n=n, **values)
        return self.say(key, n=n, **values)

    def number(self, n: int, kind: str = "") -> str:
        """A number as players know it: Roman where the books print that kind so."""
        if kind in self.roman_kinds:
            return roman(n) if n > 0 else self.say("ui.blank")
        return str(n)

    def plain(self, value: Any) -> str:
        """Any value in words: names for ids, lists joined, numbers as numbers."""
        if isinstance(value, str):
            return value
        if isinstance(value, bool):
            return self.say("ui.yes" if value else "ui.no")
        if isinstance(value, int):
            return str(value)
        if isinstance(value, Mapping):
            return self.join([f"{self.plain(v)} {self.name(k)}" if isinstance(v, int)
                              else f"{self.name(k)}: {self.plain(v)}"
                              for k, v in value.items()])
        if isinstance(value, Iterable):
            return " ".join(self.plain(v) if not isinstance(v, str) else self.name(v)
                            for v in value)
        return str(value)

    # -- what the game says --------------------------------------------------------------
    def event(self, game: Game[Any], event: Event, viewer: str | None) -> str:
        """``event`` as ``viewer`` may read it ("" when he is told nothing of it; None:
        an onlooker who sees only what is public)."""
        text = game.rules.definition.presentation.event_text(say=self, game=game,
                                                             event=event, viewer=viewer)
        if text is not None:
            return str(text)
        if event.kind == "phase_start":
            return self.say("event.phase_start",
                            phase=self.name(event.data.get("phase", ""), "phases"))
        if event.kind == "game_over":
            return self.outcome(event.data.get("winners") or [],
                                str(event.data.get("victory") or ""))
        return self.declared_event(game, event)

    def declared_event(self, game: Game[Any], event: Event) -> str:
        """An event the game has no sentence for (a variant plugin's own), told as its
        declaration says: its message (``event.<kind>``, or the key it names) in this
        pack's language with its data, else its declared meaning; "" for an event
        declared untold or not declared at all."""
        contract = getattr(game.rules.pm, "contract", None)
        declared = contract.events.get(event.kind) if contract is not None else None
        if declared is None or not declared.told:
            return ""
        key = declared.message or f"event.{event.kind}"
        who = self.player(event.player) if event.player else ""
        if self.has(key):
            return self.say(key, player=who, **{str(k): v for k, v in event.data.items()})
        if who and self.has("event.declared"):
            return self.say("event.declared", player=who, meaning=declared.meaning)
        return f"{who}: {declared.meaning}" if who else declared.meaning

    def outcome(self, winners: Sequence[str], victory: str) -> str:
        won = self.name(victory, "victories")
        if winners:  # "Rome gagne", "Rome et Grèce gagnent"
            return self.counted("ui.game_over", len(winners), winners=self.players(winners),
                                victory=won)
        return self.say("ui.game_over_nobody", victory=won)

    def prompt(self, game: Game[Any], decision: Decision) -> str:
        text = game.rules.definition.presentation.prompt_text(say=self, game=game,
                                                              decision=decision)
        if text is not None:
            return str(text)
        values: dict[str, Any] = {"player": self.player(decision.player)}
        if decision.kind.startswith("card."):
            values["card"] = self.card_name(_frame_card(game))
        key = f"decision.{decision.kind}"
        return self.say(key if self.has(key) else "decision.any", **values)

    def option(self, game: Game[Any], decision: Decision, option: Any) -> str:
        text = game.rules.definition.presentation.option_text(say=self, game=game,
                                                              decision=decision, option=option)
        if text is None:
            from .steps import card_option_text  # a card's own choice, in its words

            text = card_option_text(self, game, decision, option)
        if text is not None:
            return str(text)
        if option in ("yes", "no"):
            return self.say(f"ui.{option}")
        if isinstance(option, tuple):
            return " ".join(self.name(x) if isinstance(x, str) else self.plain(x)
                            for x in option)
        return self.name(option) if isinstance(option, str) else self.plain(option)

    def options(self, game: Game[Any], decision: Decision) -> list[str]:
        return [self.option(game, decision, o) for o in decision.options]

    def card_name(self, card: str | None) -> str:
        if not card:
            return ""
        data = self.rules.cards.get(card.split("#")[0].removeprefix("card:"))
        return data.name(self.language) if data is not None else place_name(card)

    def card_text(self, card: str) -> str:
        """A card's power in this language: its printed text, or, where the card prints
        none in it, what its script says in this language's words (the effect language's
        explanation), else its text in English."""
        data = self.rules.cards.get(card)
        if data is None:
            return ""
        printed = data.text.get(self.language)
        if printed:
            return printed
        if card not in self._explained:
            self._explained[card] = self._explain(data) or data.text.get("en", "")
        return self._explained[card]

    def explainer(self) -> Any:
        """The effect language's explainer in this language (made once): what words a
        card's script in the player's language, its rules and a choice's options."""
        if self._writer is None:
            from ..content.ruleset import vocabulary
            from .explain import Explainer
            from .texts import load_texts

            self._writer = Explainer(vocabulary(self.rules),
                                     load_texts(self.rules, self.language))
        return self._writer

    def _explain(self, data: Any) -> str:
        try:
            if not data.effects:   # a card without a power says so in this language
                return str(self.explainer().texts.frame("no power"))
            from .syntax import parse_script

            writer = self.explainer()
            return " ".join(writer.rule(r) for r in
                            parse_script(data.effects, data.file, *data.effects_at))
        except (ImportError, MnrulesError, AttributeError, TypeError, KeyError, ValueError):
            return ""


def _frame_card(game: Game[Any]) -> str | None:
    stack = game.state.stack
    return str(stack[-1].get("card")) if stack and stack[-1].get("card") else None


def roman(n: int) -> str:
    """``n`` in Roman numerals (nothing for 0: a caller says how its zero is shown)."""
    out = []
    for value, letters in ((1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"),
                           (90, "XC"), (50, "L"), (40, "XL"), (10, "X"), (9, "IX"),
                           (5, "V"), (4, "IV"), (1, "I")):
        while n >= value:
            out.append(letters)
            n -= value
    return "".join(out)


def _slavic(n: int, one_only_at_1: bool) -> str:
    if n == 1 or (not one_only_at_1 and n % 10 == 1 and n % 100 != 11):
        return "one"
    if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        return "few"
    return "many"


PLURAL_RULES: dict[str, Callable[[int], str]] = {
    # CLDR's cardinal rules for whole numbers (unicode.org/cldr, "Language Plural Rules")
    "ru": lambda n: _slavic(n, one_only_at_1=False),
    "uk": lambda n: _slavic(n, one_only_at_1=False),
    "pl": lambda n: _slavic(n, one_only_at_1=True),
    "fr": lambda n: "one" if n in (0, 1) else "other",
}
"""A language's plural categories (one, few, many, other); a language not here has
English's (one for 1, other else). The forms themselves are data: ``plural.*`` in the
packs' messages.yaml."""


ELISIONS: dict[str, list[tuple[re.Pattern[str], str]]] = {
    # French elides "de" and "que" before a vowel, whatever name a template puts there:
    # "le marqueur d’Égypte", "de Rome"
    "fr": [(re.compile(r"\b([Dd]|[Qq]u)e (?=[AEIOUYÀÂÉÈÊÎÔaeiouyàâéèêîô])"), r"\1’")],
}
"""A language's contractions, applied to every sentence once its values are in (the
packs' templates cannot know which name comes)."""


def elide(language: str, text: str) -> str:
    for pattern, replacement in ELISIONS.get(language.split("-")[0].lower(), ()):
        text = pattern.sub(replacement, text)
    return text


def plural_category(language: str, n: int) -> str:
    """The CLDR category of the whole number ``n`` in ``language``."""
    rule = PLURAL_RULES.get(language.split("-")[0].lower())
    n = abs(n)
    if rule is None:
        return "one" if n == 1 else "other"
    return rule(n)


def place_name(key: str) -> str:
    """An id no pack names, as a reader expects a name: ``MARE AEGAEUM`` is Mare
    Aegaeum, ``legendary:gems`` legendary gems, ``card:x#0`` x."""
    key = key.removeprefix("card:").split("#")[0]
    return " ".join(w.capitalize() if w.isupper() else w
                    for w in key.replace("_", " ").replace(":", " ").split())


# -- the language a front end asks for ---------------------------------------------------


def languages(rules: Ruleset) -> dict[str, str]:
    """The languages the game's bundled packs are written in: language -> pack id."""
    from ..content import packs

    out: dict[str, str] = {}
    for pack, qualified in packs.list_packs().items():
        if pack != qualified.split("/")[-1]:
            continue
        try:
            data = packs.read(pack).data
        except MnrulesError:
            continue
        if data.get("game") == rules.data.get("game") and data.get("language"):
            out.setdefault(str(data["language"]), pack)
    return dict(sorted(out.items()))


def language_pack(lang: str, rules: Ruleset) -> str:
    """The pack a language (``fr``) or a pack id names; else an error listing them."""
    known = languages(rules)
    if lang in known:
        return known[lang]
    if lang in known.values():
        return lang
    raise MnrulesError(f"--lang: unknown language {lang!r}"
                       + did_you_mean(lang, list(known))
                       + f" (this game's packs are in: {', '.join(known) or 'none'})")


def presenter(rules: Ruleset, lang: str | None = None) -> Presenter:
    """The presenter of ``rules`` in ``lang`` (a language or pack id; default the pack's)."""
    from ..content import packs

    messages = dict(KERNEL_MESSAGES)
    names: dict[str, dict[str, str]] = {k: dict(v) for k, v in KERNEL_NAMES.items()}
    settings: dict[str, Any] = {}
    _merge_chain(rules.chain, messages, names, settings)
    for kind, by_id in rules.names_by_kind.items():
        names.setdefault(kind, {}).update(by_id)
    language = rules.language
    if lang and lang != language:
        other = packs.read(language_pack(lang, rules))
        _merge_chain(other.chain, messages, names, settings)
        for kind, by_id in packs.name_kinds(other.data.get("names") or {}).items():
            names.setdefault(kind, {}).update(by_id)
        language = str(other.data.get("language", lang))
    return Presenter(rules, language, messages, names,
                     player_kind=str(settings.get("player_kind", "")),
                     roman_kinds=frozenset(settings.get("roman", ())), notes=settings,
                     cases=settings.get("cases", {}))


def _merge_chain(chain: Sequence[str], messages: dict[str, str],
                 names: dict[str, dict[str, str]], settings: dict[str, Any]) -> None:
    for file in reversed(chain):
        path = Path(file).parent / MESSAGES_FILE
        if path.is_file():
            read_messages(path, messages, names, settings)


def read_messages(path: Path, messages: dict[str, str], names: dict[str, dict[str, str]],
                  settings: dict[str, Any]) -> None:
    """Merge a messages file: ``messages`` (key: template), ``names`` (kind: id: name,
    words the pack's names leave out), ``player_kind`` and ``roman`` (the kinds of
    numbers printed in Roman numerals). A mistake names file, line and key."""
    src = load_yaml(path)
    data = src.data

    def at(*key: str | int) -> str:
        pos = src.position(key)
        return f"{path}:{pos[0]}:{pos[1]}" if pos else str(path)

    if not isinstance(data, dict):
        raise PackError(f"{path}: a messages file is a mapping (format, language, "
                        f"messages, names)")
    known = ("format", "language", "messages", "names", "player_kind", "roman", "cases")
    for key in data:
        if key not in known:
            raise PackError(f"{at(key)}: {key}: not a key of a messages file"
                            + did_you_mean(str(key), list(known)))
    if data.get("format") != FORMAT:
        raise PackError(f"{at('format')}: format: expected {FORMAT!r}")
    cases: dict[str, dict[str, str]] = settings.setdefault("cases", {})
    for case, forms in (data.get("cases") or {}).items():
        if not isinstance(forms, dict) or not all(
                isinstance(v, str) and len(v) <= MAX_TEMPLATE for v in forms.values()):
            raise PackError(f"{at('cases', case)}: cases.{case}: expected names and their "
                            f"forms in this case (default: a form with {{name}} in it)")
        cases.setdefault(str(case), {}).update({str(k): v for k, v in forms.items()})
    for key, text in (data.get("messages") or {}).items():
        if not isinstance(text, str) or len(text) > MAX_TEMPLATE:
            raise PackError(f"{at('messages', key)}: messages.{key}: expected a text of at "
                            f"most {MAX_TEMPLATE} characters")
        if re.search(r"\{(?![A-Za-z_][A-Za-z0-9_]*(?::[^{}:\s]+)?\})", text):
            raise PackError(f"{at('messages', key)}: messages.{key}: a brace opens "
                            f"something other than a {{name}} or {{name:case}}")
        for m in PLACEHOLDER.finditer(text):
            if m.group(2) and m.group(2) not in cases:
                raise PackError(f"{at('messages', key)}: messages.{key}: {{{m.group(1)}:"
                                f"{m.group(2)}}} names a case this language's cases do not "
                                f"declare" + did_you_mean(m.group(2), list(cases))
                                + f" (declared: {', '.join(cases) or 'none'})")
        messages[str(key)] = text
    for kind, by_id in (data.get("names") or {}).items():
        if not isinstance(by_id, dict):
            raise PackError(f"{at('names', kind)}: names.{kind}: expected ids and names")
        names.setdefault(str(kind), {}).update({str(k): str(v) for k, v in by_id.items()})
    if "player_kind" in data:
        settings["player_kind"] = str(data["player_kind"])
    if "roman" in data:
        settings["roman"] = [str(k) for k in data["roman"] or []]
