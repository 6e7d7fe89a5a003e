"""Secrets of the Sea rules as scenario tests: the rulebook's examples (seed 003) and each rule
sentence, on positions built from text diagrams.

Diagrams: 10 lines (rows 1..10 from the surface), 5 tokens (buoys 0..4). S A B G C = shell,
amphora, barrel, gold, chest with their value (S1, C2); g seagrass; E exchange; M<pips> a
monster; V<front> a cave (Vg, VC2, VM4); '.' an empty space. Dice faces: 0 is the X.
"""

from __future__ import annotations

import dataclasses
from collections import Counter

import numpy as np
import pytest

from simcore.base.rulesbase import RulesError
from simcore.frame.rng import new_stream
from simcore.games.secrets_of_the_sea import engine as E
from simcore.games.secrets_of_the_sea import policies as P
from simcore.games.secrets_of_the_sea import state as S
from simcore.games.secrets_of_the_sea.board import space_of
from simcore.games.secrets_of_the_sea.engine_invariants import check_invariants
from simcore.games.secrets_of_the_sea.positions import from_diagram
from simcore.games.secrets_of_the_sea.rules import (
    BONUS_NAMES,
    R_VALUE,
    VARIANTS,
    SecretsRules,
    pack,
)

X = 0
BASE = """
S1 A1 B1 G1 C1
S1 A1 B1 G1 C1
S2 A2 B2 G2 C2
g  g  g  g  E
E  M2 M3 Vg VC2
S2 A2 B2 G2 C2
S3 A3 B3 G3 C3
S4 A4 B4 G4 C4
g  g  E  E  M3
M4 M4 M4 VM4 VG4
"""


def board(*edits: tuple[int, int, str]) -> str:
    """BASE with (column, row, token) replaced."""
    rows = [ln.split() for ln in BASE.strip().splitlines()]
    for c, r, tok in edits:
        rows[r - 1][c] = tok
    return "\n".join(" ".join(r) for r in rows)


def last_dark_tile(token: str, rules=None) -> Game:
    """A position whose only dark tile is `token` at buoy 0, row 10, with the lamp on it
    (dived with 4, 4, 2)."""
    rows = BASE.strip().splitlines()[:5] + [". . . . ."] * 4 + [f"{token} . . . ."]
    g = Game("\n".join(rows), rules=rules)
    for d in (4, 4, 2):
        g.roll(d, d)
        g.move(0, 0)
    return g


def _make_room(r, diagram: str, held: dict[int, list[str]]) -> str:
    """Blank the lowest, rightmost board copies of tiles that the seats hold instead."""
    rows = [ln.split() for ln in diagram.strip().splitlines()]
    mix = Counter(S.tile_token(r, t) for t in range(50))
    need = Counter(tok for toks in held.values() for tok in toks if not tok.startswith("W"))
    on_board = Counter(tok for row in rows for tok in row)
    for tok, n in need.items():
        excess = on_board[tok] + n - mix[tok]
        for i in range(len(rows) - 1, -1, -1):
            for c in range(len(rows[i]) - 1, -1, -1):
                if excess > 0 and rows[i][c] == tok:
                    rows[i][c] = "."
                    excess -= 1
    return "\n".join(" ".join(row) for row in rows)


