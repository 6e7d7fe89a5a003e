"""The independent referee (tests/referee/) against the engine's traces of the basic game
(the advanced game: test_referee_advanced.py).

(a) Many random-policy games over 2-4 players and the variants must pass the referee without a
    single violation (the referee shares no code with the engine: it re-derives every state and
    judges every action against the rulebook).
(b) The referee can fail: real traces tampered with one illegal change each must be reported.
"""

from __future__ import annotations

import collections
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from simcore import get_game
from tests.referee import check_trace
from tests.referee.tampering import (
    PLAYERS,
    Rows,
    actions_of,
    assert_caught,
    centre,
    dump,
    numbered_actions_of,
    parse,
    steps_of,
    tamper,
    turns,
)

SEED = 20261130
GAMES_PER_SETTING = 12
LONG_MOVES = {
    "cards": "0/15/0,1/12/1,2/10/1,3/8/1",
    "chip_supply": "2",
    "total_streets": "60",
    "streets_space1": "40,44,48",
}
# label -> (variants, --set overrides)
SETTINGS: dict[str, tuple[list[str], dict[str, str]]] = {
    "base": ([], {}),
    "short": (["short"], {}),
    "no-chips": (["no-chips"], {}),
    "value-scoring": (["value-scoring"], {}),
    "single-square-streets": (["single-square-streets"], {}),
    "intermingled": (["intermingled"], {}),
    "short+no-chips, intermingled, chips any time": (
        ["short+no-chips", "intermingled"],
        {"chip_timing": "any-time"},
    ),
    "no icon needed, die 0/4/6": ([], {"spirit_needs_icon": "false", "die": "0,4,6"}),
    "long moves, chip supply 2": ([], LONG_MOVES),
    "long moves, single squares, value, intermingled, chips any time": (
        ["single-square-streets", "value-scoring", "intermingled"],
        dict(LONG_MOVES, chip_timing="any-time", chip_supply="1"),
    ),
}
ROOT = Path(__file__).parents[2]
REFEREE = [sys.executable, "-m", "tests.referee"]


def _play(variants, overrides, players, seed, index, **extra) -> str:
    spec = get_game("sunken-city")
    rules = spec.resolve_rules(variants, dict(overrides, **extra), None, players)
    seats = spec.parse_policies("random", players)
    return spec.replay(rules, players, seats, seed, index).jsonl()


@pytest.fixture(scope="module")
def pool() -> dict[str, list[str]]:
    """Traces of GAMES_PER_SETTING random games per setting and player count."""
    out: dict[str, list[str]] = {}
    for label, (variants, overrides) in SETTINGS.items():
        out[label] = [
            _play(variants, overrides, players, SEED, index)
            for players in PLAYERS
            for index in range(GAMES_PER_SETTING)
        ]
    return out


def all_traces(pool: dict[str, list[str]]) -> list[str]:
    return [t for texts in pool.values() for t in texts]


# ---------------------------------------------------------------------------------------
# (a) untampered games


