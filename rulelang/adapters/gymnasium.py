"""Any ruleset as a single-agent Gymnasium environment: ``RulesEnv(path_or_game,
seat=0)``.  A solitaire ruleset is played whole by the agent; in a game for
more players the agent takes one seat and the others are played by bots
(uniformly random legal moves unless ``bots`` says otherwise), between the
agent's steps.

- Observations are a dict: ``observation``, the agent's view as a vector
  (``encode``: only what its seat may see), and ``action_mask``, 1 at the
  numbers of its legal moves; ``info["moves"]`` maps those numbers to the
  moves' labels.  Actions are the stable numbers of
  ``common.number_moves`` (the same as the other adapters').
- Dice, draws and the bots' picks come from the seed given to
  ``reset(seed=...)``: one seed and one list of actions, one game.
- The reward is given when the game ends: 1 if the agent's seat won, -1
  if not (``common.returns``); with ``reward="score"``, its score (a
  solitaire ruleset with no ``winner … where`` is always won, so there
  the score is the measure).  An action that is not legal (a learner
  sampling without the mask) ends the episode with -1 and says so in
  ``info["illegal"]``, unless ``illegal="raise"``.  After ``max_steps``
  steps the episode is truncated (by default ``Limits.max_history``).
- ``render_mode="ansi"``: ``render()`` returns what the agent's seat sees,
  in words, safe to print (``text.ansi``).
"""

from __future__ import annotations

import os
from typing import Any, Callable, Dict, Optional, Sequence, Tuple, Union

try:
    import gymnasium
    import numpy as np
except ImportError as e:  # pragma: no cover - depends on the machine
    raise ImportError("rulelang.adapters.gymnasium needs Gymnasium: "
                      "pip install 'rulelang[adapters]'") from e

from ..api import load
from ..engine import Game, Move, State
from . import encode as _encode
from .common import ACTIONS, HeldState, check_reward, rewards, seats_of
from .text import ansi as _render

#: A bot: given the state and the legal moves of the seat to move, and a
#: generator seeded by ``reset`` (numpy's), the move it makes.
Bot = Callable[[State, Sequence[Move], "np.random.Generator"], Move]


def random_bot(state: State, moves: Sequence[Move], rng: "np.random.Generator") -> Move:
    """A uniformly random legal move."""
    return moves[int(rng.integers(len(moves)))]


class RulesEnv(HeldState, gymnasium.Env):  # type: ignore[type-arg,unused-ignore]
    """A ruleset as a single-agent environment (see the module)."""

    metadata: Dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 4}

    def __init__(self, path_or_game: Union[str, "os.PathLike[str]", Game], players: Optional[int] = None,
                 seat: int = 0, bots: Optional[Bot] = None, render_mode: Optional[str] = None,
                 max_steps: Optional[int] = None, illegal: str = "lose", reward: str = "win",
                 num_actions: int = ACTIONS, features: int = _encode.FEATURES,
                 options: Optional[Dict[str, Any]] = None,
                 params: Optional[Dict[str, Any]] = None) -> None:
        game = path_or_game if isinstance(path_or_game, Game) else load(path_or_game)
        if params:
            game = game.with_params(params)
        self.game = game
        self.players = seats_of(game, players if players is not None else game.min_players)
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players:
            raise ValueError(f"seat must be a seat of a {self.players}-player game, not {seat!r}")
        if illegal not in ("lose", "raise"):
            raise ValueError(f"illegal must be 'lose' or 'raise', not {illegal!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be 'ansi' or None, not {render_mode!r}")
        check_reward(reward)
        self.reward = reward
        self.seat = seat
        self.bots: Bot = bots or random_bot
        self.render_mode = render_mode
        self.max_steps = game.limits.max_history if max_steps is None else max_steps
        self.illegal = illegal
        self.num_actions = num_actions
        self.features = features
        self.options = options
        self.observation_space = gymnasium.spaces.Dict({
            "observation": gymnasium.spaces.Box(-_encode.BOUND, _encode.BOUND, (features,), np.float32),
            "action_mask": gymnasium.spaces.Box(0, 1, (num_actions,), np.int8),
        })
        self.action_space = gymnasium.spaces.Discrete(num_actions)
        self.state_: Optional[State] = None
        self.bot_rng = np.random.default_rng(0)
        self.steps = 0

    def _bots_play(self) -> None:
        st = self.rules_state
        while not st.is_over and st.current_player != self.seat:
            st.apply(self.bots(st, st.legal_moves(), self.bot_rng))

    def _observe(self) -> Tuple[Dict[str, Any], Dict[str, Any]]:
        st = self.rules_state
        mask = np.zeros(self.num_actions, dtype=np.int8)
        moves: Dict[int, str] = {}
        if not st.is_over:
            numbered = self._numbered()
            mask[list(numbered)] = 1
            moves = {a: m.label for a, m in numbered.items()}
        obs = {"observation": _encode.encode(st.view(self.seat), self.features), "action_mask": mask}
        return obs, {"moves": moves}

    def reset(self, *, seed: Optional[int] = None,
              options: Optional[Dict[str, Any]] = None) -> Tuple[Dict[str, Any], Dict[str, Any]]:
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(0, 2**63 - 1))
        self.bot_rng = np.random.default_rng(int(self.np_random.integers(0, 2**63 - 1)))
        self.state_ = self.game.new_game(players=self.players, seed=game_seed, options=self.options)
        self.steps = 0
        self._bots_play()
        return self._observe()

    def step(self, action: Any) -> Tuple[Dict[str, Any], float, bool, bool, Dict[str, Any]]:
        st = self.rules_state
        if st.is_over:
            raise RuntimeError("the episode has ended: call reset()")
        move = self._numbered().get(int(action))
        if move is None:
            why = f"action {int(action)} is not one of the legal moves now (the action_mask)"
            if self.illegal == "raise":
                raise ValueError(why)
            obs, info = self._observe()
            info["illegal"] = why
            return obs, -1.0, True, False, info
        st.apply(move)
        self.steps += 1
        self._bots_play()
        obs, info = self._observe()
        if st.is_over:
            final = rewards(st.result(), self.players, self.reward)[self.seat]
            return obs, final, True, False, info
        return obs, 0.0, False, self.steps >= self.max_steps, info

    def render(self) -> Optional[str]:
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode (try render_mode='ansi')")
            return None
        return _render(self.rules_state, self.seat)


__all__ = ["Bot", "RulesEnv", "random_bot"]