class Game:
    """A position under test with its actions (each asserts legality unless told)."""

    def __init__(self, diagram: str = BASE, players: int = 3, rules=None, **kw):
        self.rules = rules or SecretsRules()
        self.r = pack(self.rules, players)
        diagram = _make_room(self.r, diagram, kw.get("held") or {})
        self.s = from_diagram(self.r, diagram, **kw)
        self.tr = S.TRACE.new()
        self.rng = new_stream(3, 0)
        self.v = S.view(self.s)
        assert self.check() == 0

    def check(self) -> int:
        return int(check_invariants(self.s, self.r))

    def _ok(self, err: int, ok: bool) -> int:
        assert not ok or err == 0, err
        if ok:
            assert self.check() == 0
        return err

    @property
    def seat(self) -> int:
        return int(self.s[S.S_SEAT])

    @property
    def phase(self) -> int:
        return int(self.s[S.S_PHASE])

    def roll(self, d0: int, d1: int = -1, ok: bool = True) -> int:
        return self._ok(E.apply_roll(self.s, self.r, self.tr, d0, d1), ok)

    def move(self, die: int, col: int = 0, ok: bool = True) -> int:
        return self._ok(E.do_move(self.s, self.r, self.tr, die, col), ok)

    def take(self, ok: bool = True) -> int:
        return self._ok(E.do_take(self.s, self.r, self.tr), ok)

    def fight(self, d0: int, d1: int = -1, ok: bool = True) -> int:
        return self._ok(E.apply_fight(self.s, self.r, self.tr, d0, d1), ok)

    def stop(self, ok: bool = True) -> int:
        return self._ok(E.do_stop(self.s, self.r, self.tr), ok)

    def tile_id(self, token: str, owner: int) -> int:
        for t in range(int(self.r[9])):
            if self.v.owner[t] == owner and S.tile_token(self.r, t) == token:
                return t
        raise KeyError(token)

    def exchange(self, target: int, token: str, ok: bool = True) -> int:
        t = self.tile_id(token, target) if ok else self._any_id(token)
        return self._ok(E.do_exchange(self.s, self.r, self.tr, target, t), ok)

    def _any_id(self, token: str) -> int:
        for t in range(int(self.r[9])):
            if S.tile_token(self.r, t) == token:
                return t
        raise KeyError(token)

    def wreck(self, token: str, ok: bool = True) -> int:
        t = self.tile_id(token, -1) if ok else self._any_id(token)
        return self._ok(E.do_wreck(self.s, self.r, self.tr, t), ok)

    def held(self, seat: int) -> list[str]:
        return sorted(
            S.tile_token(self.r, t) for t in range(int(self.r[9])) if self.v.owner[t] == seat
        )

    def at(self, col: int, row: int) -> str:
        t = int(self.v.space[space_of(col, row)])
        return "." if t < 0 else S.tile_token(self.r, t)

    def known(self, col: int, row: int) -> int:
        return int(self.v.known[space_of(col, row)])

    def scores(self) -> list[int]:
        sc = np.zeros(4, dtype=np.int64)
        tb = np.zeros(4, dtype=np.int64)
        E.scores(self.s, self.r, sc, tb)
        return [int(x) for x in sc[: int(self.r[0])]]

    def dive_to(self, col: int, *steps: int):
        """First roll (steps[0], X-free second die 1 kept as a spare) ... simple path: each
        step rolls (d, X) on the first roll is avoided: roll (d, d) and take die 0."""
        for d in steps:
            self.roll(d, d)
            self.move(0, col)


# ------------------------------------------------------------------------------ setup
def test_setup_places_the_mix_by_region():
    """Setup: light tiles on rows 1-5, dark ones on rows 6-10, shuffled; 7 wreck tiles face up
    at the wreck; 7 bonus tiles free; seat 0 (the youngest) starts; the lamp on the boat."""
    r = pack(SecretsRules(), 3)
    s = S.new_state()
    E.setup(s, r, S.TRACE.new(), new_stream(1, 0))
    v = S.view(s)
    assert check_invariants(s, r) == 0
    for c in range(5):
        for row in range(1, 11):
            t = v.space[space_of(c, row)]
            assert (t < 25) == (row <= 5)
    assert sorted(v.space) == list(range(50))
    assert list(v.owner[50:57]) == [-1] * 7 and list(v.bonus) == [-1] * 7
    assert s[S.S_SEAT] == 0 and s[S.S_PHASE] == S.PH_ROLL and s[S.S_POS] == 0
    s2 = S.new_state()
    E.setup(s2, r, S.TRACE.new(), new_stream(1, 1))
    assert not np.array_equal(s, s2)  # another game, another shuffle


