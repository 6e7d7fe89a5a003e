"""The referee's judgement of one turn and of the players' actions (streets, houses, chips,
moves, the stack and the hourglass)."""

from __future__ import annotations

import json

from tests.referee.board import (
    CHEST,
    N_SPACES,
    TraceError,
    TurnState,
    as_square,
    as_squares,
    square_name,
)
from tests.referee.state import RefereeState


class RefereeTurns(RefereeState):
    """One turn at a time: the actions in order, each judged against the rules."""

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
        t = TurnState(raise_n, move_n, icon)
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

    def block(self, t: TurnState, typ: str | None) -> None:
        """action_order = blocks (seed 000, the basic game): raise, move and spirit are each
        done whole, in any order."""
        cls = {
            "street": "raise",
            "house": "raise",
            "stack_turn": "raise",
            "hourglass": "raise",
            "chip": "move",
            "move": "move",
            "spirit": "spirit",
        }.get(typ or "")
        if cls is None or self.action_order == "intermingled" or self.advanced:
            return
        if t.blocks and t.blocks[-1] == cls:
            return
        if cls in t.blocks:
            self.flag(
                f"the actions are whole blocks, but the {cls} action resumes after "
                f"{' then '.join(t.blocks)}"
            )
        if t.blocks and t.blocks[-1] == "raise" and not t.raise_checked:
            # the raising action is over: it must not be left while pieces are still owed
            t.raise_checked = True
            owed = self.raising_owed(t)
            if owed:
                self.flag(f"the actions are whole blocks and the raising is left, but {owed}")
        t.blocks.append(cls)

    def raising_owed(self, t: TurnState) -> str | None:
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
                # the safety cap ends the game at once; the final state names it as the end
                # condition met
                self.over, self.end_reason = True, "round-limit"
                self.end_triggered = "round-limit"

    # ---- actions -----------------------------------------------------------------------

    def do_street(self, t: TurnState, a: dict) -> None:
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
        sqs = as_squares(a.get("squares"))
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

    def check_raising(self, t: TurnState) -> bool:
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

    def expected_sinking(self, t: TurnState) -> dict:
        app = self.appearance()
        return {
            "type": "phase",
            "phase": "sinking",
            "points": t.bp,
            "spirit": {"grotto": self.grotto} if app is None else self.pos_json(app),
        }

    def apply_event(self, t: TurnState, ev: dict) -> None:
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

    def apply_skipped(self, t: TurnState) -> None:
        for ev in t.pending:
            self.apply_event(t, ev)
        t.pending = []

    def do_stack_turn(self, t: TurnState, a: dict) -> None:
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

    def do_hourglass(self, t: TurnState, a: dict) -> None:
        exp = t.pending.pop(0) if t.pending else None
        if exp != {"type": "hourglass"}:
            self.flag(
                f"the hourglass is not due (expected: {exp or 'nothing'}; draw space "
                f"{self.draw}, stacks {self.stacks})"
            )
            if exp is not None and exp.get("type") != "hourglass":
                t.pending.insert(0, exp)
        self.apply_event(t, {"type": "hourglass"})

    def do_phase(self, t: TurnState, a: dict) -> None:
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

    def do_house(self, t: TurnState, a: dict) -> None:
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
        q = as_square(a.get("square"))
        prob = self.house_spot_problem(q, self.occupied())
        if prob:
            self.flag(f"illegal spot for house {h}: {prob}")
        t.bp -= 1
        t.houses += 1
        if self.houses[h] == "grotto" and prob is None:
            self.houses[h] = q

    def do_chip(self, t: TurnState, a: dict) -> None:
        seat = self.seat
        if not self.chips_on:
            self.flag("chips are not in play")
        if t.chip_used:
            self.flag("only one chip may be used per turn")
        if t.moved and self.chip_timing == "before-move":
            # seed 000's example: the chip's points are "the treasures that, before their
            # move, were showing the house side up"
            self.flag("a chip is played before the move, but the adventurer has already moved")
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

    def do_move(self, t: TurnState, a: dict) -> None:
        seat = self.seat
        start = self.pos_name(a.get("start"), "move start")
        if start is not None and start != self.adv[seat]:
            self.flag(
                f"the move starts at {start}, but seat {seat}'s adventurer is at {self.adv[seat]}"
            )
        cur = self.adv[seat]
        t.moved = True
        for where, step, to in self.path_steps(a, "step", False, "a move needs at least one step"):
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
                        f"its corner square {square_name(vq)}"
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
