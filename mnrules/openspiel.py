"""Every game on the kernel as an OpenSpiel game (``pip install '.[agents]'``).

``import mnrules.openspiel`` registers the Python game ``mnrules``::

    import pyspiel, mnrules.openspiel
    game = pyspiel.load_game("mnrules", {"game": "antike2", "players": 4, "seed": 1})

Parameters: ``game`` (a game's base pack: ``mare_nostrum``, ``antike2``) or ``pack`` (an
edition id or a pack file; ``pack`` wins), ``variant`` (a variant file), ``players``,
``seed`` (the set-up's, and whatever the game draws outside its chance nodes),
``max_rounds`` (0: the pack's own round cap; else the game ends undecided after that
many rounds). The type is declared once for all games: sequential, explicit stochastic
(every ``game.chance`` is a chance node: :mod:`mnrules.agents`), *imperfect information*
(Mare Nostrum hides screens and trade offers; Antike II and tic-tac-toe hide nothing,
but one registered type cannot say so per game), general-sum, terminal rewards: 1 shared
among the winners, 0 to the others, 0 to all when the game ends undecided.

Actions are the tokens of :class:`mnrules.agents.ActionCodec` (``num_distinct_actions``
is fixed per game: marks, bytes, the ints 0-255 and the pack's words); one decision takes
one action where its options differ in their first token, more where they share a
beginning (a Mare Nostrum payment). Chance outcomes are indices into the chance's
options, each of probability ``1/len``. Observations are the player's view
(:func:`mnrules.core.view.player_view`) as canonical JSON, with the tokens he has given of
his pending option; an information state is that view and every choice of the game as
he saw it (a hidden decision's choice as ``"hidden"``, a chance by its label alone).
The tensor is the game's (its definition's ``tensor``) if it has one (tic-tac-toe: three
planes of the grid; Mare Nostrum and Antike II: counts per area, seat and track from the
viewer's seat, docs/agents.md), zeros while the set-up waits at a chance; else a small
generic one: the seat to act, the viewer's seat, over, the round.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pyspiel

from .agents import MAX_CHANCE, Table, codec_for
from .content.ruleset import Ruleset, load_ruleset
from .core.start import new_game
from .core.view import player_view
from .language.present import Presenter, presenter

SHORT_NAME = "mnrules"
MAX_PLAYERS = 6
MAX_GAME_LENGTH = 1_000_000
DEFAULTS: dict[str, Any] = {"game": "", "pack": "", "variant": "", "players": 0,
                            "seed": 0, "max_rounds": 0}

GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="mnrules: any game on the mnrules kernel",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=MAX_PLAYERS,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=DEFAULTS,
)

_RULES: dict[tuple[str, str], Ruleset] = {}


def rules_for(game: str = "", pack: str = "", variant: str = "") -> Ruleset:
    """The rule set of a game's base pack or a pack (and variant), loaded once."""
    if not pack:
        if not game:
            raise ValueError("mnrules: give the game (its folder of editions) or the pack")
        from .content.packs import first_pack

        found = first_pack(game)
        if found is None:
            raise ValueError(f"mnrules: no bundled pack of the game {game!r}")
        pack = found
    key = (pack, variant)
    if key not in _RULES:
        _RULES[key] = load_ruleset(pack, variant=variant or None)
    return _RULES[key]


