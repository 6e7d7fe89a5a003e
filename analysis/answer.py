"""The report's first screen (issue #39): the answer a designer asks for, one row per player
count, in words made from verdict records (simcore.base.verdicts), each with its number and
interval:

- **fair or not, for beginners and for strong players**: the reference preset in every seat
  (the seat balance's games) and `search` in every seat (the report's strong players), side by
  side. *Fair* is the compensation study's equivalence judge (simcore.base.fairness.fair_status:
  every pair of seats within +-TOLERANCE points, simultaneous 95% intervals); *not fair* names
  the favoured seat, its win rate and the largest seat gap (its simultaneous interval);
  *undecided* says that the games given cannot tell;
- one skill word per row: the beginners' largest seat gap (the same pair of seats) and
  first-player advantage classified over the strong players' games by the engine's
  `classify` (holds / depends on skill / inconclusive / not detected);
- the first player's advantage at both levels;
- the die to use (analysis.compare.dice_tables: the clearly fairest die, or "no die is
  clearly fairer" with the margin to the runner-up);
- how to fix it (the report's compensation, when it played one: its recommendation).

Below, what each variant does to fairness (the largest seat gap), length (rounds) and how
much skill decides the game (the skill edge: the reference preset's win rate against `random`
players minus its fair share, seats rotated), each a verdict; and one plot of the seat win
rates per player count at both levels with their fair shares.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any

import pandas as pd

from analysis import plots
from analysis.compare import Comparison, DiceTables, dice_tables
from analysis.html import Document
from analysis.stats import wilson
from simcore.base.fairness import FAIR, TOLERANCE, UNFAIR, elo_vs_fair, fair_status
from simcore.base.results import CompensateRun, ReportRuns, RunResult
from simcore.base.verdicts import (
    Verdict,
    Wording,
    classify,
    first_player_advantage,
    interval_words,
    largest_gap,
    pair_seats,
    seat_pair,
    z_verdict,
)

BEGINNERS, STRONG = "beginners", "strong players"


@dataclass
class Level:
    """One skill level's games of one player count: who played (lineup), the games, the
    seats' outright wins."""

    name: str
    lineup: str
    players: int
    games: int
    seat_wins: list[float]

    @property
    def outright(self) -> float:
        return float(sum(self.seat_wins))

    @property
    def fair_share(self) -> float:
        """A seat's fair share of the games won outright (1/N of them)."""
        return self.outright / self.games / self.players

    def rates(self) -> pd.DataFrame:
        """Per seat: the win rate with its Wilson interval, and the fair share."""
        lo, hi = wilson(self.seat_wins, [self.games] * self.players)
        return pd.DataFrame(
            {
                "seat": range(self.players),
                "win_rate": [w / self.games for w in self.seat_wins],
                "ci_low": lo,
                "ci_high": hi,
                "fair": self.fair_share,
                "level": self.name,
            }
        )

    def gap(self) -> Verdict:
        return largest_gap(self.players, self.seat_wins, self.games)

    def fpa(self) -> Verdict:
        return first_player_advantage(self.players, self.seat_wins[0], self.outright, self.games)

    def status(self, tolerance: float = TOLERANCE) -> str:
        return fair_status(self, tolerance)  # a Level has the seats' wins and the games


def level_of(name: str, lineup: str, res: RunResult) -> Level:
    """A Level from a SimResult."""
    s = res.summary
    return Level(name, lineup, res.players, int(s.games), [float(w) for w in s.seat_wins])


def short_interval(v: Verdict, unit: bool = True) -> str:
    """A record's number and interval for a table cell: '+4.2 points (-3.6 to +11.9)', or
    without the unit '+4.2 (-3.6 to +11.9)' (the level, the adjustment and the unit are said
    once, in the caption)."""
    full = interval_words(v.estimate, v.low, v.high, v.unit if unit else "", v.alpha, v.tests)
    return (
        full.replace(f"{100 * (1 - v.alpha):g}% CI ", "").split(", adjusted")[0].rstrip(")") + ")"
    )


