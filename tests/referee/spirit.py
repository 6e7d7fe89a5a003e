"""The referee's judgement of the spirit: its moves, sinking pieces and what follows (sent home,
chips, treasures), and the advanced game's spirit (banishment, grotto)."""

from __future__ import annotations

from typing import Any

from tests.referee.board import (
    TraceError,
    TurnState,
    as_squares,
)
from tests.referee.turns import RefereeTurns


class RefereeSpirit(RefereeTurns):
    """The spirit's actions and sinking."""

    def do_spirit(self, t: TurnState, a: dict) -> None:
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
            to = self.step_to(step, where, spirit=True)
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
            and as_squares(sunk["squares"]) != tuple(sorted(sqs))
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

    def sinking_phase_action(self, a: dict, in_the_basic_game: str, in_another_phase: str) -> bool:
        """The checks of an action of the advanced game's sinking phase: False, flagged with the
        first message, in the basic game; the second flagged in another phase, and a mover that
        is not the seat on turn."""
        if not self.advanced:
            self.flag(in_the_basic_game)
            return False
        if self.phase != "sinking":
            self.flag(in_another_phase)
        if a.get("mover") != self.seat:
            self.flag(f"the mover is seat {a.get('mover')}, but seat {self.seat} is on turn")
        return True

    def do_sink(self, t: TurnState, a: dict) -> None:
        """Forced spirit steps of the sinking phase: "Use 1 Neptune Movement Point per space -
        must use all points on played Action Card"."""
        if not self.sinking_phase_action(
            a,
            "sink steps belong to the advanced game",
            "the spirit moves only in the sinking phase",
        ):
            return
        if self.spirit is None:
            self.flag(f"the spirit is in grotto space {self.grotto}, not on the lake")
            return
        start = self.pos_name(a.get("start"), "sink start")
        if start is not None and start != self.spirit:
            self.flag(f"the spirit stands on {self.spirit}, not {start}")
        cur = self.spirit
        needs = "a sink action needs at least one step"
        for where, step, to in self.path_steps(a, "spirit step", True, needs):
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

    def do_banish(self, t: TurnState, a: dict) -> None:
        """ "If Neptune becomes isolated (cannot move) and has Neptune Movement Point(s) left:
        Spend 1 Neptune Movement Point to banish Neptune to any grotto space; Sinking Phase
        ends; begin a new Raising Phase" (the piece he leaves sinks)."""
        if not self.sinking_phase_action(
            a,
            "banishment belongs to the advanced game",
            "the spirit can be banished only in the sinking phase",
        ):
            return
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

    def do_grotto(self, t: TurnState, a: dict) -> None:
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

    def do_end_turn(self, t: TurnState, a: dict) -> None:
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