def test_tile_mix_is_the_reconstruction():
    """GAME-DATA: light 15 treasures (1,1,2 per type), 4 seagrass, 2 exchange, monsters 2 and
    3, caves seagrass and chest 2; dark treasures 2,3,4, 2 seagrass, 2 exchange, monsters 3, 4,
    4, 4, caves monster 4 and gold 4; wreck: 5 per type, gold 6, chest 7."""
    r = pack(SecretsRules(), 2)
    light = sorted(S.tile_token(r, t) for t in range(25))
    dark = sorted(S.tile_token(r, t) for t in range(25, 50))
    wreck = sorted(S.tile_token(r, t) for t in range(50, 57))
    assert light == sorted(BASE.split()[:25])
    assert dark == sorted(BASE.split()[25:])
    assert wreck == sorted(["WS5", "WA5", "WB5", "WG5", "WG6", "WC5", "WC7"])
    assert SecretsRules().die == (1, 2, 3, 4, 0, 0)


def test_rules_validation_and_variants():
    with pytest.raises(RulesError, match="25 tiles"):
        pack(SecretsRules(light_tiles="shell=1/1"), 3)
    with pytest.raises(RulesError, match="unknown tile kind"):
        pack(SecretsRules(wreck_tiles="dragon=5"), 3)
    with pytest.raises(RulesError, match="2 to 4 players"):
        pack(SecretsRules(), 5)
    with pytest.raises(RulesError, match="number face"):
        pack(SecretsRules(die=(0, 0)), 3)
    r = VARIANTS.items["exact-wreck"][0](VARIANTS.items["must-dive"][0](SecretsRules()))
    assert not r.overshoot_to_wreck and not r.empty_may_stop
    old = VARIANTS.items["unbeatable-monsters"][0](SecretsRules())
    pack(old, 3)
    assert "monster=4/5/5/6,cave-monster=6" in old.dark_tiles
    with pytest.raises(RulesError, match="unbeatable-monsters needs"):
        VARIANTS.items["unbeatable-monsters"][0](
            SecretsRules(dark_tiles=SecretsRules().light_tiles)
        )


# ------------------------------------------------------------------------------ dice
def test_both_x_on_the_first_roll_ends_the_turn():
    """ "If both dice show an X, your turn is unfortunately over." """
    g = Game()
    g.roll(X, X)
    assert g.seat == 1 and g.phase == S.PH_ROLL and g.s[S.S_TURN] == 1


def test_an_x_die_is_set_aside_for_the_rest_of_the_dive():
    """ "If you roll an X, set that die aside. You cannot dive with this die." It stays blocked
    for the dive: the next roll rolls one die, and its X ends the turn."""
    g = Game()
    g.roll(X, 2)
    assert g.s[S.S_BLOCKED] == 1
    assert g.move(0, 0, ok=False) == E.ERR_ILLEGAL  # the X die cannot dive
    g.move(1, 3)
    assert g.s[S.S_POS] == 2 and g.phase == S.PH_LIT and g.at(3, 2) == "G1"
    g.roll(4, 1)  # die 0 is set aside: only die 1 counts
    assert g.s[S.S_BLOCKED] == 1
    assert g.move(0, 3, ok=False) == E.ERR_ILLEGAL
    g.move(1, 3)
    assert g.s[S.S_POS] == 3
    g.roll(-1, X)  # the last free die shows X: the turn is over, nothing taken
    assert g.seat == 1 and g.held(0) == []


def test_choose_die_and_buoy_and_move_the_full_number():
    """ "If both dice show a number, you choose one of the two dice." "Choose from which dive
    buoy ... move the lamp straight down as many spaces as the chosen die shows." "in this
    dive you may only dive at this one buoy"."""
    g = Game()
    g.roll(1, 4)
    g.move(1, 2)  # die showing 4 at buoy 2
    assert g.s[S.S_POS] == 4 and g.at(2, 4) == "g"
    g.roll(2, 3)
    assert g.move(0, 1, ok=False) == E.ERR_ILLEGAL  # another buoy
    g.move(0, 2)
    assert g.s[S.S_POS] == 6
    g.take()
    assert g.held(0) == ["B2"] and g.seat == 1


