"""The verdict engine (issue #35): one record per answered question, from which every sentence a
designer reads is made, so that the same question on the same games gets the same words,
number, interval and call in every command.

A verdict is a record (`Verdict`): the quantity and its unit, the estimate, **the interval the
call rests on** and the adjusted p, the number of tests it was adjusted over, the games, and
the call (significant or not). Its direction word comes from the sign of the estimate, never
from a fixed label: a sentence is built from the wording of the question (`Wording`: the
phrase for a positive estimate, for a negative one, and for no detected difference).

Adjustment. Where several questions are asked of the same games (every pair of seats, every
variant's effect), the intervals are simultaneous (Bonferroni: each at level alpha / m) and
the adjusted p is min(1, m p). The call is "significant" exactly when the printed interval
excludes 0, and exactly when the adjusted p is below alpha (for a normal or t interval the
three are the same statement), so an interval and its call can never disagree. Holm's
step-down is more powerful but has no interval that matches its calls; the engine prefers
calls a reader can check against the interval printed beside them.

Sign convention. "Seat A wins more often than seat B" is always A minus B and positive
(`seat_pair` orders the pair by the estimate). A change of a signed quantity (a variant's
effect on the first-player advantage) is worded as a change of sign when the two levels have
opposite signs (`change_words`), not as "raises" or "lowers"; a negative first-player
advantage is the first player's handicap, which a variant shrinks or widens
(`fpa_change_words`).

Power-aware classification (`classify`). A verdict measured in several settings (player
lineups, component readings, skill levels) holds unless a setting contradicts it: a setting
counts against the verdict only when it is significantly reversed, or when it differs
significantly from the reference setting (an interaction test: the difference of the two
estimates over its standard error, Bonferroni over the settings). A setting whose interval
contains both 0 and the reference's estimate is **inconclusive (too few games)**: it is
listed as such and never turns "holds" into "depends". For an inconclusive verdict the engine
gives the number of games that would decide it (`games_needed`, from the observed variance).

Everything here is plain Python with scipy's quantiles (no numba), tested in
tests/test_verdict_engine.py. It lives in the base (issue #48) so that the studies
(simcore.base.fairness, the compensation's choice) and the renderers (analysis) share it.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, replace

ALPHA = 0.05
_PAIR = re.compile(r"seat (\d+)'s win rate minus seat (\d+)'s")
POWER = 0.8  # the power games_needed plans for


def pair_seats(v: Verdict) -> tuple[int, int]:
    """The seats (A, B) of a record of "seat A's win rate minus seat B's" (a seat pair, or a
    largest gap, whose quantity names its pair in brackets)."""
    a, b = _PAIR.search(v.quantity).groups()
    return int(a), int(b)


@dataclass(frozen=True)
class Wording:
    """How a question is answered in words: `more` for a positive estimate, `less` for a
    negative one, `none` when no difference is detected (the call is not significant)."""

    more: str
    less: str
    none: str

    def flipped(self) -> Wording:
        """The wording of the negated quantity."""
        return Wording(self.less, self.more, self.none)


@dataclass(frozen=True)
class Verdict:
    """One answered question (the module docstring). estimate, low, high in `unit`; the
    interval is the one the call rests on (adjusted over `tests` tests when tests > 1); p is
    the adjusted p."""

    key: str  # which question, e.g. "3p/seat_pair/2-0" (the same key in every command)
    quantity: str  # what is measured, e.g. "seat 2's win rate minus seat 0's"
    unit: str  # "points" (of win rate), "rounds", ...
    estimate: float
    low: float
    high: float
    p: float
    games: int
    tests: int = 1
    alpha: float = ALPHA
    se: float = float("nan")  # the standard error of the estimate (for games_needed)
    wording: Wording = field(default_factory=lambda: Wording("is higher", "is lower", "no change"))
    # what the call rests on, from another record (a feel effect that comes with a longer
    # tied opening: analysis.compare.opening_notes); said after the sentence
    note: str = ""

    @property
    def significant(self) -> bool:
        """The call: the interval excludes 0 (equivalently p < alpha)."""
        return self.low > 0 or self.high < 0

    @property
    def sign(self) -> int:
        """+1 or -1 by the estimate's sign when significant, else 0."""
        if not self.significant:
            return 0
        return 1 if self.estimate > 0 else -1

    @property
    def adjusted(self) -> bool:
        return self.tests > 1

    @property
    def words(self) -> str:
        """The direction phrase, derived from the sign of the estimate."""
        if self.sign > 0:
            return self.wording.more
        if self.sign < 0:
            return self.wording.less
        return self.wording.none

    def negated(self) -> Verdict:
        """The same answer for the negated quantity (B minus A instead of A minus B)."""
        quantity = f"minus ({self.quantity})"
        pair = _PAIR.fullmatch(self.quantity)
        if pair:  # "seat 2's win rate minus seat 0's" -> "seat 0's win rate minus seat 2's"
            quantity = f"seat {pair[2]}'s win rate minus seat {pair[1]}'s"
        return replace(
            self,
            quantity=quantity,
            estimate=-self.estimate,
            low=-self.high,
            high=-self.low,
            wording=self.wording.flipped(),
        )

    def interval_text(self) -> str:
        """'+5.1 points (95% CI +1.6 to +8.6, adjusted over 3 tests)'."""
        return interval_words(self.estimate, self.low, self.high, self.unit, self.alpha, self.tests)

    def sentence(self) -> str:
        """The verdict in words: the direction phrase, the number, its interval and p."""
        p = "p < 0.001" if self.p < 0.001 else f"p = {self.p:.3f}"
        if self.adjusted:
            p = "adjusted " + p
        note = f"; {self.note}" if self.note else ""
        return f"{self.words}: {self.interval_text()}, {p}, {self.games:,} games{note}"

    def as_json(self) -> dict:
        """The record for JSON (shares and points as computed; keys documented in
        docs/statistics.md)."""
        out = asdict(self)
        out.update(significant=self.significant, sign=self.sign, words=self.words)
        return out


