"""Helpers for Sunken City scenario tests: positions from diagrams, actions by square."""

from __future__ import annotations

import numpy as np

from simcore.frame.rng import new_stream
from simcore.games.sunken_city import engine_advanced as EA
from simcore.games.sunken_city import engine_invariants as EI
from simcore.games.sunken_city import engine_moves as EM
from simcore.games.sunken_city import engine_raising as ER
from simcore.games.sunken_city import engine_spirit as ES
from simcore.games.sunken_city import engine_turn as ET
from simcore.games.sunken_city.board import square
from simcore.games.sunken_city.players.scratch import new_scratch
from simcore.games.sunken_city.positions import from_diagram
from simcore.games.sunken_city.rules import SunkenCityRules, pack
from simcore.games.sunken_city.state import (
    TRACE,
    VILLAGE,
    view,
)

# Cards of the default set: index -> (raise, move, icon)
CARD_0_7 = 0
CARD_1_6 = 1
CARD_2_5 = 2  # icon
CARD_3_4 = 3  # icon
CARD_4_3 = 4  # icon
CARD_2_4 = 5  # icon


class Game:
    """A position under test with convenience actions (each asserts legality unless told)."""

    def __init__(self, diagram: str, players: int = 3, rules: SunkenCityRules | None = None, **kw):
        self.rules = rules or SunkenCityRules()
        self.r = pack(self.rules, players)
        self.s = from_diagram(self.r, diagram, **kw)
        self.tr = TRACE.new()
        self.x = new_scratch()
        self.rng = new_stream(7, 0)
        self.v = view(self.s)

    # -- lookups
    def slot(self, rc) -> int:
        if rc is None:
            return VILLAGE
        return int(self.v.sq_piece[square(*rc)])

    @property
    def seat(self) -> int:
        return int(self.v.scal[0])

    def treasures(self, seat: int) -> dict[str, list[int]]:
        vals = list(range(1, 11)) + [12]
        row = self.v.treasure[seat]
        return {
            name: [vals[t] for t in range(11) if row[t] == code]
            for name, code in (("house_side", 0), ("carried", 1), ("banked", 2))
        }

    def adventurer(self, seat: int):
        return int(self.v.adv[seat])

    # -- actions (return the engine's code; ok=True asserts 0)
    def card(self, card: int, ok: bool = True) -> int:
        err = ET.do_card(self.s, self.r, self.tr, self.seat, card)
        assert not ok or err == 0
        return err

    def street(self, a, b=None, ok: bool = True) -> int:
        err = ER.do_street(self.s, self.r, self.tr, square(*a), square(*b) if b else -1)
        assert not ok or err == 0, err
        return err

    def house(self, h: int, rc, ok: bool = True) -> int:
        err = ER.do_house(self.s, self.r, self.tr, h, square(*rc))
        assert not ok or err == 0, err
        return err

    def step(self, rc, ok: bool = True) -> int:
        """One movement point onto the piece at square rc (None: the village)."""
        err = EM.do_step(self.s, self.r, self.tr, self.seat, self.slot(rc), self.x)
        assert not ok or err == 0, err
        return err

    def walk(self, *squares) -> None:
        for rc in squares:
            self.step(rc)

    def chip(self, ok: bool = True) -> int:
        err = EM.do_chip(self.s, self.r, self.tr, self.seat)
        assert not ok or err == 0
        return err

    def spirit_begin(self, ok: bool = True) -> int:
        err = ES.do_spirit_begin(self.s, self.r, self.tr, self.seat, self.rng, self.x)
        assert not ok or err == 0
        return err

    def spirit_step(self, rc, ok: bool = True) -> int:
        err = ES.do_spirit_step(self.s, self.r, self.tr, self.seat, self.slot(rc), self.x)
        assert not ok or err == 0
        return err

    def spirit_stop(self) -> int:
        return ES.do_spirit_stop(self.s, self.r, self.tr, self.seat)

    # -- the advanced game (seed 001)
    def sink_step(self, rc, ok: bool = True) -> int:
        """Sinking phase: move the spirit one point onto the piece at square rc."""
        err = EA.do_sink_step(self.s, self.r, self.tr, self.seat, self.slot(rc), self.x)
        assert not ok or err == 0, err
        return err

    def banish(self, g: int, ok: bool = True) -> int:
        err = EA.do_banish(self.s, self.r, self.tr, self.seat, g, self.x)
        assert not ok or err == 0, err
        return err

    def grotto(self, g: int, ok: bool = True) -> int:
        err = EA.do_grotto(self.s, self.r, self.tr, self.seat, g)
        assert not ok or err == 0, err
        return err

    def options(self) -> set[str]:
        """The kinds of action legal now (engine.turn_options) by name."""
        names = ("place", "step", "chip", "spirit", "end", "sink", "banish", "grotto")
        m = int(ET.turn_options(self.s, self.r, self.seat, self.x))
        return {n for k, n in enumerate(names) if m & (1 << k)}

    def end_turn(self, ok: bool = True) -> int:
        err = ET.do_end_turn(self.s, self.r, self.tr)
        assert not ok or err == 0
        return err

    def check(self) -> int:
        return int(EI.check_invariants(self.s, self.r))

    def scal(self, k: int) -> int:
        return int(self.v.scal[k])


EMPTY = "\n".join(["........."] * 4 + ["....0...."] + ["........."] * 4)


def rows_equal(a: np.ndarray, b: np.ndarray) -> bool:
    return a.shape == b.shape and bool(np.array_equal(a, b))
