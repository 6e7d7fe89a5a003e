"""The independent referee (tests/referee/) against the engine's traces of the advanced game
(seed 001): random and heuristic games pass, and tampered traces are reported."""

from __future__ import annotations

import collections
import json

import pytest

from simcore import get_game
from tests.referee import check_trace
from tests.referee.tampering import PLAYERS, assert_caught, centre, parse, tamper, turns

# ---------------------------------------------------------------------------------------
# the advanced game (seed 001)

ADV_SEED = 20261201
ADV_GAMES = 3
# label -> variants
ADV_VARIANTS = {
    "advanced": ["advanced"],
    "advanced+short": ["advanced", "short"],
    "advanced+chips": ["advanced", "chips"],
}
ADV_POLICIES = ("random", "balanced")


@pytest.fixture(scope="module")
def adv_pool() -> dict[str, list[str]]:
    """ADV_GAMES advanced games per variant, policy and player count."""
    spec = get_game("sunken-city")
    out: dict[str, list[str]] = {}
    for label, variants in ADV_VARIANTS.items():
        for policy in ADV_POLICIES:
            for players in PLAYERS:
                rules = spec.resolve_rules(variants, {}, None, players)
                seats = spec.parse_policies(policy, players)
                out[f"{label} {policy} {players}p"] = [
                    spec.replay(rules, players, seats, ADV_SEED, i).jsonl()
                    for i in range(ADV_GAMES)
                ]
    return out


def adv_traces(adv_pool, *labels: str) -> list[str]:
    return [
        t for k, texts in adv_pool.items() for t in texts if not labels or k.split()[0] in labels
    ]


@pytest.mark.parametrize("label", list(ADV_VARIANTS))
def test_advanced_games_pass_the_referee(adv_pool, label):
    bad = {}
    for key, texts in adv_pool.items():
        if key.split()[0] != label:
            continue
        for i, text in enumerate(texts):
            violations = check_trace(text)
            if violations:
                bad[f"{key}, game {i}"] = violations[:5]
    assert not bad, json.dumps(bad, indent=1)


def test_the_advanced_games_exercise_the_rules(adv_pool):
    seen: collections.Counter[str] = collections.Counter()
    for text in adv_traces(adv_pool):
        rows = parse(text)
        assert rows[0]["rules"]["advanced"] is True
        seen["games"] += 1
        seen[f"end {rows[-1]['end_reason']}"] += 1
        for t in turns(rows):
            st = t["state"]
            acts = t["actions"]
            for a in acts:
                seen[a["type"]] += 1
                if a["type"] == "phase":
                    seen[f"to {a['phase']}"] += 1
                    if a["phase"] == "sinking":
                        seen["spirit stays in the grotto"] += "grotto" in a["spirit"]
                        seen["switch on space 6"] += st["draw_space"] == 6
                        seen["appears elsewhere"] += (
                            "piece" in a["spirit"]
                            and a["spirit"]["piece"] != f"house{st['grotto']}"
                        )
                if a["type"] == "banish":
                    seen["banish from the grotto"] += a["from"] == "grotto"
                    seen["banish sinks"] += a["sunk"] is not None
                if a["type"] == "sink":
                    for p in a["path"]:
                        seen[f"sink {p['sunk']['kind']}"] += 1
                        for h in p["sent_home"]:
                            seen["sent home"] += 1
                            seen["chip given"] += h["chip"]
                if a["type"] == "end_turn":
                    seen["unraised"] += a["unraised"] > 0
            kinds = [a["type"] for a in acts]
            if "banish" in kinds and "street" in kinds[kinds.index("banish") :]:
                seen["raising after a banishment"] += 1
    assert seen["games"] == len(ADV_VARIANTS) * len(ADV_POLICIES) * len(PLAYERS) * ADV_GAMES
    assert seen["spirit"] == 0 and seen["end hourglass"] > 0
    for event in (
        "street",
        "house",
        "move",
        "chip",
        "sink",
        "banish",
        "grotto",
        "to sinking",
        "to raising",
        "stack_turn",
        "hourglass",
        "spirit stays in the grotto",
        "switch on space 6",
        "appears elsewhere",
        "banish from the grotto",
        "banish sinks",
        "sink street",
        "sink house",
        "sent home",
        "chip given",
        "unraised",
        "raising after a banishment",
    ):
        assert seen[event] > 0, (event, seen)