def decimals_for(low: float, high: float, estimate: float, unit: str) -> int:
    """The decimals a person reads: two significant digits of the interval's half-width (one
    at least for points, at most four)."""
    hw = (high - low) / 2
    least = 1 if unit.startswith("points") else 0
    if not math.isfinite(hw) or hw <= 0:
        return max(least, 2 if abs(estimate) < 1 else 1)
    return int(min(max(1 - math.floor(math.log10(hw)), least), 4))


def interval_words(
    estimate: float, low: float, high: float, unit: str, alpha: float = ALPHA, tests: int = 1
) -> str:
    """A record's number and the interval its call rests on, in words: '+5.1 points (95% CI
    +1.6 to +8.6, adjusted over 3 tests)' (the same text from a Verdict or its JSON)."""
    conf = f"{100 * (1 - alpha):g}% CI"
    adj = f", adjusted over {tests} tests" if tests > 1 else ""
    d = decimals_for(low, high, estimate, unit)
    unit = f" {unit}" if unit else ""
    return f"{_num(estimate, d)}{unit} ({conf} {_num(low, d)} to {_num(high, d)}{adj})"


def _num(v: float, decimals: int = 1) -> str:
    """A signed number with these decimals ('+5.1'; a value that rounds to 0 is '+0.0')."""
    if not math.isfinite(v):
        return "n/a"
    x = round(v, decimals) + 0.0  # + 0.0: no '-0.0'
    return f"{x:+.{decimals}f}"


