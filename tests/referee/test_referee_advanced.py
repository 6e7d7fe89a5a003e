"""The independent referee (tests/referee/) against the engine's traces of the advanced game
(seed 001): random and heuristic games pass, and tampered traces are reported."""

from __future__ import annotations

import collections
import json

import pytest

from simcore import get_game
from tests.referee import check_trace
from tests.referee.tampering import (
    PLAYERS,
    Rows,
    actions_of,
    assert_caught,
    centre,
    numbered_actions_of,
    parse,
    tamper,
    turns,
)

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


def house_not_of_the_grotto_space(rows: Rows) -> bool:
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


def house_10_on_the_lake_at_the_advanced_setup(rows: Rows) -> bool:
    rows[1]["state"]["houses"]["10"] = centre(rows)
    return True


def turn_ends_with_spirit_points_left(rows: Rows) -> bool:
    for t in turns(rows):
        acts = t["actions"]
        if acts[-2]["type"] == "sink" and acts[-2]["path"][-1]["points_left"] == 0:
            path = acts[-2]["path"]
            path.pop()
            if not path:
                del acts[-2]
            return True
    return False


def spirit_appears_at_the_wrong_house(rows: Rows) -> bool:
    for t in turns(rows):
        houses = t["state"]["houses"]
        for a in t["actions"]:
            if a["type"] == "phase" and a["phase"] == "sinking" and "piece" in a["spirit"]:
                for h, q in houses.items():
                    if isinstance(q, list) and f"house{h}" != a["spirit"]["piece"]:
                        a["spirit"] = {"piece": f"house{h}", "squares": [q]}
                        return True
    return False


def spirit_stays_in_the_grotto_although_a_house_is_on_the_lake(rows: Rows) -> bool:
    for t, a in actions_of(rows, "phase"):
        if a["phase"] == "sinking" and "piece" in a["spirit"]:
            a["spirit"] = {"grotto": t["state"]["grotto"]}
            return True
    return False


def banishment_while_the_spirit_can_move(rows: Rows) -> bool:
    for t, i, a in numbered_actions_of(rows, "sink"):
        acts = t["actions"]
        if "piece" in a["start"]:
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


def grotto_move_without_entering_the_house(rows: Rows) -> bool:
    for t in turns(rows):
        st = t["state"]
        kinds = [a["type"] for a in t["actions"]]
        if st["phase"] == "raising" and kinds == ["card", "end_turn"]:
            g = st["grotto"]
            t["actions"].insert(1, {"type": "grotto", "from": g, "to": g % 9 + 2})
            return True
    return False


def grotto_move_to_the_same_space(rows: Rows) -> bool:
    for _, a in actions_of(rows, "grotto"):
        a["to"] = a["from"]
        return True
    return False


def raising_in_the_sinking_phase(rows: Rows) -> bool:
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


def basic_spirit_move_in_the_advanced_game(rows: Rows) -> bool:
    for t, i, a in numbered_actions_of(rows, "sink"):
        acts = t["actions"]
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


def building_points_not_converted(rows: Rows) -> bool:
    for _, a in actions_of(rows, "phase"):
        if a["phase"] == "sinking" and a["points"] > 0:
            a["points"] = 0
            return True
    return False


def advanced_game_ends_at_the_hourglass_before_the_last_sinking_phase_ends(rows: Rows) -> bool:
    """The hourglass alone does not end the advanced game: a trace that stops at the end of the
    hourglass round while the last sinking phase is still running is cut short."""
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


def end_triggered_at_the_hourglass_itself(rows: Rows) -> bool:
    """The end condition is met only when the sinking phase begun by the hourglass ends."""
    body = list(turns(rows))
    for k, t in enumerate(body[:-1]):
        if any(a["type"] == "hourglass" for a in t["actions"]):
            if body[k + 1]["state"]["end_triggered"] is None:
                body[k + 1]["state"]["end_triggered"] = "hourglass"
                return True
    return False


def banishment_to_grotto_space_1_in_the_short_game(rows: Rows) -> bool:
    for _, a in actions_of(rows, "banish"):
        a["grotto"] = 1
        return True
    return False


def blocks_are_no_rule_of_the_advanced_game(rows: Rows) -> bool:
    rows[0]["rules"]["action_order"] = "blocks"
    return True


# (the edit, the variants whose traces it tampers with (none named: every variant), words of
# the violation the referee must report)
ADV_TAMPERED = [
    (house_not_of_the_grotto_space, [], ["only the house of the spirit's grotto"]),
    (
        house_10_on_the_lake_at_the_advanced_setup,
        [],
        ["state field 'houses' differs from the setup"],
    ),
    (turn_ends_with_spirit_points_left, [], ["spirit point(s) left"]),
    (spirit_appears_at_the_wrong_house, [], ["the spirit must be at"]),
    (spirit_stays_in_the_grotto_although_a_house_is_on_the_lake, [], ["the spirit must be at"]),
    (banishment_while_the_spirit_can_move, [], ["can still move"]),
    (grotto_move_without_entering_the_house, [], ["has not entered house"]),
    (grotto_move_to_the_same_space, [], ["a different grotto space"]),
    (raising_in_the_sinking_phase, [], ["no piece may rise in the sinking phase"]),
    (basic_spirit_move_in_the_advanced_game, [], ["does not exist in the advanced game"]),
    (building_points_not_converted, [], ["point(s) are left to convert"]),
    (advanced_game_ends_at_the_hourglass_before_the_last_sinking_phase_ends, [], ["not over"]),
    (end_triggered_at_the_hourglass_itself, [], ["state field 'end_triggered' differs"]),
    (
        banishment_to_grotto_space_1_in_the_short_game,
        ["advanced+short"],
        ["grotto space 1 is not in play"],
    ),
    (blocks_are_no_rule_of_the_advanced_game, [], ["action_order=blocks is not a rule"]),
]


@pytest.mark.parametrize(
    "edit,labels,words", ADV_TAMPERED, ids=[e[0].__name__ for e in ADV_TAMPERED]
)
def test_a_tampered_advanced_trace_is_reported(adv_pool, edit, labels, words):
    assert_caught(tamper(adv_traces(adv_pool, *labels), edit), *words)
