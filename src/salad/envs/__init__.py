"""PettingZoo environments of salad (the ``envs`` extra: ``pip install 'salad[envs]'``).

``env()`` is the game with PettingZoo's usual wrappers, ``raw_env()`` the bare AEC environment;
both take ``rules``, ``players``, ``settings`` and ``render_mode``. See docs/envs.md.

>>> from salad.envs import raw_env
>>> e = raw_env(rules="skip-the-salad", settings={"toppings": "all"})
>>> e.possible_agents
['player_0', 'player_1', 'player_2', 'player_3']
>>> e.action_space("player_0")  # 61 cards, 61 Wilds-high slots, 4 trump suits
Discrete(126)
"""

from salad.envs.aec import ObservationLayout, encode, env, observation_layout, raw_env

__all__ = ["ObservationLayout", "encode", "env", "observation_layout", "raw_env"]