# ------------------------------------------------------------------------------ building
def z_verdict(
    key: str,
    quantity: str,
    unit: str,
    estimate: float,
    se: float,
    games: int,
    wording: Wording,
    tests: int = 1,
    alpha: float = ALPHA,
    df: int | None = None,
) -> Verdict:
    """A verdict from an estimate and its standard error: the interval at level alpha / tests
    (Bonferroni), normal or (df given) Student's t, and the adjusted p = min(1, tests * p)."""
    level = alpha / max(tests, 1)
    if se > 0 and math.isfinite(se):
        q, p = _quantile(1 - level / 2, df), _two_sided_p(abs(estimate) / se, df)
        low, high = estimate - q * se, estimate + q * se
    else:  # no variation: the estimate is exact
        p = 1.0 if estimate == 0 else 0.0
        low = high = estimate
    return Verdict(
        key,
        quantity,
        unit,
        float(estimate),
        float(low),
        float(high),
        min(1.0, p * max(tests, 1)),
        int(games),
        max(tests, 1),
        alpha,
        float(se),
        wording,
    )


def _special():
    """scipy.special, loaded at the first interval (about 0.1 s: the CLI's options read
    simcore.base.fairness.TOLERANCE, which imports this module, on every command)."""
    from scipy import special

    return special


def _quantile(prob: float, df: int | None) -> float:
    """The normal (df None) or Student's t quantile: scipy.special's functions, which
    scipy.stats' ppf calls (the same floats, without its per-call overhead)."""
    _sp = _special()
    if df is None:
        return float(_sp.ndtri(prob))
    return float(_sp.stdtrit(max(df, 1), prob))


def _two_sided_p(z: float, df: int | None) -> float:
    _sp = _special()
    if df is None:
        return float(2 * _sp.ndtr(-z))
    return float(2 * _sp.stdtr(max(df, 1), -z))


def share_difference_se(wins_a: float, wins_b: float, games: int) -> float:
    """The standard error of p_a - p_b, two outcome shares of the same games (multinomial
    covariance; as analysis.stats.multinomial_diff_ci)."""
    pa, pb = wins_a / games, wins_b / games
    d = pa - pb
    return math.sqrt(max(pa + pb - d * d, 0.0) / games)


def seat_pair(
    players: int,
    pair: tuple[int, int],
    wins: Sequence[float],
    games: int,
    tests: int = 1,
    alpha: float = ALPHA,
) -> Verdict:
    """Which of the seats a, b = pair wins more often (wins: per seat), in points of win rate:
    always oriented so that the estimate is the seat that wins more minus the other, so a
    positive number stands beside "seat X wins more often than seat Y" (tests: the pairs
    adjusted over)."""
    a, b = pair
    wins_a, wins_b = wins[a], wins[b]
    if wins_b > wins_a:
        a, b, wins_a, wins_b = b, a, wins_b, wins_a
    lo_seat, hi_seat = sorted((a, b))
    est = 100 * (wins_a - wins_b) / games
    se = 100 * share_difference_se(wins_a, wins_b, games)
    words = Wording(
        f"seat {a} wins more often than seat {b}",
        f"seat {b} wins more often than seat {a}",
        f"seats {lo_seat} and {hi_seat} win equally often (no difference detected)",
    )
    return z_verdict(
        f"{players}p/seat_pair/{lo_seat}-{hi_seat}",
        f"seat {a}'s win rate minus seat {b}'s",
        "points",
        est,
        se,
        games,
        words,
        tests,
        alpha,
    )


def all_seat_pairs(wins: Sequence[float], games: int, alpha: float = ALPHA) -> list[Verdict]:
    """Every pair of seats, adjusted over the pairs (simultaneous intervals)."""
    k = len(wins)
    m = k * (k - 1) // 2
    return [seat_pair(k, (i, j), wins, games, m, alpha) for i in range(k) for j in range(i + 1, k)]