def _pct(v: float) -> str:
    return f"{100 * v:.1f}%"


def fairness_words(level: Level, tolerance: float = TOLERANCE) -> str:
    """One level's answer for the first screen: 'fair (...)', 'not fair: seat 2 is favoured,
    ...' or 'undecided (...)', each with the largest seat gap and its interval."""
    g = level.gap()
    top = pair_seats(g)[0] if g.sign else None
    gap = f"gap {short_interval(g, unit=False)}"
    st = level.status(tolerance)
    if st == FAIR:
        return f"**fair**; {gap}"
    if st == UNFAIR and top is not None:
        lo, hi = wilson(level.seat_wins[top], level.games)
        rate = f"{_pct(level.seat_wins[top] / level.games)} ({100 * lo:.1f} to {_pct(hi)})"
        return f"**not fair**: seat {top} favoured, {rate} vs {_pct(level.fair_share)}; {gap}"
    return f"**undecided**; {gap}"


def skill_word(beginners: Verdict, strong: Verdict) -> str:
    """Whether a beginners' verdict holds for strong players: the engine's classification of
    the reference over one setting (the strong players' verdict on the same question)."""
    c = classify(beginners, [(STRONG, "skill", strong)])
    if c.status == "holds":
        return "holds for strong players"
    if c.status == "depends":
        return "changes with skill"
    if c.status == "not detected":
        return "no difference at either level"
    return "not decided for strong players (too few games)"


def fpa_words(v: Verdict) -> str:
    return f"{FPA_SHORT[v.sign]} {short_interval(v, unit=False)}"


FPA_SHORT = {1: "ahead", -1: "behind", 0: "no advantage detected"}


@dataclass
class Row:
    """One player count of the first screen."""

    players: int
    beginners: Level
    strong: Level | None
    die: str = ""
    fix: str = ""
    rating: str = ""  # the strong players' rating over the reference level (elo_words)

    def cells(self, tolerance: float = TOLERANCE) -> dict[str, str]:
        b = self.beginners
        out = {"players": str(self.players), b.name: fairness_words(b, tolerance)}
        if self.strong is not None:
            s = self.strong
            gap_b = b.gap()
            pair = pair_seats(gap_b)
            gap_s = seat_pair_of(s, pair, gap_b)
            rated = f"; rated {self.rating} over the {b.name}" if self.rating else ""
            out["strong players"] = (
                f"{fairness_words(s, tolerance)}{rated}; the beginners' gap "
                f"{skill_word(gap_b, gap_s)}"
            )
            out[f"first player: {b.name} / strong"] = (
                f"{fpa_words(b.fpa())} / {fpa_words(s.fpa())}; {skill_word(b.fpa(), s.fpa())}"
            )
        else:
            out["first player"] = fpa_words(b.fpa())
        if self.die:
            out["die to use"] = self.die
        if self.fix:
            out["how to fix it"] = self.fix
        return out

    def as_json(self, tolerance: float = TOLERANCE) -> dict[str, Any]:
        levels = [lv for lv in (self.beginners, self.strong) if lv is not None]
        return {
            "players": self.players,
            "levels": [
                {
                    "level": lv.name,
                    "lineup": lv.lineup,
                    "games": lv.games,
                    "seat_wins": lv.seat_wins,
                    "fair_share": lv.fair_share,
                    "status": lv.status(tolerance),
                    "largest_gap": lv.gap().as_json(),
                    "fpa": lv.fpa().as_json(),
                }
                for lv in levels
            ],
            "cells": self.cells(tolerance),
        }


def seat_pair_of(level: Level, pair: tuple[int, int], ref: Verdict) -> Verdict:
    """The level's record of the pair of seats of `ref` (a largest gap), in ref's orientation,
    adjusted over every pair as the gap is."""
    m = level.players * (level.players - 1) // 2
    v = seat_pair(level.players, pair, level.seat_wins, level.games, m)
    return v if pair_seats(v)[0] == pair[0] else v.negated()


