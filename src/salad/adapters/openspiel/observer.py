"""OpenSpiel's observer for ``python_salad``: the information state and observation strings, and
the observation tensor, which is the adapters' one encoding (:mod:`salad.adapters.features`,
drawn in docs/envs.md, "Observation"), the same vector the PettingZoo environment gives."""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Protocol

import numpy as np
import pyspiel

from salad.adapters.features import Private, encode, observation_layout
from salad.adapters.openspiel.config import GameConfig
from salad.adapters.openspiel.core import StateCore
from salad.adapters.openspiel.text import info_string, observation_string
from salad.view import Phase


class _HasCore(Protocol):
    @property
    def core(self) -> StateCore: ...


def _private(iig_obs_type: Any) -> Private:
    if iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER:
        return "own"
    if iig_obs_type.private_info == pyspiel.PrivateInfoType.ALL_PLAYERS:
        return "all"
    return "none"


class SaladObserver:
    """OpenSpiel observer: strings and the observation tensor.

    With ``perfect_recall`` the string is the information state string (every hand so far);
    without it, the observation string (the current hand and the totals). The tensor is
    :func:`salad.adapters.features.encode` of the seat's view: seats are *relative* (row ``r``
    is the seat ``r`` places to the observer's left), parts as docs/envs.md lists them. Without
    public information only ``phase`` and the private parts are kept; with every seat's private
    information, ``hands`` (one row per seat) stands in for ``hand``, ``passed`` and
    ``received``. ``dict`` holds each part by name, shaped ``(players, cards)`` for card planes.
    While the cards are dealt, ``hand`` and ``hand_sizes`` count the cards dealt so far.
    """

    def __init__(self, cfg: GameConfig, iig_obs_type: Any) -> None:
        self.cfg = cfg
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.public = bool(iig_obs_type.public_info)
        self.private = iig_obs_type.private_info
        self._default = self.public and self.private == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self.layout = observation_layout(
            cfg.ruleset, cfg.players, public=self.public, private=_private(iig_obs_type)
        )
        self.tensor = np.zeros(self.layout.size, np.float32)
        self.dict: dict[str, np.ndarray[Any, Any]] = {
            name: self.layout.part(self.tensor, name) for name, _ in self.layout.segments
        }

    def set_from(self, state: _HasCore, player: int) -> None:
        core = state.core
        game = core.game
        if game is None:  # drawing for the first dealer: only the phase is known
            self.tensor.fill(0)
            self.dict["phase"][int(Phase.DEAL)] = 1
            return
        view = core.view(player)
        hands = list(game.hands)
        if game.phase is Phase.DEAL:  # dealing card by card: the cards dealt so far
            hands = list(core.deal_masks)
            view = replace(
                view,
                hand=hands[player],
                hand_sizes=tuple(h.bit_count() for h in hands),
                to_move=-1,
                token=-1,
                phase=Phase.OVER if core.is_terminal() else Phase.DEAL,
            )
        encode(view, self.layout, hands, out=self.tensor)

    def string_from(self, state: _HasCore, player: int) -> str:
        core = state.core
        private = None if self._default else self.private
        if self.perfect_recall:
            return info_string(core, player, private)
        return observation_string(core, player, private)