def largest_gap(players: int, wins: Sequence[float], games: int, alpha: float = ALPHA) -> Verdict:
    """Whether the seats are equally strong: the seat that wins most minus the seat that wins
    least (the first of equals), as the seat pair of those two seats, adjusted over every
    pair of seats (it is the largest of the pairs, chosen after the games)."""
    w = [float(x) for x in wins]
    best = max(range(players), key=lambda s: (w[s], -s))
    worst = min(range(players), key=lambda s: (w[s], s))
    if best == worst:
        worst = (best + 1) % players
    m = players * (players - 1) // 2
    pair = seat_pair(players, (best, worst), w, games, m, alpha)
    top, low = (best, worst) if pair.estimate >= 0 else (worst, best)
    words = Wording(
        f"the seats are not equally strong: seat {top} wins most, seat {low} least",
        f"the seats are not equally strong: seat {top} wins most, seat {low} least",
        "no gap between the seats detected",
    )
    return replace(
        pair,
        key=f"{players}p/largest_gap",
        quantity=f"the largest seat gap (seat {top}'s win rate minus seat {low}'s)",
        wording=words,
    )


def fpa_se(players: int, seat0_wins: float, outright_wins: float, games: int) -> float:
    """The standard error of the first-player advantage (simcore.base.metrics'
    first_player_advantage, the mean of a per-game value: 1 - 1/N when seat 0 wins, -1/N when
    another seat wins outright, 0 otherwise), from the counts."""
    if games < 2:
        return float("nan")
    n, f = float(games), 1.0 / players
    w0, others = float(seat0_wins), float(outright_wins) - float(seat0_wins)
    mean = (w0 * (1 - f) - others * f) / n
    square = (w0 * (1 - f) ** 2 + others * f * f) / n
    return math.sqrt(max(square - mean * mean, 0.0) * n / (n - 1) / n)


def first_player_advantage(
    players: int, seat0_wins: float, outright_wins: float, games: int, alpha: float = ALPHA
) -> Verdict:
    """Seat 0's win rate minus its fair share of the outright wins, in points (one question,
    not adjusted)."""
    est = 100 * (seat0_wins / games - outright_wins / games / players)
    return z_verdict(
        f"{players}p/fpa",
        "seat 0's win rate minus its fair share of the outright wins",
        "points",
        est,
        100 * fpa_se(players, seat0_wins, outright_wins, games),
        games,
        Wording(
            "the first player has an advantage",
            "the first player is at a disadvantage",
            "no first-player advantage detected",
        ),
        alpha=alpha,
    )


def seat_verdicts(
    players: int, seat_wins: Sequence[float], games: int, alpha: float = ALPHA
) -> list[Verdict]:
    """Every seat verdict of a player count: with 3 or more players the largest seat gap,
    every pair of seats and the first-player advantage; with 2 only the first-player
    advantage (the seat gap is twice it, the one pair the same question); none solo."""
    if players < 2 or games < 1:
        return []
    fpa = first_player_advantage(players, seat_wins[0], sum(seat_wins), games, alpha)
    if players == 2:
        return [fpa]
    return [
        largest_gap(players, seat_wins, games, alpha),
        *all_seat_pairs(seat_wins, games, alpha),
        fpa,
    ]


# the words of a variant's effect on a metric, (when it raises it, when it lowers it); the
# first-player advantage's are change_words' (a change of sign worded as such)
EFFECT_WORDS = {
    "largest_gap": ("widens the largest seat gap", "narrows the largest seat gap"),
    "rounds": ("lengthens the game", "shortens the game"),
    "turns": ("lengthens the game (in turns)", "shortens the game (in turns)"),
    "shared": ("brings more shared wins", "brings fewer shared wins"),
    "lead_changes": ("brings more lead changes", "brings fewer lead changes"),
    "drama": ("raises the drama", "lowers the drama"),
    "decisiveness": ("decides the game later", "decides the game earlier"),
    "runaway": (
        "lets the leader at half-time win more often",
        "lets the leader at half-time win less often",
    ),
    "comeback": (
        "lets the last at half-time win more often",
        "lets the last at half-time win less often",
    ),
    "margin": ("widens the winning margin", "narrows the winning margin"),
    "half_known": (
        "gives a unique leader at half-time more often",
        "gives a unique leader at half-time less often",
    ),
    "opening": ("lengthens the tied opening", "shortens the tied opening"),
}