# ------------------------------------------------------------------------------ the die
def die_words(dice: DiceTables | None, players: int) -> str:
    """The die to use at a player count, from analysis.compare.dice_tables: the clearly
    fairest die, or no die clearly fairer with the margin to the runner-up (its record)."""
    if not dice:
        return ""
    t = dice["table"]
    rows = t[t["players"] == players].sort_values("largest_gap")
    if rows.empty:
        return ""
    best = rows.iloc[0]
    book = t[(t["players"] == players) & t["rulebook"]]
    book_die = book.iloc[0]["die"] if len(book) else ""
    where = " (the rulebook's)" if best["die"] == book_die else f" (rulebook: {book_die})"
    if len(rows) == 1:
        return f"{best['die']}, the only die"
    by_key = {v.key: v for v in dice["records"]}
    runner = by_key.get(f"{players}p/die_gap_excess/{rows.iloc[1]['die']}")
    margin = f"margin to {rows.iloc[1]['die']} {short_interval(runner, False)}" if runner else ""
    if bool(best["clearly_fairest"]):
        return f"**{best['die']}**{where}: clearly the fairest; {margin}"
    return f"no die clearly fairer: {best['die']}{where} has the smallest gap; {margin}"


def _fairest(dice: DiceTables, players: int) -> tuple[str, bool] | None:
    """The die of the smallest gap at a player count and whether it is clearly the fairest."""
    t = dice["table"]
    rows = t[t["players"] == players].sort_values("largest_gap")
    if rows.empty:
        return None
    return str(rows.iloc[0]["die"]), bool(rows.iloc[0]["clearly_fairest"])


def die_level_words(dice: DiceTables | None, strong: DiceTables | None, players: int) -> str:
    """The die to use at each level (die_words for the beginners' dice and the strong
    players'), and whether the levels choose the same die: both clearly the fairest, the same
    or a different one, or not decided at both."""
    beginners = die_words(dice, players)
    if strong is None or not beginners:
        return beginners
    b, s = _fairest(dice, players), _fairest(strong, players)
    if s is None:
        return beginners
    said = f"beginners: {beginners}; strong players: {die_words(strong, players)}"
    if b[1] and s[1]:
        same = "the same die at both levels" if b[0] == s[0] else "the die differs with skill"
        return f"{said}; {same}"
    return f"{said}; not decided at both levels whether they differ"


# ------------------------------------------------------------------------------ variants
SKILL_WORDS = Wording(
    "skill decides more", "skill decides less", "no change in how much skill decides detected"
)


def skill_gap(res: RunResult) -> tuple[float, float, int]:
    """How much skill decides, from a strong-against-reference match (policy 0 the strong
    player, seats rotated): the strong player's rating gap over the reference in Elo
    (simcore.base.fairness.elo_vs_fair of its win rate against its fair share of the games won
    outright), with its standard error by the delta method, 400 / ln 10 / sqrt(n p (1 - p)).
    Unlike an edge over random players it does not saturate: a variant that leaves every
    preset winning all its games against random players can still widen or narrow it."""
    n, wins, fair = match_counts(res)
    rate = min(max(wins / n, 0.001), 0.999)
    se = 400.0 / math.log(10.0) / math.sqrt(n * rate * (1.0 - rate))
    return elo_vs_fair(rate, fair), se, n


def match_counts(res: RunResult) -> tuple[int, float, float]:
    """(games, outright wins of policy 0, the fair share of the games won outright) of a
    one-against-the-others match, seats rotated."""
    s = res.summary
    n = int(s.games)
    return n, float(s.policy_wins[0]), float(sum(s.seat_wins)) / n / res.players


def skill_effect(base: RunResult, arm: RunResult, variant: str, tests: int) -> Verdict:
    """A variant's effect on how much skill decides (the rating gap of skill_gap, arm minus
    base), adjusted over the variants (Bonferroni). The two runs play the same seeds (common
    random numbers): the unpaired standard error used here is the larger one for positively
    correlated games, so the interval is conservative."""
    e0, s0, n0 = skill_gap(base)
    e1, s1, n1 = skill_gap(arm)
    return z_verdict(
        f"{base.players}p/skill_gap/effect/{variant}",
        "the strong players' rating gap over the beginners under the variant minus under the "
        "base rules",
        "Elo",
        e1 - e0,
        math.hypot(s0, s1),
        min(n0, n1),
        SKILL_WORDS,
        tests,
    )


