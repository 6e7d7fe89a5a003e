"""Plots that do not mislead (issue #39, point 2): the win-rate axis always includes the fair
share and states its range, the fair-share line says what it is when shared wins make it
differ from 1/N, and a cut (zoomed) axis carries a note on the plot."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import pandas as pd  # noqa: E402

from analysis import plots  # noqa: E402


def _seats(rates, half=0.004, fair=None):
    df = pd.DataFrame(
        {
            "seat": range(len(rates)),
            "win_rate": rates,
            "ci_low": [r - half for r in rates],
            "ci_high": [r + half for r in rates],
        }
    )
    return df if fair is None else df.assign(fair=fair)


def _texts(ax) -> list[str]:
    return [t.get_text() for t in ax.texts]


def test_the_fair_share_line_says_what_it_is():
    assert plots.fair_label(1 / 3, 3) == "fair share (1/3)"
    label = plots.fair_label(0.308, 3)
    assert label.startswith("fair share 30.8%: 1/3 of the 92.4% of games won outright")


def test_a_cut_axis_includes_the_fair_share_states_its_range_and_says_it_is_cut():
    fair = 0.40  # above every rate: the axis must reach it
    _, ax = plots.new_figure((4, 3))
    plots.seat_win_rates(_seats([0.45, 0.46, 0.47], fair=fair), ax=ax)
    low, high = ax.get_ylim()
    assert low < fair < high and low > 0
    assert any(t.startswith(f"axis cut at {100 * low:.1f}%") for t in _texts(ax))
    assert "axis" in ax.get_ylabel() and f"{100 * high:.1f}%" in ax.get_ylabel()
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert any(t.startswith("fair share 40.0%") for t in legend)


def test_rates_far_apart_are_bars_from_zero_without_a_note():
    _, ax = plots.new_figure((4, 3))
    plots.seat_win_rates(_seats([0.2, 0.3, 0.45], half=0.02, fair=1 / 3), ax=ax)
    low, _ = ax.get_ylim()
    assert low <= 0 and not _texts(ax)
    assert f"(axis {100 * low:.1f}-" in ax.get_ylabel()
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert "fair share (1/3)" in legend