class MnGame(pyspiel.Game):  # type: ignore[misc]
    """One game of the kernel under fixed parameters."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**DEFAULTS, **(params or {})}
        self.rules = rules_for(str(params["game"]), str(params["pack"]),
                               str(params["variant"]))
        players = int(params["players"]) or min(self.rules.seating)
        if players not in self.rules.seating:
            raise ValueError(f"mnrules: this game plays with {sorted(self.rules.seating)} "
                             f"players, not {players}")
        self.players = players
        self.seed = int(params["seed"])
        self.round_cap = int(params["max_rounds"]) or None
        self.codec = codec_for(self.rules)
        self.say: Presenter = presenter(self.rules)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.codec.size, max_chance_outcomes=MAX_CHANCE,
            num_players=players, min_utility=0.0, max_utility=1.0, utility_sum=None,
            max_game_length=MAX_GAME_LENGTH)
        super().__init__(GAME_TYPE, info, params)
        self._initial: Table | None = None

    def new_initial_state(self) -> MnState:
        if self._initial is None:
            self._initial = Table(self.rules, self.players, self.seed, self.round_cap)
        return MnState(self, self._initial.copy())

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: dict[str, Any] | None = None) -> MnObserver:
        recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return MnObserver(self, recall)


class MnState(pyspiel.State):  # type: ignore[misc]
    """A position: the kernel's game, its chance node or the tokens given so far."""

    def __init__(self, game: MnGame, table: Table | None = None) -> None:
        super().__init__(game)
        self.table: Table = table if table is not None else game.new_initial_state().table

    def current_player(self) -> int:
        t = self.table
        if t.chance is not None:
            return int(pyspiel.PlayerId.CHANCE)
        seat = t.seat()
        return int(pyspiel.PlayerId.TERMINAL) if seat is None else seat

    def _legal_actions(self, player: int) -> list[int]:
        return self.table.legal()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self.table.outcomes()

    def _apply_action(self, action: int) -> None:
        if self.table.chance is not None:
            self.table.pick(int(action))
        else:
            self.table.give(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        t = self.table
        if player == pyspiel.PlayerId.CHANCE or t.chance is not None:
            if t.chance is not None and 0 <= action < len(t.chance[1]):
                label, options = t.chance
                return f"{label}: {self.get_game().say.plain(options[action])}"
            return f"chance outcome {action}"
        dec = t.decision
        codec = self.get_game().codec
        if dec is None or t.game is None:
            return f"token {codec.text(action)}"
        left = t.options_of(action)
        say = self.get_game().say
        if len(left) == 1:
            return str(say.option(t.game, dec, left[0]))
        if not left:
            return f"token {codec.text(action)} (not legal now)"
        return (f"{codec.text(action)}: one of {len(left)} options, such as "
                f"{say.option(t.game, dec, left[0])}")

    def is_terminal(self) -> bool:
        return self.table.over

    def returns(self) -> list[float]:
        return self.table.returns()

    def __str__(self) -> str:
        t = self.table
        if t.game is None:
            return "setting up"
        g = t.game
        where = f"round {g.state.round}, choice {g.state.choices}"
        if t.chance is not None:
            return f"{where}: chance {t.chance[0]}"
        dec = t.decision
        if dec is None:
            return f"{where}: over, winners {g.state.winners}"
        return f"{where}: {dec.player} {dec.kind} ({len(dec.options)} options)"


def observation(table: Table, seat: int) -> str:
    """What seat ``seat`` sees now, as canonical JSON."""
    if table.game is None:
        return json.dumps({"setting_up": True})
    player = table.seats[seat]
    view = player_view(table.game, player)
    if table.chance is not None:
        view["chance"] = table.chance[0]
    dec = table.decision
    if dec is not None and dec.player == player:
        view["given"] = list(table.prefix)
    return json.dumps(view, sort_keys=True, separators=(",", ":"), default=str)


def information_state(table: Table, seat: int) -> str:
    """The view and the game's choices as seat ``seat`` saw them."""
    seen = table.seen[table.seats[seat]]
    return observation(table, seat) + "\n" + "\n".join(seen)


def tensor(table: Table, seat: int, size: int) -> list[float]:
    game = table.game
    see = table.rules.definition.tensor
    if game is not None and see is not None:
        found = see(game=game, player=table.seats[seat])
        if found is not None:
            return [float(x) for x in found]
    elif game is None and see is not None:
        return [0.0] * size     # still setting up (a chance of the set-up): nothing yet
    n = len(table.seats)
    out = [0.0] * size
    now = table.seat()
    if now is not None:
        out[now] = 1.0
    out[n + seat] = 1.0
    out[2 * n] = 1.0 if table.over else 0.0
    out[2 * n + 1] = float(game.state.round) / 100.0 if game is not None else 0.0
    return out


class MnObserver:
    """OpenSpiel's observer: the strings above and the tensor."""

    def __init__(self, game: MnGame, recall: bool) -> None:
        self.recall = recall
        # a native game's set-up settled (the adapter's may wait at a chance of it)
        probe = new_game(game.rules, game.players, seed=game.seed, round_cap=game.round_cap)
        see = probe.rules.definition.tensor
        found = see(game=probe, player=game.rules.seating[game.players][0]) \
            if see is not None else None
        self.size = len(found) if found is not None else 2 * game.players + 2
        self.tensor = np.zeros(self.size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: MnState, player: int) -> None:
        self.tensor[:] = tensor(state.table, player, self.size)

    def string_from(self, state: MnState, player: int) -> str:
        if self.recall:
            return information_state(state.table, player)
        return observation(state.table, player)


pyspiel.register_game(GAME_TYPE, MnGame)