# the short words of a variant's effect in the first screen's table, by the record's sign
# (+1, -1, 0): the seat gap's, the two-player first-player advantage's, the length's, the
# skill gap's
SHORT = {
    "largest_gap": {1: "less fair", -1: "fairer", 0: "no change"},
    "fpa": {1: "first player gains", -1: "first player loses", 0: "no change"},
    "rounds": {1: "longer", -1: "shorter", 0: "no change"},
    "skill": {1: "more", -1: "less", 0: "no change"},
}


UNCHANGED = "the players' games are unchanged (only the scores differ)"
IGNORED = "; the variant changes the components, which the players ignore"


def effect_words(
    v: Verdict | None, metric: str, same_games: bool = False, components: bool = False
) -> str:
    """A variant's effect in a cell: a short direction word from the record's sign and the
    number with its interval; for the length of a variant under which the players' games are
    unchanged (same_games: every game the baseline's, difference 0 without variance), that
    fact, and for a component reading (components) that the players ignore its change."""
    if v is None:
        return ""
    if same_games and v.estimate == 0 and v.low == v.high == 0:
        return UNCHANGED + (IGNORED if components else "")
    return f"{SHORT[metric][v.sign]} {short_interval(v, unit=False)}"


def variant_table(
    records: dict[str, Verdict],
    skill: dict[str, Verdict],
    counts: list[int],
    variants: Sequence[str],
    readings: Collection[str] = (),
) -> pd.DataFrame:
    """One row per variant: its effect on fairness (the largest seat gap; with two players
    the first player's advantage), on the length (rounds), per player count, from the variant
    comparison's records; and on the skill edge at the count it is measured at. readings: the
    game's component readings (a variant that changes the components)."""
    rows = []
    for v in variants:
        components = any(part in readings for part in v.split("+"))
        fair, length = [], []
        for p in counts:
            gap = records.get(f"{p}p/effect/{v}/largest_gap")
            if gap is not None:
                fair.append(f"{p}p {effect_words(gap, 'largest_gap')}")
            elif f"{p}p/effect/{v}/fpa" in records:
                fair.append(f"{p}p {effect_words(records[f'{p}p/effect/{v}/fpa'], 'fpa')}")
            rounds = records.get(f"{p}p/effect/{v}/rounds")
            if rounds is not None:
                words = effect_words(rounds, "rounds", same_games=True, components=components)
                length.append(f"{p}p {words}")
        sk = skill.get(v)
        if not fair and not length and sk is None:
            continue
        rows.append(
            {
                "variant": v,
                "fairness: largest seat gap, points": "; ".join(fair),
                "length: rounds": "; ".join(length),
                "how much skill decides: the strong players' rating gap, Elo": (
                    f"{_players_of(sk)}p {effect_words(sk, 'skill')}" if sk is not None else ""
                ),
            }
        )
    return pd.DataFrame(rows)


def _players_of(v: Verdict) -> int:
    return int(v.key.split("p/")[0])


# ------------------------------------------------------------------------------ the fix
FIX_STATUS = {FAIR: "fair", UNFAIR: "not fair", "undecided": "undecided"}


