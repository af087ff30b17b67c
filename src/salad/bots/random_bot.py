"""The baseline: a uniformly random legal move."""

from __future__ import annotations

import random

from salad.moves import Move
from salad.view import View


class RandomBot:
    name = "random"

    def __init__(self, seed: int | None = None, **options: object) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: View) -> Move:
        return self.rng.choice(view.legal_moves)
