"""The outcome tally of the degenerate-play check (docs/robustness.md, "Degenerate play"):
per arm of a robustness setting and per self-play match of the ladder, how often each outcome
(final scores, length) occurred, with the games no seat scored and those ended by a safety
cap. analysis.robustness.degenerate reads it."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from simcore.base.errors import InputError
from simcore.frame.registry import GameSpec
from simcore.run.checkpoint import whole

LIMIT_REASONS = ("round-limit", "turn-limit")  # end reasons that are a safety cap, not the rules'


@dataclass
class Outcomes:
    """A mergeable tally of one arm's games for the detection of degenerate play: how often
    each outcome (the final scores of the seats and the length in rounds) occurred, the games
    in which no seat scored, and the games ended by a safety cap (LIMIT_REASONS)."""

    counts: Counter = field(default_factory=Counter)
    no_score: int = 0
    limit: int = 0

    def add(self, other: Outcomes) -> None:
        self.counts.update(other.counts)
        self.no_score += other.no_score
        self.limit += other.limit

    @property
    def games(self) -> int:
        return sum(self.counts.values())

    def to_json(self) -> dict:
        return {
            "counts": [[*k, v] for k, v in sorted(self.counts.items())],
            "no_score": self.no_score,
            "limit": self.limit,
        }

    @classmethod
    def from_json(cls, data: Any, players: int) -> Outcomes:
        ok = isinstance(data, dict) and set(data) == {"counts", "no_score", "limit"}
        rows = data.get("counts") if ok else None
        if (
            not ok
            or not isinstance(rows, list)
            or not all(_whole_list(r, players + 2) for r in rows)
        ):
            raise InputError("its outcome tally is not a table of whole numbers")
        if not _whole_list([data["no_score"], data["limit"]], 2):
            raise InputError("its outcome tally's counts are not whole numbers")
        return cls(Counter({tuple(r[:-1]): r[-1] for r in rows}), data["no_score"], data["limit"])


def _whole_list(v: Any, n: int) -> bool:
    return isinstance(v, list) and len(v) == n and all(whole(x) for x in v)


def outcomes_of(spec: GameSpec, frame: Any, players: int) -> Outcomes:
    """The Outcomes of a DataFrame of result rows."""
    scores = frame[[f"score_{s}" for s in range(players)]].to_numpy()
    keys = np.column_stack([scores, frame["rounds"].to_numpy()])
    uniq, counts = np.unique(keys, axis=0, return_counts=True)
    limit_codes = [i for i, r in enumerate(spec.end_reasons) if r in LIMIT_REASONS]
    return Outcomes(
        Counter({tuple(int(x) for x in k): int(c) for k, c in zip(uniq, counts)}),
        int(np.count_nonzero((scores == 0).all(axis=1))),
        int(np.isin(frame["end_reason"].to_numpy(), limit_codes).sum()),
    )