def test_empty_spaces_count_and_stopping_on_one():
    """ "empty spaces (without a treasure tile) also count." Ruling: over an empty space the
    diver may stop with nothing or dive on (empty_may_stop)."""
    g = Game(board((0, 1, "."), (0, 2, "."), (0, 3, ".")))
    g.roll(3, 3)
    g.move(0, 0)
    assert g.s[S.S_POS] == 3 and g.phase == S.PH_EMPTY
    assert g.take(ok=False) == E.ERR_ILLEGAL
    g.roll(2, 3)
    g.move(0, 0)
    assert g.s[S.S_POS] == 5 and g.at(0, 5) == "E"
    g2 = Game(board((0, 3, ".")))
    g2.roll(3, 1)
    g2.move(0, 0)
    g2.stop()
    assert g2.seat == 1 and g2.held(0) == []
    g3 = Game(board((0, 3, ".")), rules=SecretsRules(empty_may_stop=False))
    g3.roll(3, 1)
    g3.move(0, 0)
    assert g3.stop(ok=False) == E.ERR_ILLEGAL


def test_the_lamp_shows_the_kind_only():
    """ "Once you have lit up the tile, you do not yet know how many treasures lie beneath it":
    the lit space is marked LIT (its kind public), the hidden-value tables keep the tile until
    it is turned over; the players' expected value is the mean of the hidden tiles of that
    kind and region."""
    g = Game()
    assert g.known(1, 3) == S.UNLIT
    g.roll(3, 3)
    g.move(0, 1)
    assert g.known(1, 3) == S.LIT and g.phase == S.PH_LIT
    v = S.view(g.s)
    assert v.hid_n[0, 1] == 3 and v.hid_sum[0, 1] == 4  # amphorae 1, 1, 2 all hidden
    assert v.unlit[0, 1] == 2
    assert P.kind_value(g.s, g.r, 0, 0, 1, 2) == pytest.approx(4 / 3)
    g.roll(X, X)  # dives on and busts: the tile stays, lit
    assert g.known(1, 3) == S.LIT and g.at(1, 3) == "A2"


# ------------------------------------------------------------------------------ the wreck
def test_reaching_the_wreck():
    """ "If you manage to dive all the way down to the wreck, you may choose one of the wreck
    tiles on offer". Ruling: a move past row 10 ends at the wreck (overshoot_to_wreck)."""
    g = Game()
    g.roll(4, 4)
    g.move(0, 0)
    g.roll(4, 4)
    g.move(0, 0)
    assert g.s[S.S_POS] == 8
    g.roll(4, 1)
    g.move(0, 0)
    assert g.s[S.S_POS] == 11 and g.phase == S.PH_WRECK
    assert g.wreck("WC7") == 0
    assert g.held(0) == ["WC7"] and g.seat == 1


def test_exact_wreck_variant():
    g = Game(rules=SecretsRules(overshoot_to_wreck=False))
    for d in (4, 4):
        g.roll(d, d)
        g.move(0, 0)
    g.roll(4, 3)
    assert g.move(0, 0, ok=False) == E.ERR_ILLEGAL  # 8 + 4 passes the wreck
    g.move(1, 0)
    assert g.phase == S.PH_WRECK
    g2 = Game(rules=SecretsRules(overshoot_to_wreck=False))
    for d in (4, 4, 2):
        g2.roll(d, d)
        g2.move(0, 4)
    g2.roll(4, 4)  # row 10: no die can be moved in full, the turn is over
    assert g2.seat == 1


