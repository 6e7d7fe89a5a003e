"""Every game's results stay bit-identical across refactors.

The digests in tests/data/row_digests.json were taken before the shared game skeleton (#21):
for every game, every player count and variant (and a mixed lineup of all its players, seats
rotated), the sha256 of the result rows of a fixed number of games. A refactor that changes
one of them changed a game; one that changes a rule on purpose records new digests with
`python -m tests.test_bit_identical` and says so in its commit.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import numpy as np
import pytest

from simcore import all_games, get_game
from simcore.run.runner import play_chunk

DIGESTS = Path(__file__).parent / "data" / "row_digests.json"
GAMES_PER_CASE = 40


def cases() -> list[tuple[str, int, str, str, bool, bool]]:
    """(game, players, variant, lineup, rotate, checked) of every configuration."""
    out = []
    for name, spec in sorted(all_games().items()):
        mixed = ",".join(spec.presets)
        for players in range(spec.min_players, spec.max_players + 1):
            for variant in spec.variants.names():
                out.append((name, players, variant, spec.default_policy, False, False))
            lineup = ",".join((spec.presets * 4)[:players])
            out.append((name, players, "base", lineup, True, True))
        out.append((name, spec.max_players, "base", mixed.split(",")[-1], False, True))
    return out


def case_id(case) -> str:
    game, players, variant, lineup, rotate, checked = case
    return f"{game}/{players}p/{variant}/{lineup}/{'rot' if rotate else 'fix'}/" + (
        "checked" if checked else "fast"
    )


def digest(case) -> str:
    game, players, variant, lineup, rotate, checked = case
    spec = get_game(game)
    rules = spec.resolve_rules([variant], {}, None, players)
    seats = spec.parse_policies(lineup, players)
    seed = int(hashlib.sha256(case_id(case).encode()).hexdigest()[:6], 16)
    _, _, rows = play_chunk(
        game, players, rules, seats, seed, 0, GAMES_PER_CASE, rotate, checked, keep_rows=True
    )
    h = hashlib.sha256(json.dumps(spec.columns).encode())
    h.update(np.ascontiguousarray(rows, dtype="<i8").tobytes())
    return h.hexdigest()[:16]


RECORDED: dict[str, str] = json.loads(DIGESTS.read_text()) if DIGESTS.exists() else {}


@pytest.mark.parametrize("case", cases(), ids=case_id)
def test_rows_are_bit_identical_to_the_recorded_digest(case):
    assert case_id(case) in RECORDED, "no digest recorded for this configuration"
    assert digest(case) == RECORDED[case_id(case)]


if __name__ == "__main__":  # record the digests anew (only when a rule changes on purpose)
    # python -m tests.test_bit_identical [GAME ...]: every case, or only the games named (the
    # other games' digests are kept as recorded)
    games = set(sys.argv[1:])
    table = dict(RECORDED) if games else {}
    chosen = [c for c in cases() if not games or c[0] in games]
    table.update({case_id(c): digest(c) for c in chosen})
    DIGESTS.write_text(json.dumps(table, indent=1, sort_keys=True) + "\n")
    print(f"{len(chosen)} of {len(table)} digests written to {DIGESTS}", file=sys.stderr)