def fix_words(
    run: CompensateRun, names: dict[str, str] | None = None
) -> tuple[str, dict[str, Any]]:
    """How to fix a player count's seats, from its compensation study (analysis.compensate
    .analyse), searched at the level whose seats are not fair (names: a lineup's level name,
    'beginners' or 'strong players'): the compensation a rulebook prints, its status on the
    fresh games at that level with the seat win rates, and what the other level says of it
    (fair there too; else that level's own compensation, or none found)."""
    from analysis.compensate import analyse

    names = names or {}
    a = analyse(run, run.seat_words)
    rec = a["recommendation"]
    conf = next(c for c in a["confirmed"][1:] if c["compensation"] == rec["compensation"])
    base = a["confirmed"][0]
    who = names.get(run.level, f"`{run.level}`")
    rates = " / ".join(f"{r:.1f}%" for r in conf["seat_rates"])
    words = f"{rec['words']}: {FIX_STATUS[rec['status']]} for {who} ({rates}, "
    words += f"{fix_gap(run.recommendation)}, {conf['games']:,} fresh games)"
    after = {lv: p for lv, _, p in run.levels}
    searched = {ls.level: ls.recommendation for ls in run.level_searches}
    if rec["status"] != FAIR and conf["gap"] >= base["gap"]:
        # the closest finalist does not even narrow the gap on the fresh games
        words = (
            f"none found for {who}: the closest of {len(a['screened'])} screened "
            f"({rec['words']}) leaves a gap of {conf['gap']:.1f} points on "
            f"{conf['games']:,} fresh games, the rulebook {base['gap']:.1f}"
        )
    elif rec["status"] != FAIR:
        words = f"closest found: {words}"
    for lv in a["levels"]:
        w = lv["with"]
        lv_rates = " / ".join(f"{r:.1f}%" for r in w["seat_rates"])
        other = names.get(lv["level"], f"`{lv['level']}`")
        words += f"; {FIX_STATUS[w['status']]} for {other} ({lv_rates}, "
        words += f"{fix_gap(after[lv['level']])})"
    own = [r for r in a["per_level"] if r["source"] in ("search", "rulebook", "shared")]
    for r in own:
        other = names.get(r["level"], f"`{r['level']}`")
        if r["source"] == "rulebook":
            words += f"; for {other}: no compensation (the rulebook as it is)"
            continue
        if r["source"] == "shared":
            words += f"; for {other}: {r['words']} ({FIX_STATUS[r['status']]} there)"
            continue
        if not r.get("found", True):
            words += f"; for {other}: none found"
            continue
        mark = (
            "confirmed fair" if r["status"] == FAIR else f"closest found, {FIX_STATUS[r['status']]}"
        )
        gap = f", {fix_gap(searched[r['level']])}" if r["level"] in searched else ""
        words += f"; for {other}: {r['words']} ({mark}{gap})"
    return words, a


def fix_gap(p: Any) -> str:
    """A confirmed compensation's largest seat gap on its fresh games with its interval, as
    the level cells give theirs ('gap +0.5 (-0.8 to +1.8)'): what an undecided status rests
    on (fair needs the whole interval within the tolerance)."""
    return "gap " + short_interval(largest_gap(len(p.seat_wins), p.seat_wins, p.games), False)


# ------------------------------------------------------------------------------ the section
def answer_rows(
    runs: ReportRuns,
    dice: DiceTables | None,
    fixes: dict[int, str],
    dice_strong: DiceTables | None = None,
) -> list[Row]:
    """The first screen's rows from a played report; fixes: the words of each player count's
    compensation study (fix_words); dice, dice_strong: the dice tables at each level."""
    lineup = runs.policy or runs.spec.default_policy
    little = skill_is_small(strong_vs(runs))
    rows = []
    for p in runs.player_counts:
        if p < 2:
            continue
        beg = level_of(reference_name(runs), lineup, runs.seats[p])
        res = None if little else runs.strong.get(p)
        strong = level_of(STRONG, runs.strong_lineup, res) if res is not None else None
        die = die_level_words(dice, dice_strong if strong is not None else None, p)
        vs = strong_vs(runs, p)
        rating = elo_words(vs) if vs is not None and strong is not None else ""
        rows.append(Row(p, beg, strong, die, fixes.get(p, no_fix(beg, strong)), rating))
    return rows


def no_fix(beginners: Level, strong: Level | None) -> str:
    """The fix cell of a player count without a compensation study: none needed when every
    level's seats are fair, none recommended when no pair of seats is shown beyond the
    tolerance at any level; where a level is not fair (the game has no compensation field,
    or a lineup of the designer's was given), that no compensation was searched."""
    levels = [lv for lv in (beginners, strong) if lv is not None]
    status = {lv.status() for lv in levels}
    if UNFAIR in status:
        return "no compensation searched (the game has no compensation field, or --policy)"
    if status == {FAIR}:
        return "no compensation needed"
    return f"none recommended: no pair of seats shown beyond +-{TOLERANCE:g} at either level"