# ------------------------------------------------------------------------------ monsters
def fight_position(pips_token: str = "M3", blocked: bool = False) -> Game:
    """A diver facing a monster at buoy 1 row 5 (light monsters M2, M3)."""
    col = 1 if pips_token == "M2" else 2
    g = Game()
    if blocked:
        g.roll(X, 4)
        g.move(1, col)
        g.roll(-1, 1)
        g.move(1, col)
    else:
        g.roll(4, 4)
        g.move(0, col)
        g.roll(1, 1)
        g.move(0, col)
    assert g.phase == S.PH_FIGHT and g.at(col, 5) == pips_token
    return g


@pytest.mark.parametrize(
    "dice,won",
    [((X, 3), True), ((3, 1), True), ((2, 1), False)],
)
def test_rulebook_fight_three_monsters_two_dice(dice, won):
    """seed 003 example, 3 sea monsters, both dice available: "an X and a 3: fight won",
    "a 3 and a 1: fight won", "a 2 and a 1: fight lost"."""
    g = fight_position("M3")
    g.fight(*dice)
    assert g.seat == 1
    if won:
        assert g.held(0) == ["M3"] and g.at(2, 5) == "."
    else:
        assert g.held(0) == [] and g.at(2, 5) == "M3" and g.known(2, 5) == S.FRONT


@pytest.mark.parametrize("die,won", [(3, True), (4, True), (2, False), (X, False)])
def test_rulebook_fight_one_die_needs_a_3(die, won):
    """ "If you may use only one die: You must roll at least one die with the required number
    of pips (3 in this example)" -- the die set aside does not fight."""
    g = fight_position("M3", blocked=True)
    g.fight(4, die)  # die 0 is set aside: its 4 does not count
    assert (g.held(0) == ["M3"]) == won


def test_monster_must_be_fought_and_stays_for_the_next_diver():
    """ "When a sea monster appears in the light of the lamp, you must turn the tile ... over"
    (no take, no diving on); "If another player later in the game lands on this tile, they
    must also fight the sea monsters."""
    g = fight_position("M2")
    assert g.take(ok=False) == E.ERR_ILLEGAL
    assert g.roll(1, 1, ok=False) == E.ERR_ILLEGAL
    g.fight(1, 1)
    assert g.at(1, 5) == "M2" and g.known(1, 5) == S.FRONT
    g.roll(4, 4)
    g.move(0, 1)
    g.roll(1, 1)
    g.move(0, 1)
    assert g.phase == S.PH_FIGHT
    g.fight(2, X)
    assert g.held(1) == ["M2"]


@pytest.mark.parametrize("nd", [1, 2])
@pytest.mark.parametrize("pips", [1, 2, 3, 4, 5])
def test_fight_probability_exact_and_simulated(pips, nd):
    """P(win) against k monsters: one die (5 - k)/6 for k <= 4 (faces 1-4, X, X), two dice
    1 - (1 - p)^2; checked against 3000 simulated fights through the engine."""
    p1 = max(0, 5 - pips) / 6
    exact = p1 if nd == 1 else 1 - (1 - p1) ** 2
    r = pack(SecretsRules(), 3)
    assert P.p_fight(r, pips, nd) == pytest.approx(exact)
    tok = "M2" if pips <= 2 else "M3"
    g = fight_position(tok, blocked=nd == 1)
    start = g.s.copy()
    t = int(g.s[12])  # S_TILE
    g.r[R_VALUE + t] = pips  # the same tile with k pips
    rng = new_stream(99, pips * 10 + nd)
    wins = 0
    n = 3000
    for _ in range(n):
        g.s[:] = start
        E.do_fight(g.s, g.r, g.tr, rng)
        wins += int(g.v.owner[t] == 0)
    se = max((exact * (1 - exact) / n) ** 0.5, 1e-9)
    assert abs(wins / n - exact) <= 4 * se + 1e-12


# ------------------------------------------------------------------------------ exchange
def exchange_position(**kw) -> Game:
    g = Game(board((4, 4, "E")), held={1: ["C2", "WG6", "M4", "g"]}, **kw)
    g.roll(4, 4)
    g.move(0, 4)
    assert g.phase == S.PH_LIT and g.at(4, 4) == "E"
    return g