@pytest.mark.parametrize("label", list(SETTINGS))
def test_random_games_pass_the_referee(pool, label):
    bad = {}
    for k, text in enumerate(pool[label]):
        violations = check_trace(text)
        if violations:
            players, index = PLAYERS[k // GAMES_PER_SETTING], k % GAMES_PER_SETTING
            bad[f"{players} players, game {index}"] = violations[:5]
    assert not bad, json.dumps(bad, indent=1)


def test_the_games_exercise_the_rules(pool):
    """The pool is only a proof if it contains the interesting events."""
    seen: collections.Counter[str] = collections.Counter()
    for text in all_traces(pool):
        rows = [json.loads(line) for line in text.splitlines()]
        seen["games"] += 1
        seen[f"end {rows[-1]['end_reason']}"] += 1
        for t in rows[1:-1]:
            for a in t["actions"]:
                seen[a["type"]] += 1
                if a["type"] == "move":
                    for p in a["path"]:
                        seen["recovered"] += bool(p["recovered"])
                        seen["chest"] += 12 in p["recovered"]
                        seen["banked"] += bool(p["banked"])
                if a["type"] == "house" and a["square"] == [4, 4]:
                    seen["house in the centre"] += 1
                if a["type"] == "spirit":
                    seen["owner limit"] += a["die_roll"] is None
                    for p in a["path"]:
                        seen[f"sink {p['sunk']['kind']}"] += 1
                        for h in p["sent_home"]:
                            seen["sent home"] += 1
                            seen["self-sink"] += h["seat"] == a["mover"]
                            seen["chip given"] += h["chip"]
                            seen["lost treasures"] += bool(h["lost"])
                if a["type"] == "end_turn":
                    seen["unraised"] += a["unraised"] > 0
    assert seen["games"] == len(SETTINGS) * len(PLAYERS) * GAMES_PER_SETTING >= 200
    for event in (
        "street",
        "house",
        "move",
        "chip",
        "spirit",
        "stack_turn",
        "hourglass",
        "recovered",
        "chest",
        "banked",
        "house in the centre",
        "owner limit",
        "sink street",
        "sink house",
        "sent home",
        "self-sink",
        "chip given",
        "lost treasures",
        "unraised",
    ):
        assert seen[event] > 0, (event, seen)


@pytest.mark.slow
@pytest.mark.parametrize("players", PLAYERS)
def test_long_games_pass_the_referee(players):
    """Huge moves and no spirit: games that reach all-banked or the round limit."""
    overrides = {
        "total_streets": "60",
        "streets_space1": "56,56,56",
        "cards": "1/30/0,2/30/0,1/25/0",
    }
    ends = collections.Counter()
    for index in range(25):
        text = _play(["short"], overrides, players, SEED, index)
        assert check_trace(text) == [], index
        ends[json.loads(text.splitlines()[-1])["end_reason"]] += 1
    assert ends["round-limit"] > 0


# ---------------------------------------------------------------------------------------
# (b) tampered games: every one must be reported


def village_square(rows: Rows, seat: int) -> list[int]:
    corners = [[0, 0], [0, 8], [8, 8], [8, 0]]
    hdr = rows[0]
    return corners[hdr["rules"]["corners_2p"][seat] if hdr["players"] == 2 else seat]


def street_on_the_centre(rows: Rows) -> bool:
    for _, a in actions_of(rows, "street"):
        c = centre(rows)
        a["squares"] = [c, [c[0], c[1] + 1]] if len(a["squares"]) == 2 else [c]
        return True
    return False


def house_touching_another_house(rows: Rows) -> bool:
    board = rows[0]["rules"]["board"].split("/")
    for t in turns(rows):
        st = t["state"]
        lake = [tuple(q) for q in st["houses"].values() if isinstance(q, list)]
        if not lake:
            continue
        taken = {tuple(q) for s in st["streets"] for q in s["squares"]} | set(lake)
        for a in t["actions"]:
            if a["type"] == "street":
                taken |= {tuple(q) for q in a["squares"]}
            elif a["type"] == "house":
                taken.add(tuple(a["square"]))
        for a in t["actions"]:
            if a["type"] != "house":
                continue
            for r, c in lake:
                for dr, dc in ((1, 1), (1, -1), (-1, 1), (-1, -1), (0, 1), (1, 0)):
                    q = (r + dr, c + dc)
                    if 0 <= q[0] < 9 and 0 <= q[1] < 9 and q not in taken:
                        if board[q[0]][q[1]] == "#":
                            a["square"] = list(q)
                            return True
    return False


def step_beyond_the_movement_points(rows: Rows) -> bool:
    for t in turns(rows):
        for a in t["actions"]:
            if a["type"] != "move" or a["path"][-1]["points_left"] != 0:
                continue
            back = a["start"] if len(a["path"]) == 1 else a["path"][-2]["to"]
            if "village" in back or not back["piece"].startswith("street"):
                continue
            a["path"].append({"to": back, "recovered": [], "banked": [], "points_left": 0})
            return True
    return False


def die_roll_not_on_the_die(rows: Rows) -> bool:
    for _, a in actions_of(rows, "spirit"):
        if a["die_roll"] is not None:
            a["die_roll"] = a["limit"] = max(rows[0]["rules"]["die"]) + 5
            return True
    return False


def spirit_moves_further_than_the_roll(rows: Rows) -> bool:
    die = rows[0]["rules"]["die"]
    for _, a in actions_of(rows, "spirit"):
        if a["die_roll"] is not None:
            if a["path"] and len(a["path"]) - 1 in die:
                a["die_roll"] = a["limit"] = len(a["path"]) - 1
                return True
    return False


def dropped_sent_home(rows: Rows) -> bool:
    for _, p in steps_of(rows, "spirit"):
        if p["sent_home"]:
            p["sent_home"].pop()
            return True
    return False


def chip_for_a_self_sink(rows: Rows) -> bool:
    if not rows[0]["rules"]["chips"]:
        return False
    for a, p in steps_of(rows, "spirit"):
        for h in p["sent_home"]:
            if h["seat"] == a["mover"] and not h["chip"]:
                h["chip"] = True
                return True
    return False


def missing_chip_for_a_sink_by_another_seat(rows: Rows) -> bool:
    for _, p in steps_of(rows, "spirit"):
        for h in p["sent_home"]:
            if h["chip"]:
                h["chip"] = False
                return True
    return False


def card_not_in_hand(rows: Rows) -> bool:
    cards = rows[0]["cards"]
    for t in turns(rows):
        seat = t["state"]["seat"]
        hand = t["state"]["hands"][seat]
        gone = [c for c in range(len(cards)) if c not in hand]
        if gone:
            c = gone[0]
            raise_n, move_n, icon = cards[c]
            t["actions"][0].update(card=c, move=move_n, icon=bool(icon))
            t["actions"][0]["raise"] = raise_n
            return True
    return False


def two_houses_in_one_turn(rows: Rows) -> bool:
    for t, i, a in numbered_actions_of(rows, "house"):
        acts = t["actions"]
        grotto = [int(h) for h, q in t["state"]["houses"].items() if q == "grotto"]
        other = [h for h in grotto if h != a["house"]]
        if other:
            acts.insert(i + 1, dict(a, house=other[0]))
            return True
    return False


def spirit_without_the_icon(rows: Rows) -> bool:
    for t in turns(rows):
        acts = t["actions"]
        if acts[0]["icon"]:
            continue
        st = t["state"]
        acts.insert(
            len(acts) - 1,
            {
                "type": "spirit",
                "mover": st["seat"],
                "limit": 0,
                "die_roll": 0,
                "territory_owner": None,
                "start": st["spirit"],
                "path": [],
                "steps": 0,
            },
        )
        return True
    return False


def missing_stack_turnover(rows: Rows) -> bool:
    for t, i, _ in numbered_actions_of(rows, "stack_turn"):
        del t["actions"][i]
        return True
    return False


def plain_turns(rows: Rows) -> Iterator[tuple[list[dict], list[str]]]:
    """(actions, their types) of every turn with neither a stack turnover nor the hourglass."""
    for t in turns(rows):
        kinds = [a["type"] for a in t["actions"]]
        if "stack_turn" not in kinds and "hourglass" not in kinds:
            yield t["actions"], kinds


def piece_left_unraised(rows: Rows) -> bool:
    for acts, kinds in plain_turns(rows):
        if acts[-1]["unraised"]:
            continue
        streets = [i for i, k in enumerate(kinds) if k == "street"]
        if streets:
            del acts[streets[-1]]
            return True
    return False


def raising_split_around_a_move(rows: Rows) -> bool:
    for acts, kinds in plain_turns(rows):
        for i in range(2, len(acts)):
            if (
                kinds[i] == "move"
                and kinds[i - 1] == "street"
                and kinds[i - 2] in ("street", "house")
            ):
                acts[i - 1], acts[i] = acts[i], acts[i - 1]
                return True
    return False


def village_of_another_seat(rows: Rows) -> bool:
    """A village position names its seat: an adventurer banking in another seat's village."""
    n = rows[0]["players"]
    for _, p in steps_of(rows, "move"):
        if "village" in p["to"]:
            p["to"] = {"village": (p["to"]["village"] + 1) % n}
            return True
    return False


def village_without_its_seat(rows: Rows) -> bool:
    for _, p in steps_of(rows, "move"):
        if "village" in p["to"]:
            p["to"] = "village"
            return True
    return False


def final_state_differs(rows: Rows) -> bool:
    """The end line's final state is checked like a turn's state (here: one more banked
    treasure than the game gave)."""
    final = rows[-1]["final"]
    for tr in final["treasures"]:
        if tr["carried"]:
            tr["banked"].append(tr["carried"].pop())
            return True
    return False


def chip_supply_in_the_header_with_chips_off(rows: Rows) -> bool:
    rows[0]["rules"]["chip_supply"] = 8
    return True


def final_state_missing(rows: Rows) -> bool:
    del rows[-1]["final"]
    return True


def chip_after_the_first_step(rows: Rows) -> bool:
    """Seed 000: the chip's points are "the treasures that, before their move, were showing
    the house side up": a chip played after the first step of the move (its points moved
    from the first step to the rest of the path, so only the timing is wrong)."""
    for t in turns(rows):
        acts = t["actions"]
        kinds = [a["type"] for a in acts]
        for i in range(len(acts) - 1):
            if kinds[i] == "chip" and kinds[i + 1] == "move" and len(acts[i + 1]["path"]) >= 2:
                move = acts[i + 1]
                first = {"type": "move", "start": move["start"], "path": move["path"][:1]}
                rest = {"type": "move", "start": move["path"][0]["to"], "path": move["path"][1:]}
                acts[i : i + 2] = [first, acts[i], rest]
                return True
    return False


def treasure_not_recovered(rows: Rows) -> bool:
    for _, p in steps_of(rows, "move"):
        if p["recovered"]:
            p["recovered"] = []
            return True
    return False


def leaving_the_village_away_from_its_corner(rows: Rows) -> bool:
    for t in turns(rows):
        st = t["state"]
        corner = village_square(rows, st["seat"])
        for a in t["actions"]:
            if a["type"] == "move" and "village" in a["start"]:
                for s in st["streets"]:
                    if corner not in s["squares"]:
                        a["path"][0]["to"] = s
                        return True
    return False


def street_sunk_onto_the_wrong_space(rows: Rows) -> bool:
    for _, p in steps_of(rows, "spirit"):
        if p["sunk"]["kind"] == "street":
            p["sunk"]["to_space"] = p["sunk"]["to_space"] % 6 + 1
            return True
    return False


def chip_extra_points_miscounted(rows: Rows) -> bool:
    for _, a in actions_of(rows, "chip"):
        a["extra_points"] += 1
        return True
    return False


def chip_without_holding_one(rows: Rows) -> bool:
    if not rows[0]["rules"]["chips"]:
        return False
    for t in turns(rows):
        st = t["state"]
        if st["chips"][st["seat"]] == 0:
            t["actions"].insert(1, {"type": "chip", "extra_points": 0})
            return True
    return False


def recorded_state_differs(rows: Rows) -> bool:
    t = rows[3]
    t["state"]["chip_supply"] += 1
    return True


def setup_differs_from_the_rulebook(rows: Rows) -> bool:
    rows[1]["state"]["stacks"][0] += 1
    return True


def wrong_winner(rows: Rows) -> bool:
    end = rows[-1]
    end["winner"] = (end["winner"] + 1) % rows[0]["players"]
    return True


def game_cut_short(rows: Rows) -> bool:
    del rows[-2]
    return True


# (the edit, the setting whose traces it tampers with ("all": every setting), words of the
# violation the referee must report)
TAMPERED = [
    (street_on_the_centre, "base", ["centre"]),
    (house_touching_another_house, "base", ["touch"]),
    (step_beyond_the_movement_points, "all", ["no movement points left"]),
    (die_roll_not_on_the_die, "base", ["not a face of the die"]),
    (spirit_moves_further_than_the_roll, "all", ["more than its limit"]),
    (dropped_sent_home, "all", ["the trace sends home"]),
    (chip_for_a_self_sink, "all", ["moved the spirit itself"]),
    (missing_chip_for_a_sink_by_another_seat, "all", ["gets chip"]),
    (card_not_in_hand, "base", ["is not in seat"]),
    (two_houses_in_one_turn, "base", ["only one house"]),
    (spirit_without_the_icon, "base", ["no water-spirit icon"]),
    (missing_stack_turnover, "base", ["expected", "stack_turn"]),
    (piece_left_unraised, "base", ["not raised although"]),
    (raising_split_around_a_move, "base", ["whole blocks", "resumes"]),
    (chip_after_the_first_step, "long moves, chip supply 2", ["already moved"]),
    (village_of_another_seat, "all", ["not the village of seat"]),
    (village_without_its_seat, "all", ["must say whose village"]),
    (final_state_differs, "all", ["end: state field 'treasures' differs"]),
    (final_state_missing, "base", ["end line carries no final state"]),
    (chip_supply_in_the_header_with_chips_off, "no-chips", ["header's chip_supply is 8"]),
    (treasure_not_recovered, "all", ["recovers"]),
    (leaving_the_village_away_from_its_corner, "base", ["village is reached only through"]),
    (street_sunk_onto_the_wrong_space, "all", ["sinks onto street space"]),
    (chip_extra_points_miscounted, "all", ["house-side treasures"]),
    (chip_without_holding_one, "base", ["holds no chip"]),
    (recorded_state_differs, "base", ["state field 'chip_supply' differs"]),
    (setup_differs_from_the_rulebook, "base", ["differs from the setup"]),
    (wrong_winner, "base", ["winner"]),
    (game_cut_short, "base", ["not over"]),
]


@pytest.mark.parametrize("edit,setting,words", TAMPERED, ids=[e[0].__name__ for e in TAMPERED])
def test_a_tampered_trace_is_reported(pool, edit, setting, words):
    traces = all_traces(pool) if setting == "all" else pool[setting]
    assert_caught(tamper(traces, edit), *words)


# ---------------------------------------------------------------------------------------
# the command line


def test_command_line(pool, tmp_path):
    good = pool["base"][0]
    rows = parse(good)
    rows[-1]["scores"][0] += 1
    bad = tmp_path / "bad.jsonl"
    bad.write_text(dump(rows))
    run = subprocess.run([*REFEREE, str(bad)], capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 1 and "scores" in run.stdout
    run = subprocess.run(REFEREE, input=good, capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 0, run.stdout


HEURISTIC_LINEUPS = [
    (3, "balanced,greedy,aggressive", [], {}),
    (4, "balanced,greedy,cautious,aggressive", ["short"], {}),
    (2, "balanced,aggressive", ["no-chips"], {}),
    (3, "balanced,balanced,cautious", ["intermingled"], {}),
]


@pytest.mark.parametrize("players,lineup,variants,overrides", HEURISTIC_LINEUPS)
def test_heuristic_games_pass_the_referee(players, lineup, variants, overrides):
    """The heuristic players' games (which bank everything far more often than random ones)
    pass the independent referee too."""
    spec = get_game("sunken-city")
    rules = spec.resolve_rules(variants, overrides, None, players)
    seats = spec.parse_policies(lineup, players)
    for i in range(12):
        text = spec.replay(rules, players, seats, 31, i, rotate=True).jsonl()
        assert check_trace(text) == [], (lineup, i)
