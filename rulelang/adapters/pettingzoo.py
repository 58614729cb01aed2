"""Any ruleset as a PettingZoo AEC environment: ``env(path_or_game,
players=...)``.

- Agents are ``player_0`` … ``player_{n-1}``, the seats; the one to act is
  the seat whose decision it is.  Dice and draws are settled inside a step
  from the seed given to ``reset(seed=...)`` (the engine's sample mode,
  whose generator lives in the state), so one seed and one list of actions
  always give the same game.
- An observation is a dict: ``observation``, the seat's view as a vector
  (``encode``: only what the seat may see), and ``action_mask``, 1 at the
  numbers of its legal moves (all 0 when it is not its decision).  Actions
  are the stable numbers of ``common.number_moves``; ``infos[agent]
  ["moves"]`` maps the legal ones to their labels.
- Rewards come when the game ends, from who won (``common.returns``), or
  with ``reward="score"`` each seat's score.
  After ``max_cycles`` cycles (a cycle: as many moves as there are
  agents; by default ``Limits.max_history``'s worth) every agent is
  truncated.
- ``render_mode="ansi"``: ``render()`` returns the table in words as a
  spectator sees it, safe to print (``text.ansi``).

No parallel wrapper: in a turn-based game one seat decides at a time and
PettingZoo's parallel API wants every live agent to act at each step
(``aec_to_parallel`` refuses an environment that does not promise that).
Even bids made at the same time at the table ('secretly choose' in a
'for each player') are secret decisions taken one after another in the
engine, with nothing in a ruleset that marks a step as simultaneous.
"""

from __future__ import annotations

import os
from typing import Any, Dict, Optional, Union

try:
    import gymnasium
    import numpy as np
    from pettingzoo import AECEnv  # type: ignore[import-untyped,unused-ignore]
    from pettingzoo.utils import wrappers  # type: ignore[import-untyped,unused-ignore]
except ImportError as e:  # pragma: no cover - depends on the machine
    raise ImportError("rulelang.adapters.pettingzoo needs PettingZoo: "
                      "pip install 'rulelang[adapters]'") from e

from ..api import load
from ..engine import Game, State
from . import encode as _encode
from .common import ACTIONS, HeldState, check_reward, rewards, seats_of
from .text import ansi as _render


def env(path_or_game: Union[str, "os.PathLike[str]", Game], **kwargs: Any) -> Any:
    """The environment wrapped as PettingZoo's own environments are (an
    action out of range or an illegal one is refused with a clear error,
    observe after the end is caught): what ``api_test`` takes."""
    e: Any = RulesEnv(path_or_game, **kwargs)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)


class RulesEnv(HeldState, AECEnv):  # type: ignore[misc]
    """A ruleset as an AEC environment (see the module)."""

    metadata: Dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 4, "name": "rulelang_v0",
                "is_parallelizable": False}

    def __init__(self, path_or_game: Union[str, "os.PathLike[str]", Game], players: Optional[int] = None,
                 render_mode: Optional[str] = None, max_cycles: Optional[int] = None,
                 zero_sum: bool = False, reward: str = "win", num_actions: int = ACTIONS,
                 features: int = _encode.FEATURES, options: Optional[Dict[str, Any]] = None,
                 params: Optional[Dict[str, Any]] = None) -> None:
        super().__init__()
        game = path_or_game if isinstance(path_or_game, Game) else load(path_or_game)
        if params:
            game = game.with_params(params)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be 'ansi' or None, not {render_mode!r}")
        self.game = game
        self.players = seats_of(game, players)
        self.render_mode = render_mode
        check_reward(reward, zero_sum)
        self.zero_sum = zero_sum
        self.reward = reward
        self.num_actions = num_actions
        self.features = features
        self.options = options
        self.max_moves = (game.limits.max_history if max_cycles is None
                          else max_cycles * self.players)
        self.metadata = dict(self.metadata, name=f"rulelang_{game.title}")
        self.possible_agents = [f"player_{i}" for i in range(self.players)]
        obs = gymnasium.spaces.Dict({
            "observation": gymnasium.spaces.Box(-_encode.BOUND, _encode.BOUND, (features,), np.float32),
            "action_mask": gymnasium.spaces.Box(0, 1, (num_actions,), np.int8),
        })
        act = gymnasium.spaces.Discrete(num_actions)
        self.observation_spaces = {a: obs for a in self.possible_agents}
        self.action_spaces = {a: act for a in self.possible_agents}
        self.state_: Optional[State] = None
        self.moves = 0

    def observation_space(self, agent: str) -> Any:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> Any:
        return self.action_spaces[agent]

    # -- the game

    def reset(self, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None) -> None:
        # (No seed: the engine's own fresh one, its one source of entropy.)
        self.state_ = self.game.new_game(players=self.players, seed=seed, options=self.options)
        self.moves = 0
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: Dict[str, Dict[str, Any]] = {a: {} for a in self.agents}
        self._settle()

    def _settle(self) -> None:
        """After a move: whose turn it is, and the ends."""
        st = self.rules_state
        if st.is_over:
            final = rewards(st.result(), self.players, self.reward, self.zero_sum)
            for a, r in zip(self.possible_agents, final):
                if a in self.agents:
                    self.rewards[a] = r
                    self.terminations[a] = True
        elif self.moves >= self.max_moves:
            for a in self.agents:
                self.truncations[a] = True
        moves = {} if st.is_over else {a: m.label for a, m in self._numbered().items()}
        who = st.current_player
        for a in self.agents:
            mine = who is not None and a == self.possible_agents[who]
            self.infos[a] = {"moves": moves if mine and not self.truncations[a] else {}}
        if who is not None and not st.is_over:
            self.agent_selection = self.possible_agents[who]
        elif self.agents:
            self.agent_selection = self.agents[0]

    def observe(self, agent: str) -> Dict[str, Any]:
        st = self.rules_state
        seat = self.possible_agents.index(agent)
        mask = np.zeros(self.num_actions, dtype=np.int8)
        if not st.is_over and st.current_player == seat:
            mask[list(self._numbered())] = 1
        return {"observation": _encode.encode(st.view(seat), self.features), "action_mask": mask}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        move = self._numbered().get(int(action))
        if move is None:
            raise ValueError(f"action {int(action)} is not one of {agent}'s legal moves now "
                             f"(its action_mask; infos[{agent!r}]['moves'] names them)")
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: 0.0 for a in self.agents}
        self.rules_state.apply(move)
        self.moves += 1
        self._settle()
        self._accumulate_rewards()

    def render(self) -> Optional[str]:
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode (try render_mode='ansi')")
            return None
        return _render(self.rules_state, None)

    def close(self) -> None:
        self.state_ = None


__all__ = ["RulesEnv", "env"]