def test_exchange_kept_is_worth_2():
    """ "You take the tile and lay it face up in front of you. It is worth 2 points"."""
    g = exchange_position()
    g.take()
    assert g.held(0) == ["E"] and g.scores()[0] == 2


def test_exchange_given_for_a_treasure_or_wreck_tile():
    """ "You give it to any fellow player and may take any treasure or wreck tile of your
    choice from that player. The player who received the exchange tile receives 2 points"."""
    g = exchange_position()
    assert g.exchange(1, "M4", ok=False) == E.ERR_ILLEGAL  # monsters may not be exchanged
    assert g.exchange(1, "g", ok=False) == E.ERR_ILLEGAL  # seagrass is no treasure
    assert g.exchange(0, "C2", ok=False) == E.ERR_ILLEGAL  # not to oneself
    assert g.exchange(2, "C2", ok=False) == E.ERR_ILLEGAL  # seat 2 does not hold it
    g.exchange(1, "WG6")
    assert g.held(0) == ["WG6"] and sorted(g.held(1)) == sorted(["C2", "E", "M4", "g"])
    assert g.scores()[:2] == [6, 2 + 2 + 4] and g.seat == 1


def test_exchange_and_bonus_tiles():
    """Bonus tiles "cannot be taken away from a player" even when an exchange takes the tiles
    that earned them; the thief may earn the bonus with the stolen tile."""
    g2 = Game(board((4, 4, "E")), held={0: ["C1", "C1"], 1: ["C2", "C3", "C4"]}, bonus={"chest": 1})
    g2.roll(4, 4)
    g2.move(0, 4)
    g2.exchange(1, "C4")
    assert S.view(g2.s).bonus[4] == 1  # seat 1 keeps the chest bonus
    g3 = Game(board((4, 4, "E")), held={0: ["C1", "C1"], 1: ["C2"]})
    g3.roll(4, 4)
    g3.move(0, 4)
    g3.exchange(1, "C2")
    assert S.view(g3.s).bonus[4] == 0  # the third chest brings the bonus


# ------------------------------------------------------------------------------ caves
def cave_position(col: int, row: int, rules=None) -> Game:
    g = Game(rules=rules)
    if row == 5:
        g.roll(4, 4)
        g.move(0, col)
        g.roll(1, 1)
        g.move(0, col)
    else:  # row 10
        for d in (4, 4, 2):
            g.roll(d, d)
            g.move(0, col)
    assert g.phase == S.PH_LIT
    return g


def test_cave_front_is_hidden_until_taken():
    """ "If you discover a cave, you do not know what is hidden inside": the lamp shows a cave;
    taken, it is turned over: here a chest worth 2, or seagrass."""
    g = cave_position(4, 5)
    assert g.at(4, 5) == "VC2"
    g.take()
    assert g.held(0) == ["VC2"] and g.scores()[0] == 2
    assert S.view(g.s).held[0, 4] == 1  # counts as a chest
    g2 = cave_position(3, 5)
    g2.take()
    assert S.view(g2.s).held[0, 6] == 1 and g2.scores()[0] == 0  # seagrass


def test_cave_monster_must_be_fought():
    """ "... or perhaps sea monsters": ruling cave_monster_fights -- the monster in a taken cave
    is fought like any other; lost, the cave stays with its front known."""
    g = cave_position(3, 10)
    assert g.at(3, 10) == "VM4"
    g.take()
    assert g.phase == S.PH_FIGHT
    g.fight(3, 2)  # 4 monsters need a 4
    assert g.at(3, 10) == "VM4" and g.known(3, 10) == S.FRONT and g.held(0) == []
    g2 = cave_position(3, 10, rules=SecretsRules(cave_monster_fights=False))
    g2.take()
    assert g2.held(0) == ["VM4"] and g2.scores()[0] == 4


