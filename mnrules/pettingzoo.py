"""Every game on the kernel as a PettingZoo AEC environment (``pip install '.[agents]'``)::

    from mnrules.pettingzoo import env
    e = env(game="antike2", players=4, seed=1)
    e.reset(seed=1)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        mask = obs["action_mask"]
        e.step(None if terminated or truncated else int(mask.nonzero()[0][0]))

Agents are the seats' player ids (the rule set's seating). An action is a token of
:class:`mnrules.agents.ActionCodec` (``Discrete(codec.size)``); a decision whose options
share a beginning takes several steps of the same agent. The observation is a dict:
``"observation"`` (the tensor of :mod:`mnrules.openspiel`'s kind: the game's
``GameDefinition.tensor``, else the generic one) and ``"action_mask"``; ``infos[agent]["view"]`` is
his view as JSON (:func:`mnrules.core.view.player_view`). Chance is drawn inside, from the
game's seeded generator (the native game's draws: ``reset(seed=S)`` plays as the seed
S does natively). Rewards come at the end (1 shared among the winners); a game stopped
by ``max_rounds`` ends every agent *truncated*, with no reward.
"""

from __future__ import annotations

import json
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from .agents import ActionCodec, codec_for
from .content.ruleset import Ruleset
from .core.engine import Choice, Game
from .core.start import new_game
from .core.view import player_view


def env(game: str = "", pack: str = "", variant: str = "", players: int = 0,
        seed: int = 0, max_rounds: int = 0) -> MnEnv:
    """The AEC environment of a game's base pack or a pack (see the module)."""
    from .openspiel import rules_for

    return MnEnv(rules_for(game, pack, variant), players, seed, max_rounds or None)


class MnEnv(AECEnv):  # type: ignore[misc]
    metadata: ClassVar[dict[str, Any]] = {"name": "mnrules_v0", "render_modes": ["ansi"],
                                          "is_parallelizable": False}

    def __init__(self, rules: Ruleset, players: int = 0, seed: int = 0,
                 max_rounds: int | None = None, render_mode: str | None = None) -> None:
        super().__init__()
        self.rules = rules
        self.n = players or min(rules.seating)
        self.seed0 = seed
        self.max_rounds = max_rounds
        self.render_mode = render_mode
        self.codec: ActionCodec = codec_for(rules)
        self.possible_agents = list(rules.seating[self.n])
        probe = new_game(rules, self.n, seed=seed)
        see = rules.definition.tensor
        found = see(game=probe, player=self.possible_agents[0]) if see is not None else None
        self.size = len(found) if found is not None else 2 * self.n + 2
        obs = spaces.Dict({
            "observation": spaces.Box(-np.inf, np.inf, (self.size,), np.float32),
            "action_mask": spaces.Box(0, 1, (self.codec.size,), np.int8)})
        self.observation_spaces = {a: obs for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.codec.size)
                              for a in self.possible_agents}
        self.game: Game[Any] = probe
        self.prefix: list[int] = []

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # -- the loop ---------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.game = new_game(self.rules, self.n, seed=self.seed0 if seed is None else seed,
                             round_cap=self.max_rounds)
        self.prefix = []
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._next()

    def _candidates(self) -> list[tuple[tuple[int, ...], Choice]]:
        dec = self.game.pending
        assert dec is not None
        n = len(self.prefix)
        found = [(s, o) for o in dec.options
                 if list((s := self.codec.spell(o))[:n]) == self.prefix]
        while len(found) > 1 and len({s[len(self.prefix)] for s, _ in found}) == 1:
            self.prefix.append(found[0][0][len(self.prefix)])
        return found

    def _next(self) -> None:
        dec = self.game.pending
        if dec is None:
            winners = self.game.state.winners
            undecided = self.game.state.victory == "round cap" or not winners
            for a in self.agents:
                self.rewards[a] = 1.0 / len(winners) if a in winners else 0.0
                if undecided and self.max_rounds is not None:
                    self.truncations[a] = True
                else:
                    self.terminations[a] = True
            self._accumulate_rewards()
            self.agent_selection = self.agents[0]
            return
        self.agent_selection = dec.player

    def observe(self, agent: str) -> dict[str, Any]:
        mask = np.zeros(self.codec.size, np.int8)
        dec = self.game.pending
        if dec is not None and dec.player == agent:
            found = self._candidates()
            for s, _ in found:
                mask[s[len(self.prefix)]] = 1
        see = self.rules.definition.tensor
        found_t = see(game=self.game, player=agent) if see is not None else None
        if found_t is not None:
            vec = np.asarray(found_t, np.float32)
        else:
            vec = np.zeros(self.size, np.float32)
            if dec is not None:
                vec[self.possible_agents.index(dec.player)] = 1.0
            vec[self.n + self.possible_agents.index(agent)] = 1.0
            vec[2 * self.n] = 1.0 if dec is None else 0.0
            vec[2 * self.n + 1] = self.game.state.round / 100.0
        return {"observation": vec, "action_mask": mask}

    def view(self, agent: str) -> str:
        return json.dumps(player_view(self.game, agent), sort_keys=True, default=str)

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert action is not None
        self._cumulative_rewards[agent] = 0.0
        found = self._candidates()
        n = len(self.prefix)
        left = [o for s, o in found if s[n] == action]
        if not left:
            raise ValueError(f"{agent}: action {action} ({self.codec.text(int(action))}) "
                             f"is not legal")
        self.prefix.append(int(action))
        if len(left) == 1:
            self.prefix = []
            self.game.apply(left[0])
        for a in self.agents:
            self.rewards[a] = 0.0
        self._next()

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        return repr(self.game)

    def close(self) -> None:
        pass