def test_house_not_of_the_grotto_space(adv_pool):
    def edit(rows):
        for t in turns(rows):
            st = t["state"]
            for a in t["actions"]:
                if a["type"] == "house":
                    other = [
                        int(h)
                        for h, q in st["houses"].items()
                        if q == "grotto" and int(h) != a["house"]
                    ]
                    if other:
                        a["house"] = other[0]
                        return True
        return False

    assert_caught(tamper(adv_traces(adv_pool), edit), "only the house of the spirit's grotto")


def test_house_10_on_the_lake_at_the_advanced_setup(adv_pool):
    def edit(rows):
        rows[1]["state"]["houses"]["10"] = centre(rows)
        return True

    assert_caught(tamper(adv_traces(adv_pool), edit), "state field 'houses' differs from the setup")


def test_turn_ends_with_spirit_points_left(adv_pool):
    def edit(rows):
        for t in turns(rows):
            acts = t["actions"]
            if acts[-2]["type"] == "sink" and acts[-2]["path"][-1]["points_left"] == 0:
                path = acts[-2]["path"]
                path.pop()
                if not path:
                    del acts[-2]
                return True
        return False

    assert_caught(tamper(adv_traces(adv_pool), edit), "spirit point(s) left")


def test_spirit_appears_at_the_wrong_house(adv_pool):
    def edit(rows):
        for t in turns(rows):
            houses = t["state"]["houses"]
            for a in t["actions"]:
                if a["type"] == "phase" and a["phase"] == "sinking" and "piece" in a["spirit"]:
                    for h, q in houses.items():
                        if isinstance(q, list) and f"house{h}" != a["spirit"]["piece"]:
                            a["spirit"] = {"piece": f"house{h}", "squares": [q]}
                            return True
        return False

    assert_caught(tamper(adv_traces(adv_pool), edit), "the spirit must be at")


def test_spirit_stays_in_the_grotto_although_a_house_is_on_the_lake(adv_pool):
    def edit(rows):
        for t in turns(rows):
            for a in t["actions"]:
                if a["type"] == "phase" and a["phase"] == "sinking" and "piece" in a["spirit"]:
                    a["spirit"] = {"grotto": t["state"]["grotto"]}
                    return True
        return False

    assert_caught(tamper(adv_traces(adv_pool), edit), "the spirit must be at")


def test_banishment_while_the_spirit_can_move(adv_pool):
    def edit(rows):
        for t in turns(rows):
            acts = t["actions"]
            for i, a in enumerate(acts):
                if a["type"] == "sink" and a["start"] != "village":
                    first = a["path"][0]
                    acts[i] = {
                        "type": "banish",
                        "mover": a["mover"],
                        "from": a["start"],
                        "grotto": t["state"]["grotto"] or 10,
                        "points_left": first["points_left"],
                        "sunk": first["sunk"],
                        "sent_home": first["sent_home"],
                    }
                    return True
        return False

    assert_caught(tamper(adv_traces(adv_pool), edit), "can still move")


def test_grotto_move_without_entering_the_house(adv_pool):
    def edit(rows):
        for t in turns(rows):
            st = t["state"]
            kinds = [a["type"] for a in t["actions"]]
            if st["phase"] == "raising" and kinds == ["card", "end_turn"]:
                g = st["grotto"]
                t["actions"].insert(1, {"type": "grotto", "from": g, "to": g % 9 + 2})
                return True
        return False

    assert_caught(tamper(adv_traces(adv_pool), edit), "has not entered house")