# ------------------------------------------------------------------------------ bonus tiles
def test_seagrass_bonus_to_the_first_with_three():
    """ "Only the player who first finds seagrass three times receives the seagrass bonus
    tile"; seagrass itself is worth nothing."""
    g = Game(held={0: ["g", "g"], 1: ["g", "g"]})
    g.roll(4, 4)
    g.move(0, 0)
    g.take()
    assert g.held(0) == ["g", "g", "g"]
    assert S.view(g.s).bonus[6] == 0 and g.scores()[0] == 5
    g.roll(4, 4)
    g.move(0, 1)
    g.take()
    assert S.view(g.s).bonus[6] == 0 and g.scores()[1] == 0  # already taken


@pytest.mark.parametrize("wreck_counts", [True, False])
def test_treasure_bonus_at_the_threshold(wreck_counts):
    """The 3rd tile of a type brings that type's bonus (reconstruction: 3 of a type); wreck
    tiles count for their type unless wreck_counts_for_bonus is off (ruling)."""
    rules = SecretsRules(wreck_counts_for_bonus=wreck_counts)
    g = Game(held={0: ["WS5", "S1"]}, rules=rules)
    g.roll(3, 3)
    g.move(0, 0)
    g.take()
    assert (S.view(g.s).bonus[0] == 0) == wreck_counts


def test_monster_bonus_after_two_fights_won():
    g = Game(held={0: ["M4"]})
    g.roll(4, 4)
    g.move(0, 1)
    g.roll(1, 1)
    g.move(0, 1)
    g.fight(2, X)
    assert S.view(g.s).bonus[5] == 0 and g.scores()[0] == 4 + 2 + 5


# ------------------------------------------------------------------------------ the end
EMPTY_LIGHT_BUT_ONE = "\n".join(
    [". . . . .", ". . . . .", "S1 . . . .", ". . . . .", ". . . . ."]
    + BASE.strip().splitlines()[5:]
)


def test_end_when_the_last_light_tile_is_taken():
    """ "The game ends immediately when the last tile of one tile type ... has been taken":
    mid-round, no further turns."""
    g = Game(EMPTY_LIGHT_BUT_ONE, seat=1)
    g.roll(3, 3)
    g.move(0, 0)
    g.take()
    assert g.s[S.S_GAME_OVER] == 1 and g.s[S.S_END_REASON] == S.END_LIGHT and g.s[S.S_SEAT] == 1


def test_end_when_the_last_dark_tile_is_taken():
    g = last_dark_tile("G4")
    g.take()
    assert g.s[S.S_END_REASON] == S.END_DARK and g.s[S.S_GAME_OVER] == 1


def monster_pips(rules: SecretsRules) -> list[int]:
    r = pack(rules, 3)
    return sorted(int(r[R_VALUE + t]) for t in S.monster_fronts(r))


def test_every_monster_can_be_beaten_so_the_dark_tiles_can_run_out():
    """GAME-DATA: "Monsters have at most 4 pips: a fight is won with a die showing at least
    the pips, and the dice show 1-4". So every dark tile can be taken, and the rulebook's end
    by the last dark blue tile can happen: here the last one is a 4-pip cave monster, beaten.
    The withdrawn mix (`unbeatable-monsters`: 4, 5, 5, 6 and a 6-pip cave monster) keeps
    tiles no roll can win."""
    assert monster_pips(SecretsRules()) == [2, 3, 3, 4, 4, 4, 4]
    assert max(monster_pips(SecretsRules())) <= max(SecretsRules().die)
    unbeatable = VARIANTS.items["unbeatable-monsters"][0](SecretsRules())
    assert monster_pips(unbeatable) == [2, 3, 4, 5, 5, 6, 6]
    g = last_dark_tile("VM4")
    g.take()
    assert g.phase == S.PH_FIGHT
    g.fight(1, 4)
    assert g.held(0) == ["VM4"]
    assert g.s[S.S_END_REASON] == S.END_DARK and g.s[S.S_GAME_OVER] == 1
    g = last_dark_tile("M5", rules=unbeatable)
    g.fight(4, 4)  # lost: the tile stays, the game goes on
    assert g.at(0, 10) == "M5" and g.s[S.S_GAME_OVER] == 0


