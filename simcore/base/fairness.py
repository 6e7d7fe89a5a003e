"""The fairness judgment of seat compensation (issue #38; docs/compensation.md), in the base so
that the study that searches a compensation (simcore.studies.compensate, and the report's "how to
fix it") and the renderers that say it (analysis.compensate, analysis.answer) judge alike
(issue #48).

Fair means equivalence, not the absence of a detected gap: every pairwise difference of the
seats' outright win rates lies within +-tolerance points with 95% confidence, i.e. every
interval of simcore.base.verdicts.all_seat_pairs (simultaneous over the pairs, Bonferroni)
lies inside [-tolerance, +tolerance]. A pair whose interval lies wholly beyond the tolerance is
unfair; anything else is undecided with the games given (the seats that cannot be separated
are named).

The recommendation of a confirmation (the rulebook first, then the finalists, simplest first)
is the first finalist judged fair on the fresh games, else the one with the smallest gap there
(`recommend`): chosen once, by the study, and kept in its result.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Protocol, TypeVar

from simcore.base.verdicts import Verdict, all_seat_pairs

FAIR, UNFAIR, UNDECIDED = "fair", "unfair", "undecided"
TOLERANCE = 1.5  # points: every pairwise difference of the seats' win rates within this


class SeatWins(Protocol):
    """Games played and each seat's outright wins (a compensation's play, a run's summary)."""

    @property
    def seat_wins(self) -> Sequence[int]: ...

    @property
    def games(self) -> int: ...


class _Amounts(Protocol):
    @property
    def total(self) -> int: ...


class ConfirmedPlay(SeatWins, Protocol):
    """A candidate confirmed on fresh games (simcore.studies.compensate.Played)."""

    @property
    def candidate(self) -> _Amounts: ...

    @property
    def gap(self) -> float: ...


P = TypeVar("P", bound=ConfirmedPlay)


def pair_records(p: SeatWins) -> list[Verdict]:
    """Every pair of seats of a play (simcore.base.verdicts.all_seat_pairs)."""
    return all_seat_pairs(p.seat_wins, p.games)


def _within(v: Verdict, tolerance: float) -> bool:
    return -tolerance <= v.low and v.high <= tolerance


def _beyond(v: Verdict, tolerance: float) -> bool:
    return v.low > tolerance or v.high < -tolerance


def fair_status(p: SeatWins, tolerance: float = TOLERANCE) -> str:
    """FAIR, UNFAIR or UNDECIDED (the module docstring)."""
    recs = pair_records(p)
    if all(_within(v, tolerance) for v in recs):
        return FAIR
    if any(_beyond(v, tolerance) for v in recs):
        return UNFAIR
    return UNDECIDED


def undecided_pairs(p: SeatWins, tolerance: float = TOLERANCE) -> list[str]:
    """The pairs of seats neither within nor beyond the tolerance ('seat 0 and seat 2 ...')."""
    return [
        v.quantity.replace("'s win rate minus", " and").replace("'s", "")
        for v in pair_records(p)
        if not _within(v, tolerance) and not _beyond(v, tolerance)
    ]


def recommend(confirmed: Sequence[P], tolerance: float = TOLERANCE) -> P:
    """The recommended play of a confirmation (the rulebook first, then the finalists,
    simplest first): the first finalist judged fair, else the one with the smallest gap on the
    fresh games (the smaller total amount on a tie)."""
    cands = confirmed[1:]
    fair = next((p for p in cands if fair_status(p, tolerance) == FAIR), None)
    if fair is not None:
        return fair
    return min(cands, key=lambda p: (p.gap, p.candidate.total))


def elo_vs_fair(p: float, fair: float) -> float:
    """The Elo equivalent of win share p where a fair share is `fair`: the rating difference
    that turns the odds fair / (1 - fair) into p / (1 - p) under the Elo curve,
    400 log10(p / (1 - p)) - 400 log10(fair / (1 - fair)); 0 is a player as strong as the
    others, +100 one whose odds of winning are 1.78 times a fair seat's. Clipped to a share
    of 0.001..0.999 (inf otherwise)."""
    p = min(max(p, 0.001), 0.999)
    return 400.0 * (math.log10(p / (1.0 - p)) - math.log10(fair / (1.0 - fair)))