def effect_wording(
    arm: str, metric: str, label: str, more: str, less: str, before: float, after: float, unit: str
) -> Wording:
    """How a variant's effect on a metric is said: the metric's own verbs (EFFECT_WORDS, else
    '`arm`: higher seat 0 win rate'), the first-player advantage as a change of a signed
    level (change_words)."""
    if metric == "fpa":
        text = f"`{arm}` " + fpa_change_words(before, after, unit)
        return Wording(text, text, f"`{arm}`: no change in the first-player advantage detected")
    up, down = EFFECT_WORDS.get(metric, (f"{more} {label}", f"{less} {label}"))
    if metric in EFFECT_WORDS:
        return Wording(
            f"`{arm}` {up}", f"`{arm}` {down}", f"`{arm}`: no change in the {label} detected"
        )
    return Wording(
        f"`{arm}`: {up}", f"`{arm}`: {down}", f"`{arm}`: no change in the {label} detected"
    )


def change_words(before: float, after: float, name: str, unit: str) -> str:
    """A change of a signed quantity in words: 'raises' / 'lowers' (by the sign of after -
    before) when both levels have the same sign (or one is 0), else a change of sign with
    both levels ('turns the first-player advantage from +0.2 to -1.5 points')."""
    if before * after < 0:
        return f"turns the {name} from {_num(before)} to {_num(after)} {unit}"
    verb = "raises" if after > before else "lowers"
    return f"{verb} the {name} from {_num(before)} to {_num(after)} {unit}"


def fpa_change_words(before: float, after: float, unit: str) -> str:
    """A change of the first-player advantage in words, a negative one being the first
    player's handicap: 'raises the first-player advantage from +1.2 to +3.4 points', 'shrinks
    the first player's handicap from 7.7 to 5.1 points', 'turns the first player's handicap of
    0.2 points into an advantage of 1.5 points' (by the levels' signs; 0 counts with the
    other level's sign)."""
    if before * after < 0:
        was, now = ("advantage", "a handicap") if before > 0 else ("handicap", "an advantage")
        return (
            f"turns the first player's {was} of {abs(before):.1f} {unit} into {now} of "
            f"{abs(after):.1f} {unit}"
        )
    if before < 0 or after < 0:
        verb = "shrinks" if abs(after) < abs(before) else "widens"
        levels = f"from {abs(before):.1f} to {abs(after):.1f} {unit}"
        return f"{verb} the first player's handicap {levels}"
    return change_words(before, after, "first-player advantage", unit)


# ------------------------------------------------------------------------------ planning
def games_needed(v: Verdict, power: float = POWER) -> int | None:
    """The games that would make the estimate significant with probability `power` at the
    verdict's adjusted level, if the true effect were the estimate and the variance as
    observed (se proportional to 1 / sqrt(games)); None when the estimate is 0 or the
    standard error unknown."""
    if not (math.isfinite(v.se) and v.se > 0) or v.estimate == 0:
        return None
    level = v.alpha / v.tests
    z = _quantile(1 - level / 2, None) + _quantile(power, None)
    return int(math.ceil(v.games * (z * v.se / abs(v.estimate)) ** 2))


# ------------------------------------------------------------------------------ classifying
SETTING_STATES = ("agrees", "inconclusive", "not detected", "differs", "reversed")
CLASSES = ("holds", "depends", "inconclusive", "not detected")


@dataclass(frozen=True)
class SettingCall:
    """How one setting's verdict stands beside the reference's: `state` one of
    SETTING_STATES; `against`: it counts against the verdict (reversed, or significantly
    different from the reference); `interaction_p`: the adjusted p of the difference from the
    reference."""

    setting: str
    kind: str  # what the setting varies ("players", "components", "skill", ...)
    verdict: Verdict
    state: str
    against: bool
    interaction_p: float