def skill_effects(runs: ReportRuns) -> dict[str, Verdict]:
    """Each variant's effect on how much skill decides (the strong players' rating gap over
    the beginners under each variant against the base rules' at the nearest count to 3, on
    the same seeds), adjusted over the variants."""
    base = runs.strong_vs.get(runs.spec.nearest_players(3))
    arms = runs.skill
    if base is None or not arms:
        return {}
    return {v: skill_effect(base, r, v, len(arms)) for v, r in arms.items()}


def variant_records(runs: ReportRuns, comparisons: dict[int, Comparison]) -> dict[str, Verdict]:
    """The variant comparison's records of every player count, by key."""
    out: dict[str, Verdict] = {}
    for p in runs.player_counts:
        if p in comparisons:
            out.update({v.key: v for v in comparisons[p].verdicts})
    return out


def reference_name(runs: ReportRuns) -> str:
    """The reference level's name: beginners (the game's default preset), or the designer's
    lineup (--policy)."""
    return BEGINNERS if runs.policy is None else "your lineup"


def strong_vs(runs: ReportRuns, players: int | None = None) -> dict[str, Any] | None:
    """How strong the strong players are: one of them against the reference preset in the
    other seats (seats rotated): its win rate with the Wilson interval, and its fair share of
    the games won outright."""
    res = runs.strong_vs.get(players or runs.spec.nearest_players(3))
    if res is None:
        return None
    n, wins, fair = match_counts(res)
    lo, hi = wilson(wins, n)
    return {
        "players": res.players,
        "games": n,
        "win_rate": wins / n,
        "ci_low": float(lo),
        "ci_high": float(hi),
        "fair_share": fair,
        # the rating gap over the reference (elo_vs_fair: the odds of a fair seat turned into
        # the strong player's), with the Wilson interval's bounds turned alike
        "elo": elo_vs_fair(wins / n, fair),
        "elo_low": elo_vs_fair(float(lo), fair),
        "elo_high": elo_vs_fair(float(hi), fair),
    }


# below this rating gap over the beginners (the interval's upper bound), skill decides little
SMALL_SKILL_ELO = 50.0


def skill_is_small(vs: dict[str, Any] | None) -> bool:
    """Whether the strongest player found is within SMALL_SKILL_ELO of the beginners (its
    interval's upper bound below it): the first screen then says so instead of a column of
    strong players' cells."""
    return vs is not None and vs["elo_high"] < SMALL_SKILL_ELO


def elo_words(vs: dict[str, Any]) -> str:
    return f"{vs['elo']:+.0f} Elo ({vs['elo_low']:+.0f} to {vs['elo_high']:+.0f})"


STRONGER = {
    1: "stronger",
    0: "**not shown stronger** than the beginners with these games (try a larger budget with "
    "--strong)",
    -1: "**weaker** than the beginners: choose stronger ones with --strong (a larger budget)",
}


def stronger(vs: dict[str, Any]) -> int:
    """+1 when the strong player's win rate against the reference is above its fair share
    (the Wilson interval wholly above), -1 when below, 0 when the interval holds it."""
    if vs["ci_low"] > vs["fair_share"]:
        return 1
    return -1 if vs["ci_high"] < vs["fair_share"] else 0


