"""An independent referee for Sunken City traces (docs/trace-format.md).

It reads the JSON lines of one game only: it imports nothing from the engine (``simcore``) or
the analysis code, builds its own model of the game from the rules in the header, and replays
every action, judging it against the rulebook (seed 000) and the default rulings of
GAME-DATA.md:

* the recorded ``state`` before every turn must equal the referee's own state (the first one
  must be the rulebook's setup);
* every action must be legal, and every consequence the trace records (treasures recovered and
  banked, pieces sunk, adventurers sent home, chips, stack turnovers, the hourglass) must be
  exactly what the rules make happen;
* the ``end`` line must report the right end, scores and winner.

Advanced-game traces (header rules ``"advanced": true``) are judged against seed 001's
"Advanced Game" sections and the project's documented rulings (docs/trace-format.md, "The
advanced game"): all houses start in the grotto and the spirit in grotto space 10; a card's top
number is building points in the raising phase and spirit points in the sinking phase; only the
house of the spirit's grotto space may be raised; using up the draw stack switches to sinking
(the spirit appears at the house of its grotto space, else the highest-numbered house on the
lake, else it stays in the grotto), the spirit must use all its points, and when it cannot move
it spends 1 point to be banished to a grotto space, which starts a raising phase; entering the
house of the spirit's grotto space in the raising phase lets the player send the spirit to
another grotto space; the hourglass ends the game only once the last sinking phase has ended.

``check_trace(lines)`` returns the violations as readable strings (an empty list: the trace is
legal). Run as a script it checks a file (or standard input) and exits 1 on any violation:

    python tests/referee.py trace.jsonl
    balance replay sunken-city --seed 1 --game 5 --format jsonl | python tests/referee.py
"""

from __future__ import annotations

import json
import sys
from typing import Any

SIZE = 9
N_SPACES = 6
# Corners clockwise from the top left: (0,0), (0,8), (8,8), (8,0).
CORNERS = ((0, 0), (0, SIZE - 1), (SIZE - 1, SIZE - 1), (SIZE - 1, 0))
ALL_TREASURES = tuple(range(1, 11)) + (12,)
CHEST = 12
MAX_VIOLATIONS = 500

Square = tuple[int, int]


class TraceError(Exception):
    """The trace cannot be read any further (malformed line or field)."""


def _sq(x: Any) -> Square:
    if (
        not isinstance(x, (list, tuple))
        or len(x) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in x)
    ):
        raise TraceError(f"not a square: {x!r}")
    return (x[0], x[1])


def _sqs(xs: Any) -> tuple[Square, ...]:
    if not isinstance(xs, list):
        raise TraceError(f"not a list of squares: {xs!r}")
    return tuple(sorted(_sq(x) for x in xs))


def _orth(a: Square, b: Square) -> bool:
    return abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1


def _fmt_sq(q: Square) -> str:
    return f"r{q[0]}c{q[1]}"