@dataclass(frozen=True)
class Classified:
    """A verdict over settings: its class (CLASSES), the kinds of setting it depends on, each
    setting's call, and for an inconclusive reference the games that would decide it."""

    reference: Verdict
    status: str
    depends_on: tuple[str, ...]
    settings: tuple[SettingCall, ...]
    games_to_decide: int | None = None

    def label(self) -> str:
        if self.status == "depends":
            return "depends on " + " and ".join(self.depends_on)
        if self.status == "inconclusive":
            parts = []
            if self.reference.sign:
                open_ = sum(c.state != "agrees" for c in self.settings)
                parts.append(f"undecided in {open_} of {len(self.settings)} other settings")
            if self.games_to_decide:
                parts.append(f"{self.games_to_decide:,} games a setting would decide it")
            return "inconclusive (too few games" + "".join(f"; {p}" for p in parts) + ")"
        return self.status


def classify(
    reference: Verdict,
    settings: Sequence[tuple[str, str, Verdict]],
    alpha: float = ALPHA,
    margin: float = 1.0,
) -> Classified:
    """The reference's verdict over the other settings (setting name, kind, verdict), by the
    rules of the module docstring.

    A significant reference **depends** on the kinds of the settings that count against it
    (significantly reversed, or significantly different from the reference: interaction
    test, Bonferroni over the settings); with none against, it **holds** when every setting
    agrees (significant in the same direction), else it is **inconclusive (too few games)**:
    the settings that are not decided are listed, never counted as failures, with the games
    that would decide the least decided of them at the reference's size.

    A reference that is not significant **depends** when some setting finds the verdict
    (significant) and differs significantly from the reference; else **not detected** when
    its interval lies within +-margin units of 0 (no difference of that size), else
    **inconclusive (too few games)**, with the games that would decide it.

    So more games can turn "inconclusive" into "holds" or "depends", but a verdict does not
    go from "holds" to "depends" as games are added unless a setting truly differs (at the
    rate of a false interaction, at most alpha)."""
    m = max(len(settings), 1)
    calls = []
    for name, kind, v in settings:
        diff = v.estimate - reference.estimate
        se = math.hypot(_se_of(v), _se_of(reference))
        if se > 0 and math.isfinite(se):
            p_int = min(1.0, m * _two_sided_p(abs(diff) / se, None))
        else:
            p_int = 1.0 if diff == 0 else 0.0
        differs = p_int < alpha
        if reference.sign and v.sign == -reference.sign:
            state = "reversed"
        elif reference.sign and v.sign == reference.sign:
            state = "agrees"
        elif v.sign and differs:
            state = "differs"  # found here, not in the reference (or larger than it)
        elif not v.sign and differs:
            state = "differs" if reference.sign else "not detected"
        elif v.sign:
            state = "agrees"  # a non-significant reference: found here, not different
        else:
            state = "inconclusive"
        against = state == "reversed" or (state == "differs" and (reference.sign or v.sign))
        calls.append(SettingCall(name, kind, v, state, against, p_int))
    kinds = tuple(dict.fromkeys(c.kind for c in calls if c.against))
    if kinds:
        return Classified(reference, "depends", kinds, tuple(calls))
    if reference.sign == 0:
        if -margin <= reference.low and reference.high <= margin:
            return Classified(reference, "not detected", (), tuple(calls))
        return Classified(reference, "inconclusive", (), tuple(calls), games_needed(reference))
    open_ = [c for c in calls if c.state != "agrees"]
    if not open_:
        return Classified(reference, "holds", (), tuple(calls))
    needed = [games_needed(replace(c.verdict, estimate=reference.estimate)) for c in open_]
    known = [g for g in needed if g is not None]
    return Classified(reference, "inconclusive", (), tuple(calls), max(known) if known else None)


def _se_of(v: Verdict) -> float:
    """The standard error, from the record or from its interval's half-width."""
    if math.isfinite(v.se):
        return v.se
    q = _quantile(1 - v.alpha / v.tests / 2, None)
    return (v.high - v.low) / (2 * q)
