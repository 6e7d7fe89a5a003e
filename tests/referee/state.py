"""The referee's model of one game: the setup, pieces and placement rules, and the recorded
state before every turn compared with its own."""

from __future__ import annotations

import json
from typing import Any

from tests.referee.board import (
    ALL_TREASURES,
    CORNERS,
    MAX_VIOLATIONS,
    N_SPACES,
    SIZE,
    Square,
    TraceError,
    as_square,
    as_squares,
    orthogonal,
    square_name,
)


class RefereeState:
    """The referee's own model of one game, fed turn by turn."""

    def __init__(self, header: dict):
        self.violations: list[str] = []
        self.ctx = "header"
        if header.get("type") != "game":
            raise TraceError("the first line is not a 'game' header")
        if header.get("game") != "sunken-city":
            raise TraceError(f"not a sunken-city trace: {header.get('game')!r}")
        rules = header.get("rules")
        if not isinstance(rules, dict):
            raise TraceError("the header has no rules")
        self.rules = rules
        n = header.get("players")
        if n not in (2, 3, 4):
            raise TraceError(f"players must be 2 to 4, not {n!r}")
        self.n = n
        try:
            self.die = [int(f) for f in rules["die"]]
            self.cards = [tuple(int(v) for v in c) for c in rules["cards"]]
            self.street_squares = int(rules["street_squares"])
            self.owner_limit = int(rules["owner_limit"][n - 2])
            self.streets1 = int(rules["streets_space1"][n - 2])
            self.facedown = int(rules["facedown_streets"])
            self.total_streets = int(rules["total_streets"])
            self.scoring = rules["scoring"]
            self.chips_on = bool(rules["chips"])
            self.chip_supply0 = int(rules["chip_supply"]) if self.chips_on else 0
            if not self.chips_on and int(rules["chip_supply"]) != 0:
                self.flag(f"chips are off, but the header's chip_supply is {rules['chip_supply']}")
            self.use_house_1 = bool(rules["use_house_1"])
            self.needs_icon = bool(rules["spirit_needs_icon"])
            self.action_order = rules["action_order"]
            self.chip_timing = rules["chip_timing"]
            self.max_rounds = int(rules["max_rounds"])
            self.advanced = bool(rules.get("advanced", False))
            self.own_chip = bool(rules.get("chip_for_own_sinking", False))
            tsize = int(rules["territory_size"])
            corners_2p = [int(c) for c in rules["corners_2p"]]
            board = rules["board"].split("/")
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as e:
            raise TraceError(f"the header rules are incomplete or malformed: {e!r}") from e
        if len(board) != SIZE or any(len(row) != SIZE for row in board):
            raise TraceError("the board is not 9 rows of 9 squares")
        if self.street_squares not in (1, 2):
            raise TraceError(f"street_squares must be 1 or 2, not {self.street_squares}")
        if self.scoring not in ("count", "value"):
            raise TraceError(f"unknown scoring {self.scoring!r}")
        if self.action_order not in ("blocks", "intermingled"):
            raise TraceError(f"unknown action_order {self.action_order!r}")
        if self.chip_timing not in ("before-move", "any-time"):
            raise TraceError(f"unknown chip_timing {self.chip_timing!r}")
        if self.advanced and self.action_order != "intermingled":
            self.flag(
                "action_order=blocks is not a rule of the advanced game (seed 001: the actions "
                "may be intermingled)"
            )
        hcards = header.get("cards")
        if hcards is not None and [tuple(c) for c in hcards] != self.cards:
            self.flag(f"header cards {hcards} differ from rules cards {rules['cards']}")
        self.kind: dict[Square, str] = {}
        centre = []
        for r, row in enumerate(board):
            for c, ch in enumerate(row):
                if ch not in "#.C":
                    raise TraceError(f"unknown board character {ch!r}")
                self.kind[(r, c)] = ch
                if ch == "C":
                    centre.append((r, c))
        if len(centre) != 1:
            raise TraceError("the board needs exactly one centre square")
        self.centre: Square = centre[0]
        # seats -> village corner square and territory
        seat_corners = corners_2p if n == 2 else list(range(n))
        self.village_sq: list[Square] = []
        self.territory: dict[Square, set[int]] = {q: set() for q in self.kind}
        for seat, corner in enumerate(seat_corners):
            self.village_sq.append(CORNERS[corner])
            rows = range(tsize) if corner in (0, 1) else range(SIZE - tsize, SIZE)
            cols = range(tsize) if corner in (0, 3) else range(SIZE - tsize, SIZE)
            for r in rows:
                for c in cols:
                    self.territory[(r, c)].add(seat)
        self.in_play = tuple(t for t in ALL_TREASURES if t != 1 or self.use_house_1)
        self.houses_in_play = tuple(h for h in range(1, 11) if h != 1 or self.use_house_1)
        self.setup()

    # ------------------------------------------------------------------------------------
    # reporting

    def flag(self, msg: str) -> None:
        if len(self.violations) < MAX_VIOLATIONS:
            self.violations.append(f"{self.ctx}: {msg}")
        elif len(self.violations) == MAX_VIOLATIONS:
            self.violations.append("... more violations left out")

    # ------------------------------------------------------------------------------------
    # the model

    def setup(self) -> None:
        """The rulebook's setup for this player count and these rules."""
        self.turn = 0
        self.round = 0
        self.seat = 0
        self.streets: dict[str, tuple[Square, ...]] = {}
        self.houses: dict[int, Any] = {h: "grotto" for h in range(1, 11)}
        if not self.use_house_1:
            self.houses[1] = "out"
        # the spirit's piece on the lake; None while it is in grotto space self.grotto
        self.spirit: str | None
        self.grotto: int | None = None
        self.phase = "raising"
        if self.advanced:
            # "Place all 10 numbered buildings in their grotto spaces ... Place Neptune next to
            # building 10; he is also considered to be in grotto space 10."
            self.spirit, self.grotto = None, 10
        else:
            self.houses[10] = self.centre
            self.spirit = "house10"
        self.adv: list[str] = ["village"] * self.n
        self.treasure: list[dict[int, str]] = [
            {t: "house" for t in self.in_play} for _ in range(self.n)
        ]
        self.chips = [0] * self.n
        self.supply = self.chip_supply0
        self.hands = [set(range(len(self.cards))) for _ in range(self.n)]
        self.stacks = [self.streets1] + [self.facedown] * 4 + [0]
        self.draw = 1
        self.box = self.total_streets - self.streets1 - 4 * self.facedown
        self.hourglass = False
        self.end_triggered: str | None = None
        self.over = False
        self.end_reason: str | None = None

    # pieces ---------------------------------------------------------------------------

    def piece_squares(self, name: str) -> tuple[Square, ...] | None:
        if name in self.streets:
            return self.streets[name]
        if name.startswith("house"):
            try:
                h = int(name[5:])
            except ValueError:
                return None
            loc = self.houses.get(h)
            if isinstance(loc, tuple):
                return (loc,)
        return None

    def occupied(self) -> dict[Square, str]:
        occ: dict[Square, str] = {}
        for name, sqs in self.streets.items():
            for q in sqs:
                occ[q] = name
        for h, loc in self.houses.items():
            if isinstance(loc, tuple):
                occ[loc] = f"house{h}"
        return occ

    def pieces(self) -> dict[str, tuple[Square, ...]]:
        out = dict(self.streets)
        for h, loc in self.houses.items():
            if isinstance(loc, tuple):
                out[f"house{h}"] = (loc,)
        return out

    def connected(self, a: str, b: str) -> bool:
        sa, sb = self.piece_squares(a), self.piece_squares(b)
        if sa is None or sb is None or a == b:
            return False
        return any(orthogonal(p, q) for p in sa for q in sb)

    def neighbours(self, name: str) -> list[str]:
        return [p for p in self.pieces() if self.connected(name, p)]

    def owners(self, name: str) -> set[int]:
        out: set[int] = set()
        for q in self.piece_squares(name) or ():
            out |= self.territory[q]
        return out

    # placement --------------------------------------------------------------------------

    def street_spot_problem(self, sqs: tuple[Square, ...], occ: dict[Square, str]) -> str | None:
        if len(sqs) != self.street_squares:
            return f"a street covers {self.street_squares} square(s), not {len(sqs)}"
        for q in sqs:
            if q not in self.kind:
                return f"square {list(q)} is off the lake"
            if q == self.centre:
                return f"{square_name(q)} is the centre, which takes houses only"
            if q in occ:
                return f"{square_name(q)} is not free ({occ[q]} lies there)"
        if len(sqs) == 2 and (sqs[0] == sqs[1] or not orthogonal(sqs[0], sqs[1])):
            return f"{square_name(sqs[0])} and {square_name(sqs[1])} are not orthogonally adjacent"
        return None

    def house_spot_problem(self, q: Square, occ: dict[Square, str]) -> str | None:
        if q not in self.kind:
            return f"square {list(q)} is off the lake"
        if self.kind[q] == ".":
            return (
                f"{square_name(q)} is light water "
                "(houses appear only on dark squares or the centre)"
            )
        if q in occ:
            return f"{square_name(q)} is not free ({occ[q]} lies there)"
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                p = (q[0] + dr, q[1] + dc)
                if (dr or dc) and p in occ and occ[p].startswith("house"):
                    return f"it would touch {occ[p]} on {square_name(p)} (houses may not touch)"
        return None

    def any_street_spot(self) -> bool:
        occ = self.occupied()
        for q in self.kind:
            if self.street_squares == 1:
                if self.street_spot_problem((q,), occ) is None:
                    return True
                continue
            for p in ((q[0], q[1] + 1), (q[0] + 1, q[1])):
                if p in self.kind and self.street_spot_problem((q, p), occ) is None:
                    return True
        return False

    def any_house_spot(self) -> bool:
        occ = self.occupied()
        return any(self.house_spot_problem(q, occ) is None for q in self.kind)

    def discard_space(self) -> int:
        return self.draw + 1 if self.draw < N_SPACES else N_SPACES

    def expected_turnover(self) -> list[dict]:
        """Consequences of the draw stack being used up ("immediately turned face up")."""
        events: list[dict] = []
        stacks = list(self.stacks)
        d = self.draw
        while stacks[d - 1] == 0 and d < N_SPACES:
            if d == N_SPACES - 1:
                if not self.hourglass:
                    events.append({"type": "hourglass"})
                events.append({"type": "stack_turn", "draw_space": N_SPACES})
                break
            d += 1
            events.append({"type": "stack_turn", "draw_space": d})
        return events

    # positions --------------------------------------------------------------------------

    def pos_name(self, pos: Any, what: str) -> str | None:
        """Check a recorded position against the model; return the piece name or 'village'
        (a village position names its seat, which must be the seat on turn: adventurers enter
        only their own village, and only the adventurer of the seat on turn moves)."""
        if isinstance(pos, dict) and set(pos) == {"village"}:
            if pos["village"] != self.seat:
                self.flag(
                    f"{what}: the village of seat {pos['village']!r} is not the village of "
                    f"seat {self.seat}, whose adventurer moves"
                )
            return "village"
        if pos == "village":
            self.flag(f"{what}: a village position must say whose village it is")
            return "village"
        if not isinstance(pos, dict) or "piece" not in pos or "squares" not in pos:
            self.flag(f"{what}: malformed position {pos!r}")
            return None
        name = pos["piece"]
        sqs = self.piece_squares(name) if isinstance(name, str) else None
        if sqs is None:
            self.flag(f"{what}: {name} is not on the lake")
            return None
        try:
            rec = as_squares(pos["squares"])
        except TraceError as e:
            self.flag(f"{what}: {e}")
            return None
        if rec != tuple(sorted(sqs)):
            self.flag(
                f"{what}: {name} lies on {[list(q) for q in sqs]}, the trace says {pos['squares']}"
            )
        return name

    def step_to(self, step: Any, where: str, spirit: bool) -> str | None:
        """Where a step of a recorded path goes (as pos_name); None, after flagging it, when the
        step is malformed or its position wrong, or when the spirit would enter a village."""
        if not isinstance(step, dict):
            self.flag(f"{where}: malformed step {step!r}")
            return None
        to = step.get("to")
        if spirit and (to == "village" or (isinstance(to, dict) and "village" in to)):
            self.flag(f"{where}: the spirit may not move into a village")
            return None
        return self.pos_name(step.get("to"), where)

    def path_steps(self, a: dict, label: str, spirit: bool, needs: str):
        """The steps of an action's path, in order, as (where, step, position name): flags
        `needs` when the path is missing or empty, and stops at the first step that step_to
        rejects (`where` is the label and the step's number from 1)."""
        path = a.get("path")
        if not isinstance(path, list) or not path:
            self.flag(needs)
            return
        for k, step in enumerate(path):
            where = f"{label} {k + 1}"
            to = self.step_to(step, where, spirit)
            if to is None:
                return
            yield where, step, to

    def spirit_json(self) -> Any:
        if self.spirit is None:
            return {"grotto": self.grotto}
        return self.pos_json(self.spirit)

    def pos_json(self, name: str, seat: int | None = None) -> Any:
        """A position as the trace writes it; `seat` says whose village "village" is."""
        if name == "village":
            return {"village": seat}
        return {"piece": name, "squares": [list(q) for q in sorted(self.piece_squares(name))]}

    # ------------------------------------------------------------------------------------
    # the state

    def state_json(self) -> dict:
        return {
            "turn": self.turn,
            "round": self.round,
            "seat": self.seat,
            "streets": sorted(
                ([k, [list(q) for q in sorted(v)]] for k, v in self.streets.items()),
                key=lambda x: x[0],
            ),
            "houses": {
                str(h): (list(loc) if isinstance(loc, tuple) else loc)
                for h, loc in sorted(self.houses.items())
            },
            "spirit": self.spirit_json(),
            "adventurers": [self.pos_json(a, s) for s, a in enumerate(self.adv)],
            "treasures": [
                {
                    k: sorted(t for t, v in tr.items() if v == side)
                    for k, side in (
                        ("house_side", "house"),
                        ("carried", "carried"),
                        ("banked", "banked"),
                    )
                }
                for tr in self.treasure
            ],
            "chips": list(self.chips),
            "chip_supply": self.supply,
            "hands": [sorted(h) for h in self.hands],
            "stacks": list(self.stacks),
            "draw_space": self.draw,
            "box": self.box,
            "hourglass": self.hourglass,
            "end_triggered": self.end_triggered,
        } | ({"phase": self.phase, "grotto": self.grotto} if self.advanced else {})

    @staticmethod
    def normalise_state(st: dict) -> dict:
        """The recorded state in the referee's canonical form (orders that carry no meaning
        sorted)."""

        def pos(p: Any) -> Any:
            if isinstance(p, dict) and isinstance(p.get("squares"), list):
                return {"piece": p.get("piece"), "squares": sorted(list(q) for q in p["squares"])}
            return p

        out = dict(st)
        if isinstance(st.get("streets"), list):
            out["streets"] = sorted(
                (
                    [s.get("piece"), sorted(list(q) for q in s.get("squares", []))]
                    for s in st["streets"]
                    if isinstance(s, dict)
                ),
                key=lambda x: str(x[0]),
            )
        if "spirit" in st:
            out["spirit"] = pos(st["spirit"])
        if isinstance(st.get("adventurers"), list):
            out["adventurers"] = [pos(p) for p in st["adventurers"]]
        if isinstance(st.get("treasures"), list):
            out["treasures"] = [
                {k: sorted(v) for k, v in tr.items()} if isinstance(tr, dict) else tr
                for tr in st["treasures"]
            ]
        if isinstance(st.get("hands"), list):
            out["hands"] = [sorted(h) if isinstance(h, list) else h for h in st["hands"]]
        return out

    def compare_state(self, recorded: Any, first: bool) -> bool:
        if not isinstance(recorded, dict):
            self.flag(f"the turn has no state object: {recorded!r}")
            return False
        mine = self.state_json()
        theirs = self.normalise_state(recorded)
        ok = True
        what = "the setup" if first else "the referee's state"
        for key, val in mine.items():
            if key not in theirs:
                self.flag(f"state field '{key}' is missing")
                ok = False
            elif theirs[key] != val:
                self.flag(
                    f"state field '{key}' differs from {what}: recorded "
                    f"{json.dumps(theirs[key])}, expected {json.dumps(val)}"
                )
                ok = False
        return ok

    def adopt_state(self, st: dict) -> None:
        """After a mismatch, continue from the recorded state so that later turns are judged
        on their own (raises TraceError when the recorded state cannot be read)."""
        try:
            self.turn = int(st["turn"])
            self.round = int(st["round"])
            self.seat = int(st["seat"])
            self.streets = {s["piece"]: as_squares(s["squares"]) for s in st["streets"]}
            houses = {}
            for h in range(1, 11):
                loc = st["houses"][str(h)]
                houses[h] = loc if loc in ("grotto", "out") else as_square(loc)
            self.houses = houses
            self.adv = []
            for p in st["adventurers"]:
                self.adv.append("village" if "village" in p else p["piece"])
            sp = st["spirit"]
            if self.advanced and isinstance(sp, dict) and "grotto" in sp:
                self.spirit = None
            else:
                self.spirit = sp["piece"]
            if self.advanced:
                self.phase = st["phase"]
                self.grotto = st["grotto"]
                if self.phase not in ("raising", "sinking"):
                    raise ValueError(f"phase {self.phase!r}")
            self.treasure = []
            for tr in st["treasures"]:
                d: dict[int, str] = {}
                for k, side in (
                    ("house_side", "house"),
                    ("carried", "carried"),
                    ("banked", "banked"),
                ):
                    for t in tr[k]:
                        d[int(t)] = side
                self.treasure.append(d)
            self.chips = [int(c) for c in st["chips"]]
            self.supply = int(st["chip_supply"])
            self.hands = [set(int(c) for c in h) for h in st["hands"]]
            self.stacks = [int(k) for k in st["stacks"]]
            self.draw = int(st["draw_space"])
            self.box = int(st["box"])
            self.hourglass = bool(st["hourglass"])
            self.end_triggered = st["end_triggered"]
        except (KeyError, TypeError, ValueError, AttributeError) as e:
            raise TraceError(f"{self.ctx}: the recorded state cannot be read ({e!r})") from e
        if (
            len(self.adv) != self.n
            or len(self.treasure) != self.n
            or len(self.stacks) != 6
            or not 1 <= self.draw <= 6
            or len(self.chips) != self.n
            or len(self.hands) != self.n
        ):
            raise TraceError(f"{self.ctx}: the recorded state has the wrong shape")