def intro(runs: ReportRuns, rows: list[Row], tolerance: float = TOLERANCE) -> str:
    """What the two levels are, how many games, what fair means."""
    lineup = runs.policy or runs.spec.default_policy
    name = reference_name(runs).capitalize()
    text = f"**{name}**: `{lineup}` in every seat ({runs.games['seats']:,} games a player count)"
    vs = strong_vs(runs)
    if any(r.strong is not None for r in rows):
        text += (
            f"; **strong players**: `{runs.strong_lineup}` in every seat "
            f"({runs.games['strong']:,} games a player count)"
        )
        if vs is not None:
            text += (
                f", rated {elo_words(vs)} over the {name.lower()}: one of them wins "
                f"{_pct(vs['win_rate'])} ({_pct(vs['ci_low'])} to {_pct(vs['ci_high'])}) "
                f"against {vs['players'] - 1} `{lineup}` (a fair share: "
                f"{_pct(vs['fair_share'])}, {vs['games']:,} games): {STRONGER[stronger(vs)]}"
            )
    elif skill_is_small(vs):
        text += (
            f"; **skill decides little in this game**: the strongest player found "
            f"(`{runs.strong_lineup}`) is {elo_words(vs)} over the {name.lower()} (one of them "
            f"wins {_pct(vs['win_rate'])} against {vs['players'] - 1} `{lineup}`, a fair share "
            f"{_pct(vs['fair_share'])}, {vs['games']:,} games), so the table has no column of "
            "strong players"
        )
    elif runs.spec.no_search:
        text += f"; no strong players ({runs.spec.no_search})"
    return (
        text + f". **Fair**: every pair of seats within +-{tolerance:g} points of win rate "
        "(simultaneous 95% intervals); each word comes from its interval. The detail is in "
        "the closed parts below."
    )


def answer_section(
    doc: Document,
    runs: ReportRuns,
    dice: DiceTables | None,
    comparisons: dict[int, Comparison],
) -> dict[str, Any]:
    """The first screen: the answer table, what each variant does, the plot. dice: the dice
    tables (analysis.compare.dice_tables), comparisons: the variant comparison per player
    count. Returns the JSON of report.json's 'answer'."""
    names = {
        runs.policy or runs.spec.default_policy: reference_name(runs),
        runs.strong_lineup: STRONG,
    }
    fixes = {p: fix_words(run, names) for p, run in runs.fixes.items()}
    dice_strong = dice_tables(runs.dice_strong) if runs.dice_strong else None
    rows = answer_rows(runs, dice, {p: words for p, (words, _) in fixes.items()}, dice_strong)
    doc.heading("The answer", 2)
    doc.text(intro(runs, rows))
    if rows:
        doc.table(
            pd.DataFrame([r.cells() for r in rows]),
            caption="Is it fair? (in points of win rate, 95% intervals; a seat gap's "
            "simultaneous over the pairs of seats, a die's margin over the dice)",
            words=True,
        )
    skill = skill_effects(runs)
    records = variant_records(runs, comparisons)
    readings = runs.spec.readings(runs.choice.rules_file)
    vt = variant_table(records, skill, runs.player_counts, runs.variants[1:], readings)
    if len(vt):
        vt = vt.loc[:, [c for c in vt.columns if (vt[c] != "").any()]]
        doc.table(
            vt,
            caption="What each variant does against the rulebook's game (the same games; 95% "
            "intervals, simultaneous over each player count's comparison)",
            words=True,
        )
    levels = [lv for r in rows for lv in (r.beginners, r.strong) if lv is not None]
    if levels:
        fig, ax = plots.new_figure((7.5, 3.3))
        plots.answer_rates(
            pd.concat([lv.rates().assign(players=lv.players) for lv in levels]), ax=ax
        )
        doc.figure(
            fig,
            "answer.png",
            "Seat win rates per player count at each level (95% intervals); dashed: each "
            "level's fair share, 1/N of the games won outright (below 1/N by the shared wins)",
        )
    return {
        "tolerance": TOLERANCE,
        "rows": [r.as_json() for r in rows],
        "variants": [{k: str(x) for k, x in rec.items()} for rec in vt.to_dict("records")],
        "skill_effects": [v.as_json() for v in skill.values()],
        "fixes": {str(p): analysed for p, (_, analysed) in fixes.items()},
        "strong_vs": strong_vs(runs),
        "strong_vs_by_players": {str(p): strong_vs(runs, p) for p in runs.strong_vs},
        "dice_strong": dice_strong["verdicts"] if dice_strong else None,
    }