def test_grotto_move_to_the_same_space(adv_pool):
    def edit(rows):
        for t in turns(rows):
            for a in t["actions"]:
                if a["type"] == "grotto":
                    a["to"] = a["from"]
                    return True
        return False

    assert_caught(tamper(adv_traces(adv_pool), edit), "a different grotto space")


def test_raising_in_the_sinking_phase(adv_pool):
    def edit(rows):
        for t in turns(rows):
            st = t["state"]
            acts = t["actions"]
            if st["phase"] == "sinking" and acts[0]["raise"] > 0 and acts[1]["type"] == "sink":
                acts.insert(
                    1,
                    {
                        "type": "street",
                        "piece": "street29",
                        "squares": [[8, 4], [8, 5]],
                        "from_space": st["draw_space"],
                    },
                )
                return True
        return False

    assert_caught(tamper(adv_traces(adv_pool), edit), "no piece may rise in the sinking phase")


def test_basic_spirit_move_in_the_advanced_game(adv_pool):
    def edit(rows):
        for t in turns(rows):
            acts = t["actions"]
            for i, a in enumerate(acts):
                if a["type"] == "sink":
                    acts[i] = dict(
                        a,
                        type="spirit",
                        limit=3,
                        die_roll=3,
                        territory_owner=None,
                        steps=len(a["path"]),
                    )
                    return True
        return False

    assert_caught(tamper(adv_traces(adv_pool), edit), "does not exist in the advanced game")


def test_building_points_not_converted(adv_pool):
    def edit(rows):
        for t in turns(rows):
            for a in t["actions"]:
                if a["type"] == "phase" and a["phase"] == "sinking" and a["points"] > 0:
                    a["points"] = 0
                    return True
        return False

    assert_caught(tamper(adv_traces(adv_pool), edit), "point(s) are left to convert")


def test_advanced_game_ends_at_the_hourglass_before_the_last_sinking_phase_ends(adv_pool):
    """The hourglass alone does not end the advanced game: a trace that stops at the end of the
    hourglass round while the last sinking phase is still running is cut short."""

    def edit(rows):
        body = list(turns(rows))
        for k, t in enumerate(body):
            if any(a["type"] == "hourglass" for a in t["actions"]):
                rnd = t["state"]["round"]
                nxt = [j for j in range(k, len(body)) if body[j]["state"]["round"] > rnd]
                if not nxt or body[nxt[0]]["state"]["end_triggered"] is not None:
                    return False
                end = dict(rows[-1], rounds=rnd + 1, turns=nxt[0])
                rows[:] = rows[: nxt[0] + 1] + [end]
                return True
        return False

    assert_caught(tamper(adv_traces(adv_pool), edit), "not over")


def test_end_triggered_at_the_hourglass_itself(adv_pool):
    """The end condition is met only when the sinking phase begun by the hourglass ends."""

    def edit(rows):
        body = list(turns(rows))
        for k, t in enumerate(body[:-1]):
            if any(a["type"] == "hourglass" for a in t["actions"]):
                if body[k + 1]["state"]["end_triggered"] is None:
                    body[k + 1]["state"]["end_triggered"] = "hourglass"
                    return True
        return False

    assert_caught(tamper(adv_traces(adv_pool), edit), "state field 'end_triggered' differs")


def test_banishment_to_grotto_space_1_in_the_short_game(adv_pool):
    def edit(rows):
        for t in turns(rows):
            for a in t["actions"]:
                if a["type"] == "banish":
                    a["grotto"] = 1
                    return True
        return False

    assert_caught(
        tamper(adv_traces(adv_pool, "advanced+short"), edit), "grotto space 1 is not in play"
    )


def test_interleave_off_is_no_rule_of_the_advanced_game(adv_pool):
    def edit(rows):
        rows[0]["rules"]["interleave"] = False
        return True

    assert_caught(tamper(adv_traces(adv_pool), edit), "interleave=false is not a rule")