class Referee:
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
            self.use_house_1 = bool(rules["use_house_1"])
            self.needs_icon = bool(rules["spirit_needs_icon"])
            self.interleave = bool(rules["interleave"])
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
        if self.advanced and not self.interleave:
            self.flag(
                "interleave=false is not a rule of the advanced game (seed 001: the actions "
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
        return any(_orth(p, q) for p in sa for q in sb)

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
                return f"{_fmt_sq(q)} is the centre, which takes houses only"
            if q in occ:
                return f"{_fmt_sq(q)} is not free ({occ[q]} lies there)"
        if len(sqs) == 2 and (sqs[0] == sqs[1] or not _orth(sqs[0], sqs[1])):
            return f"{_fmt_sq(sqs[0])} and {_fmt_sq(sqs[1])} are not orthogonally adjacent"
        return None

    def house_spot_problem(self, q: Square, occ: dict[Square, str]) -> str | None:
        if q not in self.kind:
            return f"square {list(q)} is off the lake"
        if self.kind[q] == ".":
            return f"{_fmt_sq(q)} is light water (houses appear only on dark squares or the centre)"
        if q in occ:
            return f"{_fmt_sq(q)} is not free ({occ[q]} lies there)"
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                p = (q[0] + dr, q[1] + dc)
                if (dr or dc) and p in occ and occ[p].startswith("house"):
                    return f"it would touch {occ[p]} on {_fmt_sq(p)} (houses may not touch)"
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
        """Check a recorded position against the model; return the piece name or 'village'."""
        if pos == "village":
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
            rec = _sqs(pos["squares"])
        except TraceError as e:
            self.flag(f"{what}: {e}")
            return None
        if rec != tuple(sorted(sqs)):
            self.flag(
                f"{what}: {name} lies on {[list(q) for q in sqs]}, the trace says {pos['squares']}"
            )
        return name

    def spirit_json(self) -> Any:
        if self.spirit is None:
            return {"grotto": self.grotto}
        return self.pos_json(self.spirit)

    def pos_json(self, name: str) -> Any:
        if name == "village":
            return "village"
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
            "adventurers": [self.pos_json(a) for a in self.adv],
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
            self.streets = {s["piece"]: _sqs(s["squares"]) for s in st["streets"]}
            houses = {}
            for h in range(1, 11):
                loc = st["houses"][str(h)]
                houses[h] = loc if loc in ("grotto", "out") else _sq(loc)
            self.houses = houses
            self.adv = []
            for p in st["adventurers"]:
                self.adv.append("village" if p == "village" else p["piece"])
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

    # ------------------------------------------------------------------------------------
    # one turn

    def play_turn(self, line: dict) -> None:
        st = line.get("state")
        seat = self.seat
        self.ctx = f"turn {self.turn} (round {self.round}, seat {seat})"
        if self.over:
            self.flag(f"the game is over ({self.end_reason}) but the trace has another turn")
            return
        if not self.compare_state(st, first=self.turn == 0 and self.round == 0):
            self.adopt_state(st)
            seat = self.seat
        actions = line.get("actions")
        if not isinstance(actions, list) or not actions:
            self.flag("the turn has no actions")
            self.advance()
            return
        base = self.ctx
        # --- the card
        a0 = actions[0]
        self.ctx = f"{base}, action 0 ({a0.get('type') if isinstance(a0, dict) else a0})"
        raise_n, move_n, icon = 0, 0, 0
        if not isinstance(a0, dict) or a0.get("type") != "card":
            self.flag("a turn must begin with playing a movement card")
        else:
            c = a0.get("card")
            if not isinstance(c, int) or not 0 <= c < len(self.cards):
                self.flag(f"there is no card {c!r}")
            else:
                if c not in self.hands[seat]:
                    self.flag(f"card {c} is not in seat {seat}'s hand {sorted(self.hands[seat])}")
                raise_n, move_n, icon = self.cards[c]
                if (a0.get("raise"), a0.get("move"), a0.get("icon")) != (
                    raise_n,
                    move_n,
                    bool(icon),
                ):
                    self.flag(
                        f"card {c} is raise {raise_n} / move {move_n} / icon "
                        f"{bool(icon)}, the trace says raise {a0.get('raise')} / move "
                        f"{a0.get('move')} / icon {a0.get('icon')}"
                    )
                self.hands[seat].discard(c)
                if not self.hands[seat]:  # "Only then does the player take all the cards back"
                    self.hands[seat] = set(range(len(self.cards)))
        t = _Turn(raise_n, move_n, icon)
        if self.advanced and self.phase == "sinking":
            # "Top Number ... in the Sinking Phase, Neptune Movement Points"
            t.bp, t.sp = 0, raise_n
        for i, a in enumerate(actions[1:], start=1):
            typ = a.get("type") if isinstance(a, dict) else None
            self.ctx = f"{base}, action {i} ({typ})"
            if not isinstance(a, dict):
                self.flag(f"malformed action {a!r}")
                continue
            if t.ended:
                self.flag("action after end_turn")
            if t.pending and typ not in ("stack_turn", "hourglass", "phase"):
                self.flag(f"expected {t.pending[0]} ({t.pending_why}) before this action")
                self.apply_skipped(t)
            self.block(t, typ)
            try:
                handler = getattr(self, f"do_{typ}", None)
                if handler is None or typ == "card":
                    self.flag(
                        f"unexpected action type {typ!r}"
                        if typ != "card"
                        else "a second card in one turn"
                    )
                else:
                    handler(t, a)
            except TraceError as e:
                self.flag(str(e))
        self.ctx = base
        if not t.ended:
            self.flag("the turn has no end_turn action")
        self.advance()

    def block(self, t: _Turn, typ: str | None) -> None:
        """interleave = false: raise, move and spirit are each done in one piece."""
        cls = {
            "street": "raise",
            "house": "raise",
            "stack_turn": "raise",
            "hourglass": "raise",
            "chip": "move",
            "move": "move",
            "spirit": "spirit",
        }.get(typ or "")
        if cls is None or self.interleave or self.advanced:
            return
        if t.blocks and t.blocks[-1] == cls:
            return
        if cls in t.blocks:
            self.flag(
                f"interleave is off, but the {cls} action resumes after {' then '.join(t.blocks)}"
            )
        if t.blocks and t.blocks[-1] == "raise" and not t.raise_checked:
            # the raising action is over: it must not be left while pieces are still owed
            t.raise_checked = True
            owed = self.raising_owed(t)
            if owed:
                self.flag(f"interleave is off and the raising is left for good, but {owed}")
        t.blocks.append(cls)

    def raising_owed(self, t: _Turn) -> str | None:
        """ "Exactly as many pieces must be placed as the card indicates"; fewer only when no
        street is left to draw ("while streets are missing, the action ... is not a mandatory
        action") or no legal spot is left for any piece (GAME-DATA ruling)."""
        unraised = t.bp
        if unraised <= 0 or self.stacks[self.draw - 1] <= 0 or self.phase != "raising":
            return None
        street_ok = self.any_street_spot()
        if self.advanced:
            # "May only raise the building next to which Neptune is standing (in the grotto)"
            raisable = self.grotto is not None and self.houses.get(self.grotto) == "grotto"
        else:
            raisable = any(self.houses[h] == "grotto" for h in self.houses_in_play)
        house_ok = t.houses == 0 and raisable and self.any_house_spot()
        if not (street_ok or house_ok):
            return None
        return (
            f"{unraised} piece(s) of the card are not raised although a street can be "
            f"drawn (space {self.draw}) and "
            + ("a street spot is free" if street_ok else "a house can still appear")
        )

    def advance(self) -> None:
        self.turn += 1
        self.seat += 1
        if self.seat == self.n:
            self.seat = 0
            self.round += 1
            if self.end_triggered is not None:
                self.over, self.end_reason = True, self.end_triggered
            elif self.round >= self.max_rounds:
                self.over, self.end_reason = True, "round-limit"

    # ---- actions -----------------------------------------------------------------------

    def do_street(self, t: _Turn, a: dict) -> None:
        if not self.check_raising(t):
            return
        if self.stacks[self.draw - 1] <= 0:
            self.flag(f"no street to draw: the face-up stack (space {self.draw}) is empty")
        if a.get("from_space") != self.draw:
            self.flag(
                f"streets are drawn from the face-up stack on space {self.draw}, not "
                f"space {a.get('from_space')}"
            )
        name = a.get("piece")
        sqs = _sqs(a.get("squares"))
        occ = self.occupied()
        prob = self.street_spot_problem(sqs, occ)
        if prob:
            self.flag(f"illegal street spot {[list(q) for q in sqs]}: {prob}")
        if (
            not isinstance(name, str)
            or not name.startswith("street")
            or not name[6:].isdigit()
            or int(name[6:]) >= self.total_streets
        ):
            self.flag(f"bad street name {name!r}")
            return
        if name in self.streets:
            self.flag(f"{name} is already on the lake")
        t.bp -= 1
        if prob is None:
            self.streets[name] = sqs
        if self.stacks[self.draw - 1] > 0:
            self.stacks[self.draw - 1] -= 1
            t.pending = self.expected_turnover()
            t.pending_why = "the draw stack was used up"
            if self.advanced and self.stacks[self.draw - 1] == 0:
                # "Switch to Sinking Phase immediately when the last street from the current
                # street space is used; unused Building Points immediately become Neptune
                # Movement Points"
                t.pending.append(self.expected_sinking(t))

    def check_raising(self, t: _Turn) -> bool:
        """False (the piece is ignored) in the sinking phase."""
        if self.advanced and self.phase != "raising":
            self.flag("no piece may rise in the sinking phase (pieces do not rise, only sink)")
            return False
        if t.bp <= 0 and self.advanced:
            self.flag(f"no building point is left (card: {t.raise_n}); this piece is one more")
        elif t.bp <= 0:
            self.flag(f"the card raises {t.raise_n} piece(s); this is one more")
        return True

    def appearance(self) -> str | None:
        """Where the spirit appears when the sinking phase begins: "at the building of the
        grotto space he is located in; if that building has not been raised, he appears at the
        highest numbered raised building" (ruling: with no house on the lake it stays)."""
        g = self.grotto
        if g is not None and isinstance(self.houses.get(g), tuple):
            return f"house{g}"
        on_lake = [h for h, loc in self.houses.items() if isinstance(loc, tuple)]
        return f"house{max(on_lake)}" if on_lake else None

    def expected_sinking(self, t: _Turn) -> dict:
        app = self.appearance()
        return {
            "type": "phase",
            "phase": "sinking",
            "points": t.bp,
            "spirit": {"grotto": self.grotto} if app is None else self.pos_json(app),
        }

    def apply_event(self, t: _Turn, ev: dict) -> None:
        """The referee's own version of a due consequence."""
        typ = ev.get("type")
        if typ == "stack_turn":
            self.draw = ev["draw_space"]
        elif typ == "hourglass":
            self.hourglass = True
            if self.end_triggered is None and not self.advanced:
                self.end_triggered = "hourglass"
        elif typ == "phase":
            self.phase = ev["phase"]
            t.grotto_right = False
            if ev["phase"] == "sinking":
                t.sp, t.bp = t.bp, 0
                app = self.appearance()
                if app is not None:
                    self.spirit, self.grotto = app, None
            else:
                t.bp, t.sp = t.sp, 0

    def apply_skipped(self, t: _Turn) -> None:
        for ev in t.pending:
            self.apply_event(t, ev)
        t.pending = []

    def do_stack_turn(self, t: _Turn, a: dict) -> None:
        exp = t.pending.pop(0) if t.pending else None
        if exp != {"type": "stack_turn", "draw_space": a.get("draw_space")}:
            self.flag(
                f"stack_turn to space {a.get('draw_space')} is not due "
                f"(expected: {exp or 'nothing'}; draw space {self.draw}, stacks "
                f"{self.stacks})"
            )
            if exp is not None and exp.get("type") != "stack_turn":
                t.pending.insert(0, exp)
        d = a.get("draw_space")
        if isinstance(d, int) and 1 <= d <= N_SPACES:
            self.draw = d

    def do_hourglass(self, t: _Turn, a: dict) -> None:
        exp = t.pending.pop(0) if t.pending else None
        if exp != {"type": "hourglass"}:
            self.flag(
                f"the hourglass is not due (expected: {exp or 'nothing'}; draw space "
                f"{self.draw}, stacks {self.stacks})"
            )
            if exp is not None and exp.get("type") != "hourglass":
                t.pending.insert(0, exp)
        self.apply_event(t, {"type": "hourglass"})

    def do_phase(self, t: _Turn, a: dict) -> None:
        if not self.advanced:
            self.flag("there are no phases in the basic game")
            return
        exp = t.pending.pop(0) if t.pending else None
        if exp is None or exp.get("type") != "phase":
            self.flag(
                f"a switch to the {a.get('phase')} phase is not due (expected: "
                f"{exp or 'nothing'}; phase {self.phase}, draw space {self.draw}, stacks "
                f"{self.stacks})"
            )
            if exp is not None:
                t.pending.insert(0, exp)
            return
        if a.get("phase") != exp["phase"]:
            self.flag(f"the {exp['phase']} phase begins, the trace says {a.get('phase')}")
        if a.get("points") != exp["points"]:
            kind = "building" if exp["phase"] == "sinking" else "spirit"
            self.flag(
                f"{exp['points']} {kind} point(s) are left to convert, the trace converts "
                f"{a.get('points')}"
            )
        rec = a.get("spirit")
        if self.normalise_state({"spirit": rec})["spirit"] != exp["spirit"]:
            self.flag(
                f"at the switch to {exp['phase']} the spirit must be at "
                f"{json.dumps(exp['spirit'])} (its grotto space {self.grotto}; houses on the "
                f"lake {sorted(h for h, q in self.houses.items() if isinstance(q, tuple))}), "
                f"the trace puts it at {json.dumps(rec)}"
            )
        self.apply_event(t, exp)

    def do_house(self, t: _Turn, a: dict) -> None:
        h = a.get("house")
        if not self.check_raising(t):
            return
        if self.advanced and h != self.grotto:
            self.flag(
                f"only the house of the spirit's grotto space ({self.grotto}) may be raised, "
                f"not house {h}"
            )
        if t.houses >= 1:
            self.flag("only one house can appear per turn")
        if h not in self.houses:
            self.flag(f"there is no house {h!r}")
            return
        if self.houses[h] != "grotto":
            self.flag(f"house {h} is not in the grotto (it is {self.houses[h]})")
        q = _sq(a.get("square"))
        prob = self.house_spot_problem(q, self.occupied())
        if prob:
            self.flag(f"illegal spot for house {h}: {prob}")
        t.bp -= 1
        t.houses += 1
        if self.houses[h] == "grotto" and prob is None:
            self.houses[h] = q

    def do_chip(self, t: _Turn, a: dict) -> None:
        seat = self.seat
        if not self.chips_on:
            self.flag("chips are not in play")
        if t.chip_used:
            self.flag("only one chip may be used per turn")
        if self.chips[seat] <= 0:
            self.flag(f"seat {seat} holds no chip")
        extra = sum(1 for v in self.treasure[seat].values() if v == "house")
        if a.get("extra_points") != extra:
            self.flag(
                f"a chip gives as many points as house-side treasures ({extra}), the "
                f"trace says {a.get('extra_points')}"
            )
        t.chip_used = True
        if self.chips[seat] > 0:
            self.chips[seat] -= 1
            self.supply += 1
        t.points += extra

    def do_move(self, t: _Turn, a: dict) -> None:
        seat = self.seat
        start = self.pos_name(a.get("start"), "move start")
        if start is not None and start != self.adv[seat]:
            self.flag(
                f"the move starts at {start}, but seat {seat}'s adventurer is at {self.adv[seat]}"
            )
        path = a.get("path")
        if not isinstance(path, list) or not path:
            self.flag("a move needs at least one step")
            return
        cur = self.adv[seat]
        for k, step in enumerate(path):
            where = f"step {k + 1}"
            if not isinstance(step, dict):
                self.flag(f"{where}: malformed step {step!r}")
                return
            to = self.pos_name(step.get("to"), where)
            if to is None:
                return
            if t.points <= 0:
                self.flag(
                    f"{where} to {to}: no movement points left (card {t.move_n}"
                    f"{' + chip' if t.chip_used else ''})"
                )
            t.points -= 1
            if to == "village" or cur == "village":
                other = cur if to == "village" else to
                vq = self.village_sq[seat]
                sqs = self.piece_squares(other) or ()
                if other == "village" or vq not in sqs:
                    self.flag(
                        f"{where}: {cur} -> {to}: the village is reached only through "
                        f"its corner square {_fmt_sq(vq)}"
                    )
            elif not self.connected(cur, to):
                self.flag(f"{where}: {to} does not share a square edge with {cur}")
            if step.get("points_left") != t.points:
                self.flag(f"{where}: points_left is {step.get('points_left')}, expected {t.points}")
            rec: list[int] = []
            banked: list[int] = []
            tr = self.treasure[seat]
            if to.startswith("house"):
                h = int(to[5:])
                if tr.get(h) == "house":
                    rec.append(h)
                if self.houses[h] == self.centre and tr.get(CHEST) == "house":
                    rec.append(CHEST)
                for v in rec:
                    tr[v] = "carried"
            elif to == "village":
                banked = sorted(v for v, s in tr.items() if s == "carried")
                for v in banked:
                    tr[v] = "banked"
                if all(s == "banked" for s in tr.values()) and self.end_triggered is None:
                    self.end_triggered = "all-banked"
            if sorted(step.get("recovered", [])) != sorted(rec):
                self.flag(f"{where} into {to}: recovers {step.get('recovered')}, expected {rec}")
            if sorted(step.get("banked", [])) != banked:
                self.flag(f"{where} into {to}: banks {step.get('banked')}, expected {banked}")
            cur = to
            self.adv[seat] = to
            if self.advanced and self.phase == "raising" and to == f"house{self.grotto}":
                # "In Raising Phase, when you move your pawn onto/over the building whose
                # grotto space Neptune is currently in, you may move Neptune to a different
                # grotto space"
                t.grotto_right = True

    def do_spirit(self, t: _Turn, a: dict) -> None:
        seat = self.seat
        if self.advanced:
            self.flag(
                "the basic game's spirit move does not exist in the advanced game (the icon is "
                "ignored; the spirit moves only with spirit points in the sinking phase)"
            )
            return
        if self.spirit is None:
            raise TraceError("the spirit is not on the lake")
        if self.needs_icon and not t.icon:
            self.flag("the card has no water-spirit icon, so the spirit may not move")
        if t.spirit_used:
            self.flag("the spirit may be moved only once per turn")
        t.spirit_used = True
        if a.get("mover") != seat:
            self.flag(f"the mover is seat {a.get('mover')}, but seat {seat} is on turn")
        start = self.pos_name(a.get("start"), "spirit start")
        if start is not None and start != self.spirit:
            self.flag(f"the spirit stands on {self.spirit}, not {start}")
        cur = self.spirit
        if not self.neighbours(cur):
            self.flag(f"the spirit on {cur} is completely surrounded by water and cannot move")
        owners = self.owners(cur)
        limit, roll = a.get("limit"), a.get("die_roll")
        towner = a.get("territory_owner")
        if seat in owners:
            if roll is not None:
                self.flag(
                    f"the spirit is in seat {seat}'s own territory: no die roll, but the "
                    f"trace rolls {roll}"
                )
            if limit != self.owner_limit:
                self.flag(f"in its own territory the limit is {self.owner_limit}, not {limit}")
            if towner != seat:
                self.flag(f"territory_owner is {towner}, expected {seat}")
        else:
            if roll not in self.die:
                self.flag(f"die roll {roll} is not a face of the die {self.die}")
            if limit != roll:
                self.flag(
                    f"outside the mover's territory the limit is the roll {roll}, not {limit}"
                )
            if not ((towner is None and not owners) or towner in owners):
                self.flag(
                    f"territory_owner is {towner}, but {cur} lies in the territory of "
                    f"{sorted(owners) or 'nobody'}"
                )
        path = a.get("path")
        if not isinstance(path, list):
            self.flag("the spirit move has no path")
            return
        if a.get("steps") != len(path):
            self.flag(f"steps is {a.get('steps')}, but the path has {len(path)}")
        if isinstance(limit, int) and isinstance(roll, (int, type(None))):
            cap = self.owner_limit if seat in owners else (roll if isinstance(roll, int) else 0)
            if len(path) > cap:
                self.flag(f"the spirit moves {len(path)} steps, more than its limit {cap}")
        for k, step in enumerate(path):
            where = f"spirit step {k + 1}"
            if not isinstance(step, dict):
                self.flag(f"{where}: malformed step {step!r}")
                return
            if step.get("to") == "village":
                self.flag(f"{where}: the spirit may not move into a village")
                return
            to = self.pos_name(step.get("to"), where)
            if to is None:
                return
            if not self.connected(cur, to):
                self.flag(f"{where}: {to} is not connected to {cur}")
            self.sink(cur, step.get("sunk"), step.get("sent_home"), where)
            cur = to
            self.spirit = to

    def sink(self, name: str, sunk: Any, sent: Any, where: str) -> None:
        """The piece the spirit leaves submerges; adventurers on it return home."""
        seat = self.seat
        sqs = self.piece_squares(name)
        if not isinstance(sunk, dict):
            self.flag(f"{where}: the piece left ({name}) must sink, the trace records {sunk!r}")
            sunk = {}
        if sunk.get("piece") != name:
            self.flag(f"{where}: the piece left is {name}, the trace sinks {sunk.get('piece')}")
        if (
            sunk.get("squares") is not None
            and sqs is not None
            and _sqs(sunk["squares"]) != tuple(sorted(sqs))
        ):
            self.flag(
                f"{where}: {name} lies on {[list(q) for q in sqs]}, the trace sinks "
                f"{sunk['squares']}"
            )
        if name.startswith("house"):
            h = int(name[5:])
            if sunk.get("kind") != "house" or sunk.get("house") != h:
                self.flag(
                    f"{where}: {name} sinks as house {h}, the trace says "
                    f"{sunk.get('kind')} {sunk.get('house')}"
                )
            self.houses[h] = "grotto"
        else:
            space = self.discard_space()
            if sunk.get("kind") != "street" or sunk.get("to_space") != space:
                self.flag(
                    f"{where}: {name} sinks onto street space {space}, the trace says "
                    f"{sunk.get('kind')} to space {sunk.get('to_space')}"
                )
            self.streets.pop(name, None)
            self.stacks[space - 1] += 1
        on_it = [s for s in range(self.n) if self.adv[s] == name]
        if not isinstance(sent, list):
            self.flag(f"{where}: sent_home missing")
            sent = []
        rec_seats = [x.get("seat") if isinstance(x, dict) else None for x in sent]
        if sorted(rec_seats, key=str) != on_it:
            self.flag(
                f"{where}: adventurers on {name} are {on_it}, the trace sends home {rec_seats}"
            )
        for x in sent:
            if not isinstance(x, dict):
                continue
            s = x.get("seat")
            if s not in on_it:
                continue
            tr = self.treasure[s]
            lost = sorted(v for v, side in tr.items() if side == "carried")
            if sorted(x.get("lost", [])) != lost:
                self.flag(
                    f"{where}: seat {s} loses its carried treasures {lost}, the trace "
                    f"says {x.get('lost')}"
                )
            chip = self.chips_on and (s != seat or self.own_chip) and self.supply > 0
            if bool(x.get("chip")) != chip:
                why = (
                    "chips are off"
                    if not self.chips_on
                    else "the seat moved the spirit itself"
                    if s == seat and not self.own_chip
                    else "the supply is empty"
                    if self.supply <= 0
                    else "another seat moved the spirit"
                    if s != seat
                    else "chip_for_own_sinking is on"
                )
                self.flag(
                    f"{where}: seat {s} sent home {'gets' if chip else 'gets no'} chip "
                    f"({why}), the trace says chip={x.get('chip')}"
                )
            if chip:
                self.supply -= 1
                self.chips[s] += 1
            for v in lost:
                tr[v] = "house"
            self.adv[s] = "village"
        for s in on_it:  # adventurers the trace forgot still go home
            if s not in rec_seats:
                for v in [v for v, side in self.treasure[s].items() if side == "carried"]:
                    self.treasure[s][v] = "house"
                self.adv[s] = "village"

    # ---- the advanced game's spirit -----------------------------------------------------

    def check_mover(self, a: dict) -> None:
        if a.get("mover") != self.seat:
            self.flag(f"the mover is seat {a.get('mover')}, but seat {self.seat} is on turn")

    def do_sink(self, t: _Turn, a: dict) -> None:
        """Forced spirit steps of the sinking phase: "Use 1 Neptune Movement Point per space -
        must use all points on played Action Card"."""
        if not self.advanced:
            self.flag("sink steps belong to the advanced game")
            return
        if self.phase != "sinking":
            self.flag("the spirit moves only in the sinking phase")
        self.check_mover(a)
        if self.spirit is None:
            self.flag(f"the spirit is in grotto space {self.grotto}, not on the lake")
            return
        start = self.pos_name(a.get("start"), "sink start")
        if start is not None and start != self.spirit:
            self.flag(f"the spirit stands on {self.spirit}, not {start}")
        path = a.get("path")
        if not isinstance(path, list) or not path:
            self.flag("a sink action needs at least one step")
            return
        cur = self.spirit
        for k, step in enumerate(path):
            where = f"spirit step {k + 1}"
            if not isinstance(step, dict):
                self.flag(f"{where}: malformed step {step!r}")
                return
            if step.get("to") == "village":
                self.flag(f"{where}: the spirit may not move into a village")
                return
            to = self.pos_name(step.get("to"), where)
            if to is None:
                return
            if t.sp <= 0:
                self.flag(f"{where} to {to}: no spirit points left")
            t.sp -= 1
            if not self.connected(cur, to):
                self.flag(f"{where}: {to} is not connected to {cur}")
            if step.get("points_left") != t.sp:
                self.flag(f"{where}: points_left is {step.get('points_left')}, expected {t.sp}")
            self.sink(cur, step.get("sunk"), step.get("sent_home"), where)
            cur = to
            self.spirit = to

    def do_banish(self, t: _Turn, a: dict) -> None:
        """ "If Neptune becomes isolated (cannot move) and has Neptune Movement Point(s) left:
        Spend 1 Neptune Movement Point to banish Neptune to any grotto space; Sinking Phase
        ends; begin a new Raising Phase" (the piece he leaves sinks)."""
        if not self.advanced:
            self.flag("banishment belongs to the advanced game")
            return
        if self.phase != "sinking":
            self.flag("the spirit can be banished only in the sinking phase")
        self.check_mover(a)
        if t.sp <= 0:
            self.flag("the spirit has no spirit point left to pay for its banishment")
        t.sp -= 1
        if a.get("points_left") != t.sp:
            self.flag(f"points_left is {a.get('points_left')}, expected {t.sp}")
        frm = a.get("from")
        if self.spirit is None:
            if frm != "grotto":
                self.flag(f"the spirit is in grotto space {self.grotto}, the trace says {frm}")
            if a.get("sunk") is not None or a.get("sent_home"):
                self.flag("the spirit leaves the grotto: nothing sinks, nobody is sent home")
        else:
            name = self.pos_name(frm, "banish from") if frm != "grotto" else None
            if name != self.spirit:
                self.flag(f"the spirit stands on {self.spirit}, the trace banishes it from {frm}")
            nb = self.neighbours(self.spirit)
            if nb:
                self.flag(
                    f"the spirit on {self.spirit} can still move (to {', '.join(sorted(nb))}), "
                    "so it cannot be banished"
                )
            self.sink(self.spirit, a.get("sunk"), a.get("sent_home"), "banish")
        g = a.get("grotto")
        if g not in self.houses_in_play:
            self.flag(f"grotto space {g!r} is not in play (spaces {list(self.houses_in_play)})")
            g = self.grotto if self.grotto is not None else 10
        self.spirit, self.grotto = None, g
        if self.hourglass and self.end_triggered is None:
            # "When draw pile #5 is exhausted ... the last Sinking Phase begins; game ends when
            # this Phase is over" (at the end of the round)
            self.end_triggered = "hourglass"
        t.pending = [{"type": "phase", "phase": "raising", "points": t.sp, "spirit": {"grotto": g}}]
        t.pending_why = "the spirit was banished"

    def do_grotto(self, t: _Turn, a: dict) -> None:
        if not self.advanced:
            self.flag("grotto spaces belong to the advanced game")
            return
        if self.phase != "raising" or self.spirit is not None:
            self.flag("the spirit is sent to another grotto space only in the raising phase")
        if not t.grotto_right:
            self.flag(
                f"seat {self.seat} has not entered house {self.grotto} (the house of the "
                "spirit's grotto space) since the spirit got there, so it may not move the "
                "spirit to another grotto space"
            )
        if a.get("from") != self.grotto:
            self.flag(f"the spirit is in grotto space {self.grotto}, not {a.get('from')}")
        to = a.get("to")
        if to == self.grotto:
            self.flag(f"the spirit must go to a different grotto space, not {to}")
        if to not in self.houses_in_play:
            self.flag(f"grotto space {to!r} is not in play (spaces {list(self.houses_in_play)})")
            return
        t.grotto_right = False
        self.grotto = to

    def do_end_turn(self, t: _Turn, a: dict) -> None:
        t.ended = True
        if t.pending:
            self.flag(f"expected {t.pending[0]} ({t.pending_why}) before the end of the turn")
            self.apply_skipped(t)
        if t.sp > 0:
            self.flag(
                f"the turn ends with {t.sp} spirit point(s) left (the spirit must use all its "
                "points; it is banished only when it cannot move)"
            )
        unraised = t.bp
        if a.get("unraised") != max(unraised, 0):
            self.flag(f"unraised is {a.get('unraised')}, expected {max(unraised, 0)}")
        if not t.raise_checked:
            owed = self.raising_owed(t)
            if owed:
                self.flag(f"the turn ends, but {owed}")
        if a.get("points_left") != t.points:
            self.flag(f"points_left is {a.get('points_left')}, expected {t.points}")

    # ------------------------------------------------------------------------------------
    # the end

    def check_end(self, end: dict) -> None:
        self.ctx = "end"
        if not self.over:
            self.flag(
                f"the trace ends after turn {self.turn - 1}, but the game is not over "
                f"(round {self.round}, end condition {self.end_triggered})"
            )
        if end.get("end_reason") != self.end_reason:
            self.flag(f"end_reason is {end.get('end_reason')}, expected {self.end_reason}")
        if end.get("rounds") != self.round:
            self.flag(f"rounds is {end.get('rounds')}, expected {self.round}")
        if end.get("turns") != self.turn:
            self.flag(f"turns is {end.get('turns')}, expected {self.turn}")
        if end.get("error", 0) != 0:
            self.flag(f"the engine reports error {end.get('error')}")
        scores, ties = [], []
        for tr in self.treasure:
            banked = [v for v, s in tr.items() if s == "banked"]
            if self.scoring == "count":
                scores.append(len(banked))
                ties.append(sum(banked))
            else:
                scores.append(sum(banked))
                ties.append(0)
        if end.get("scores") != scores:
            self.flag(f"scores are {end.get('scores')}, expected {scores}")
        if end.get("tiebreaks") != ties:
            self.flag(f"tiebreaks are {end.get('tiebreaks')}, expected {ties}")
        best = max(zip(scores, ties))
        top = [s for s in range(self.n) if (scores[s], ties[s]) == best]
        winner = top[0] if len(top) == 1 else -1
        mask = sum(1 << s for s in top)
        if end.get("winner") != winner or end.get("win_mask") != mask:
            self.flag(
                f"winner {end.get('winner')} / win_mask {end.get('win_mask')}, expected "
                f"{winner} / {mask}"
            )


class _Turn:
    """Bookkeeping of the turn in progress."""

    def __init__(self, raise_n: int, move_n: int, icon: int):
        self.raise_n = raise_n
        self.bp = raise_n  # building points left (pieces still to raise)
        self.sp = 0  # spirit points left (advanced game, sinking phase)
        self.grotto_right = False  # entered the house of the spirit's grotto space
        self.pending_why = ""
        self.move_n = move_n
        self.icon = icon
        self.points = move_n
        self.houses = 0
        self.chip_used = False
        self.spirit_used = False
        self.ended = False
        self.pending: list[dict] = []
        self.blocks: list[str] = []
        self.raise_checked = False


def check_trace(lines: list[str] | str) -> list[str]:
    """Judge one game's JSON-lines trace; return the violations (empty: all legal)."""
    if isinstance(lines, str):
        lines = lines.splitlines()
    rows = []
    for k, line in enumerate(lines):
        if not line.strip():
            continue
        try:
            rows.append(json.loads(line))
        except json.JSONDecodeError as e:
            return [f"line {k + 1}: not JSON ({e})"]
    if not rows:
        return ["empty trace"]
    try:
        ref = Referee(rows[0])
    except TraceError as e:
        return [f"header: {e}"]
    end = None
    for k, row in enumerate(rows[1:], start=2):
        if not isinstance(row, dict):
            ref.ctx = f"line {k}"
            ref.flag(f"not an object: {row!r}")
            continue
        if end is not None:
            ref.ctx = f"line {k}"
            ref.flag("lines after the end line")
            break
        if row.get("type") == "turn":
            try:
                ref.play_turn(row)
            except TraceError as e:
                ref.flag(str(e))
                return ref.violations
            except (KeyError, TypeError, ValueError, AttributeError, IndexError) as e:
                ref.flag(f"malformed turn ({e!r})")
                return ref.violations
        elif row.get("type") == "end":
            end = row
        else:
            ref.ctx = f"line {k}"
            ref.flag(f"unknown line type {row.get('type')!r}")
    if end is None:
        ref.ctx = "end"
        ref.flag("the trace has no end line")
    else:
        ref.check_end(end)
    return ref.violations


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] not in ("-",):
        with open(argv[0], encoding="utf-8") as f:
            text = f.read()
    else:
        text = sys.stdin.read()
    violations = check_trace(text)
    for v in violations:
        print(v)
    if not violations:
        print("ok: no violations")
    return 1 if violations else 0


if __name__ == "__main__":
    sys.exit(main())