def test_end_when_the_last_wreck_tile_is_taken():
    g = Game(wreck=["WC7"], held={2: ["WS5", "WA5", "WB5", "WG5", "WG6", "WC5"]})
    for d in (4, 4, 4):
        g.roll(d, d)
        g.move(0, 0)
    g.wreck("WC7")
    assert g.s[S.S_END_REASON] == S.END_WRECK


def test_end_when_the_last_bonus_tile_is_taken():
    bonus = {name: 1 for name in BONUS_NAMES if name != "shell"}
    g = Game(held={0: ["S2", "S3"]}, bonus=bonus)
    g.roll(3, 3)
    g.move(0, 0)
    g.take()
    assert g.s[S.S_END_REASON] == S.END_BONUS and g.s[S.S_GAME_OVER] == 1


def test_scoring():
    """ "Each treasure tile and each wreck tile is worth as many points as the treasures, gold
    coins or sea monsters it shows. Seagrass is unfortunately worth no points. Each bonus tile
    is worth 5 points." Exchange tiles 2."""
    g = Game(
        held={0: ["S1", "WC7", "g", "E", "M4"], 1: ["VC2"]},
        bonus={"seagrass": 0, "gold": 1},
    )
    assert g.scores() == [1 + 7 + 0 + 2 + 4 + 5, 2 + 5, 0]


def test_illegal_actions_change_nothing():
    g = Game()
    before = g.s.copy()
    assert g.take(ok=False) == E.ERR_ILLEGAL
    assert g.move(0, 0, ok=False) == E.ERR_ILLEGAL
    assert g.fight(4, 4, ok=False) == E.ERR_ILLEGAL
    assert g.stop(ok=False) == E.ERR_ILLEGAL
    assert g.wreck("WC7", ok=False) == E.ERR_ILLEGAL
    assert np.array_equal(before, g.s)
    g.roll(2, 3)
    before = g.s.copy()
    assert g.move(0, 5, ok=False) == E.ERR_ILLEGAL  # no buoy 5
    assert g.roll(1, 1, ok=False) == E.ERR_ILLEGAL  # choose first
    assert np.array_equal(before, g.s)
    assert g.s[S.S_PHASE] == S.PH_CHOOSE


# ------------------------------------------------------------------------------ players
def test_ev_player_values():
    """The risk-neutral value of diving on, checked by hand on a column with only the wreck
    below: from row 10 with one die (faces 1-4, X, X) the wreck is reached with 4/6, and the
    best wreck tile is a 7-point chest: 4/6 * 7."""
    rows = BASE.strip().splitlines()
    rows = [r if i < 9 else ". M4 M4 VM4 VG4" for i, r in enumerate(rows)]
    g = Game("\n".join(rows))
    xf = np.zeros(P.XF_SIZE)
    P.fill_kind_values(g.s, g.r, 0, xf)
    P.column_values(g.s, g.r, 0, 0, xf)
    assert xf[P.XF_DIVE_VALUE + 10 * 2 + 0] == pytest.approx(4 / 6 * 7)
    # with two dice: no X at all (16/36) or one X (16/36) reaches the wreck
    assert xf[P.XF_DIVE_VALUE + 10 * 2 + 1] == pytest.approx(32 / 36 * 7)


def test_dataclass_fields_have_docs():
    from simcore.base.rulesbase import field_docs

    docs = field_docs(SecretsRules)
    assert set(docs) == {f.name for f in dataclasses.fields(SecretsRules)}


def test_phases_named():
    assert (S.PH_ROLL, S.PH_CHOOSE, S.PH_LIT, S.PH_EMPTY, S.PH_FIGHT, S.PH_WRECK) == tuple(range(6))
