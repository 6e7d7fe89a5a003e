"""Sunken Treasure rules as scenario tests: each rule sentence of seed 004, and its examples.

A scenario starts from the real setup (three shuffled decks, every player a diver), then
arranges cards by moving them out of the decks (so every card stays conserved), stacks the top
of a deck, and plays the engine's do_* actions. Seats: A = 0, B = 1, C = 2, D = 3.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from simcore.frame.rng import new_stream
from simcore.games.sunken_treasure import engine as E
from simcore.games.sunken_treasure import engine_dive as ED
from simcore.games.sunken_treasure import engine_invariants as EI
from simcore.games.sunken_treasure import engine_locks as EL
from simcore.games.sunken_treasure import engine_options as EO
from simcore.games.sunken_treasure import engine_surface as ES
from simcore.games.sunken_treasure import state as S
from simcore.games.sunken_treasure.board import (
    CRACKED,
    FAIL,
    JUNK,
    LOCKED_BOX,
    LOCKED_CHEST,
    LOCKED_SAFE,
    NO_EFFECT,
    OPEN,
    SAFETY,
    SHARK,
    TRAPPED,
    UNLOCKED_BOX,
    UNLOCKED_CHEST,
)
from simcore.games.sunken_treasure.rules import SunkenTreasureRules, pack

VALUE_KIND = {1000: 0, 2000: 1, 3000: 2, 5000: 3, 10000: 4}
ILLEGAL = E.ERR_ILLEGAL


class Game:
    """A position under test: the real setup, then cards arranged by hand."""

    def __init__(self, players: int = 3, rules: SunkenTreasureRules | None = None, seed=7):
        self.rules = rules or SunkenTreasureRules()
        self.players = players
        self.r = pack(self.rules, players)
        self.s = S.new_state()
        self.tr = S.TRACE.new()
        self.rng = new_stream(seed, 0)
        E.setup(self.s, self.r, self.tr, self.rng)
        self.v = S.view(self.s)

    # -- arranging
    def played(self, *seats: int) -> Game:
        """Mark seats as past their first play (default: all)."""
        for k in seats or range(self.players):
            self.v.seats[k].played[0] = 1
        return self

    def _take(self, off_n: str, kind: int) -> None:
        off, n_idx = {"item": (S.O_ITEM_DECK, S.S_ITEM_N), "treasure": (S.O_TRE_DECK, S.S_TRE_N)}[
            off_n
        ]
        n = int(self.s[n_idx])
        cards = [int(c) for c in self.s[off : off + n]]
        cards.remove(kind)
        self.s[off : off + n - 1] = cards
        self.s[n_idx] = n - 1

    def give(self, seat: int, kind: int, n: int = 1) -> Game:
        """Move item cards of `kind` from the item deck into the seat's hand."""
        for _ in range(n):
            self._take("item", kind)
            self.v.seats[seat].hand[kind] += 1
        return self

    def sharks(self, n: int) -> Game:
        for _ in range(n):
            self._take("item", SHARK)
            self.s[S.S_SHARKS] += 1
        return self

    def treasure(self, seat: int, *values: int, banked: bool = False) -> Game:
        """Move treasure cards of these values from the deck to the seat (face up/banked)."""
        for val in values:
            self._take("treasure", VALUE_KIND[val])
            st = self.v.seats[seat]
            (st.banked if banked else st.carried)[VALUE_KIND[val]] += 1
        E.recount(self.s, self.r, seat)  # the kept totals of the seat
        return self

    def up(self, seat: int) -> Game:
        self.v.seats[seat].up[0] = 1
        return self

    def turn(self, seat: int) -> Game:
        self.s[S.S_SEAT] = seat
        return self

    def deplete(self, deck: str, keep: int) -> Game:
        """Move all but the top `keep` cards of a deck onto its discard pile."""
        off, n_idx, disc, dn_idx = {
            "item": (S.O_ITEM_DECK, S.S_ITEM_N, S.O_ITEM_DISC, S.S_ITEM_DN),
            "attempt": (S.O_ATT_DECK, S.S_ATT_N, S.O_ATT_DISC, S.S_ATT_DN),
        }[deck]
        n = int(self.s[n_idx])
        move = n - keep
        d = int(self.s[dn_idx])
        self.s[disc + d : disc + d + move] = self.s[off : off + move]
        self.s[off : off + keep] = self.s[off + move : off + n].copy()
        self.s[n_idx] = keep
        self.s[dn_idx] = d + move
        return self

    def top(self, deck: str, *cards: int) -> Game:
        S.stack_deck(self.s, deck, list(cards))
        return self

    # -- reading
    def seat(self, k: int):
        return self.v.seats[k]

    def carried(self, k: int) -> int:
        return int(E.carried_value(self.s, self.r, k))

    def banked(self, k: int) -> int:
        return int(E.banked_value(self.s, self.r, k))

    def options(self, seat: int) -> set[tuple[str, int]]:
        x = np.zeros(64, dtype=np.int64)
        n = EO.list_options(self.s, self.r, seat, x, 0, True)
        return {(EO.OPTION_NAMES[c // 8], int(c % 8)) for c in x[:n]}

    def ok(self) -> None:
        assert EI.check_invariants(self.s, self.r) == 0

    # -- acting (assert legal unless told)
    def _do(self, err: int, expect_ok: bool) -> int:
        if expect_ok:
            assert err == 0
            self.ok()
        return err

    def search(self, seat, ok=True):
        return self._do(ED.do_search(self.s, self.r, self.tr, self.rng, seat), ok)

    def claim(self, seat, kind, ok=True):
        return self._do(EL.do_claim(self.s, self.r, self.tr, self.rng, seat, kind), ok)

    def attempt(self, seat, kind, ok=True):
        return self._do(EL.do_attempt(self.s, self.r, self.tr, self.rng, seat, kind), ok)

    def safety(self, seat, ok=True):
        return self._do(ED.do_safety(self.s, self.r, self.tr, seat), ok)

    def _turn(self, err: int, expect_ok: bool) -> int:
        """An act_* action's result, the turn ended after it as the engine's options do."""
        return self._do(E.turn_done(self.s, self.r, self.tr, err), expect_ok)

    def surface(self, seat, ok=True):
        return self._turn(ES.act_surface(self.s, self.r, self.tr, seat), ok)

    def dive(self, seat, ok=True):
        return self._turn(ES.act_dive(self.s, self.r, self.tr, seat), ok)

    def bank(self, seat, ok=True):
        return self._turn(ES.act_bank(self.s, self.r, self.tr, seat), ok)

    def steal(self, seat, target, ok=True):
        return self._turn(ES.act_steal(self.s, self.r, self.tr, self.rng, seat, target), ok)

    def abandon(self, seat, ok=True):
        return self._do(EL.do_abandon(self.s, self.r, self.tr, seat), ok)


def discards(g: Game, which: str) -> list[int]:
    off, n_idx = {
        "item": (S.O_ITEM_DISC, S.S_ITEM_DN),
        "attempt": (S.O_ATT_DISC, S.S_ATT_DN),
        "treasure": (S.O_TRE_DISC, S.S_TRE_DN),
    }[which]
    return sorted(int(c) for c in g.s[off : off + int(g.s[n_idx])])


# ------------------------------------------------------------------------------ preparation
@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_preparation(players):
    """'Separate and shuffle each of the card decks ... All players turn their Diver Card to
    the Diver Down side.' GAME-DATA: 41 item, 21 attempt, 20 treasure cards ($55,000)."""
    g = Game(players)
    assert (g.s[S.S_ITEM_N], g.s[S.S_ATT_N], g.s[S.S_TRE_N]) == (41, 21, 20)
    assert g.s[S.S_ITEM_DN] == g.s[S.S_ATT_DN] == g.s[S.S_TRE_DN] == 0
    assert g.s[S.S_SHARKS] == 0
    tre = [int(c) for c in g.v.treasure_deck[:20]]
    assert sum(g.rules.treasure_values[k] for k in tre) == 55_000
    for k in range(players):
        assert g.seat(k).up[0] == 0 and g.seat(k).hand.sum() == 0
    g.ok()
    # shuffled: two seeds give different orders
    other = Game(players, seed=8)
    assert not np.array_equal(g.v.item_deck[:41], other.v.item_deck[:41])


# ------------------------------------------------------------------------------ play
def test_first_play_is_a_search():
    """'On your first play, search for an Item': nothing else is legal then."""
    g = Game(3).give(0, UNLOCKED_BOX).turn(0)
    assert g.options(0) == {("search", 0)}
    assert g.claim(0, UNLOCKED_BOX, ok=False) == ILLEGAL
    assert g.surface(0, ok=False) == ILLEGAL
    g.played(0)
    assert g.options(0) == {("search", 0), ("claim", UNLOCKED_BOX), ("surface", 0)}


def test_each_turn_one_action_and_no_pass():
    """'On each subsequent turn, you may: take an Item Card, or attempt to open a treasure
    ..., or play a Safety Card, or Surface/Dive. You may not pass.' Every action ends the turn;
    a seat not on turn can do nothing."""
    g = Game(3).played().turn(1)
    assert g.search(0, ok=False) == ILLEGAL
    g.top("item", JUNK)
    g.search(1)
    assert g.s[S.S_SEAT] == 2 and g.s[S.S_TURN] == 1
    assert g.options(2)  # never empty: a diver can always surface, a surfaced player dive


# ------------------------------------------------------------------------------ searching
@pytest.mark.parametrize(
    "card,kept",
    [(UNLOCKED_BOX, True), (LOCKED_SAFE, True), (SAFETY, True), (JUNK, False), (SHARK, False)],
)
def test_searching_for_items(card, kept):
    """'If it is a Treasure card or Safety card, keep it. If it is Junk, discard it. If it is
    a Shark card, place it on the board.'"""
    g = Game(2).played().turn(0).top("item", card)
    g.search(0)
    assert g.seat(0).hand[card] == (1 if kept else 0)
    assert discards(g, "item") == ([JUNK] if card == JUNK else [])
    assert g.s[S.S_SHARKS] == (1 if card == SHARK else 0)


@pytest.mark.parametrize("mode", ["when-depleted", "when-needed"])
def test_item_deck_reshuffles_its_discards(mode):
    """An empty Item deck takes its discard pile, shuffled (as the rule for Attempt cards):
    at once when its last card is drawn (default), or at the next draw (`reshuffle`
    "when-needed")."""
    g = Game(2, rules=SunkenTreasureRules(reshuffle=mode)).played().turn(0)
    g.top("item", JUNK).deplete("item", 1)
    g.ok()
    g.search(0)  # the last card, a Junk: discarded after the pile ran out
    if mode == "when-depleted":
        assert g.s[S.S_RESHUFFLES] == 1 and g.s[S.S_ITEM_N] == 40
        assert discards(g, "item") == [JUNK]  # not in the new pile
    else:
        assert g.s[S.S_RESHUFFLES] == 0 and g.s[S.S_ITEM_N] == 0 and g.s[S.S_ITEM_DN] == 41
    g.search(1)  # when-needed: reshuffle all 41, then draw
    assert g.s[S.S_RESHUFFLES] == 1 and g.s[S.S_ITEM_N] == (39 if mode == "when-depleted" else 40)


# ------------------------------------------------------------------------------ claiming
@pytest.mark.parametrize("kind,cards", [(UNLOCKED_BOX, 1), (UNLOCKED_CHEST, 2)])
def test_claim_unlocked(kind, cards):
    """'If the item is unlocked (Unlocked Box or Unlocked Chest), you can claim the treasure by
    taking and keeping one or more Treasure Cards.' Box = 1, Chest = 2; kept face up."""
    g = Game(2).played().give(0, kind).turn(0).top("treasure", 4, 0)
    g.claim(0, kind)
    assert int(g.seat(0).carried.sum()) == cards
    assert g.carried(0) == (10000 if cards == 1 else 11000)
    assert g.banked(0) == 0
    assert discards(g, "item") == [kind]


def test_claim_needs_the_container():
    g = Game(2).played().turn(0)
    assert g.claim(0, UNLOCKED_CHEST, ok=False) == ILLEGAL
    g.give(0, LOCKED_BOX)
    assert g.claim(0, LOCKED_BOX, ok=False) == ILLEGAL  # locked: attempt first


# ------------------------------------------------------------------------------ locks
@pytest.mark.parametrize("kind,cards", [(LOCKED_BOX, 1), (LOCKED_CHEST, 2), (LOCKED_SAFE, 3)])
def test_open_pays_the_bags_in_the_same_turn(kind, cards):
    """'Open: The lock is opened. You claim the treasure ... in the same turn.' Box = 1,
    Chest = 2, Safe = 3 Treasure Cards. 'After an attempt is complete, all the Attempt Cards
    used are discarded.'"""
    g = Game(2).played().give(0, kind).turn(0).top("attempt", OPEN)
    g.attempt(0, kind)
    assert int(g.seat(0).carried.sum()) == cards
    assert g.seat(0).lock[0] == -1 and g.seat(0).stack.sum() == 0
    assert discards(g, "attempt") == [OPEN] and discards(g, "item") == [kind]
    assert g.s[S.S_SEAT] == 1


def test_one_attempt_card_per_turn_and_one_lock_at_a_time():
    """'take one card per turn ... and place it over the item'; 'You can only attempt to
    unlock one box at a time.'"""
    g = Game(2).played().give(0, LOCKED_BOX).give(0, LOCKED_SAFE).turn(0)
    g.top("attempt", NO_EFFECT)
    g.attempt(0, LOCKED_SAFE)
    assert g.seat(0).lock[0] == LOCKED_SAFE and g.seat(0).stack[NO_EFFECT] == 1
    assert g.s[S.S_SEAT] == 1  # the attempt was the turn
    g.turn(0)
    assert g.attempt(0, LOCKED_BOX, ok=False) == ILLEGAL
    assert ("attempt", LOCKED_BOX) not in g.options(0)
    assert ("attempt", LOCKED_SAFE) in g.options(0)


def test_no_effect_try_again():
    """'No Effect: Nothing happens. You can try again on the next turn.'"""
    g = Game(2).played().give(0, LOCKED_CHEST).turn(0).top("attempt", NO_EFFECT, NO_EFFECT, OPEN)
    g.attempt(0, LOCKED_CHEST)
    g.turn(0).attempt(0, LOCKED_CHEST)
    assert g.seat(0).stack[NO_EFFECT] == 2 and g.seat(0).carried.sum() == 0
    g.turn(0).attempt(0, LOCKED_CHEST)
    assert g.seat(0).carried.sum() == 2
    assert discards(g, "attempt") == [OPEN, NO_EFFECT, NO_EFFECT]


def test_cracked_then_second_cracked_opens():
    """'Cracked: ... You may attempt again on another turn. If you get a second Cracked Card,
    the lock is open ... Keep the Cracked Card until all attempts are complete.'"""
    g = Game(2).played().give(0, LOCKED_SAFE).turn(0).top("attempt", CRACKED, CRACKED)
    g.attempt(0, LOCKED_SAFE)
    assert g.seat(0).stack[CRACKED] == 1 and g.seat(0).lock[0] == LOCKED_SAFE
    assert g.seat(0).carried.sum() == 0
    g.turn(0).attempt(0, LOCKED_SAFE)
    assert g.seat(0).carried.sum() == 3  # ruling second_cracked_full: the safe's 3 bags
    assert discards(g, "attempt") == [CRACKED, CRACKED]


def test_second_cracked_literal_pays_one_card():
    """Ruling `second_cracked_full=False` ('literal-cracked'): 'you can take a Treasure Card'."""
    rules = dataclasses.replace(SunkenTreasureRules(), second_cracked_full=False)
    g = Game(2, rules).played().give(0, LOCKED_SAFE).turn(0).top("attempt", CRACKED, CRACKED)
    g.attempt(0, LOCKED_SAFE)
    g.turn(0).attempt(0, LOCKED_SAFE)
    assert g.seat(0).carried.sum() == 1


def test_fail_discards_the_item():
    """'Fail: The lock cannot be opened. You must immediately discard the Item Card.'"""
    g = Game(2).played().give(0, LOCKED_CHEST).turn(0).top("attempt", CRACKED, FAIL)
    g.attempt(0, LOCKED_CHEST)
    g.turn(0).attempt(0, LOCKED_CHEST)
    assert g.seat(0).lock[0] == -1 and g.seat(0).hand[LOCKED_CHEST] == 0
    assert discards(g, "item") == [LOCKED_CHEST]
    assert discards(g, "attempt") == [CRACKED, FAIL]
    assert g.seat(0).carried.sum() == 0 and g.seat(0).up[0] == 0


def test_trapped_once_discard_or_try_again():
    """'Trapped: ... You can discard the treasure or make another attempt on another turn ...
    The Trapped card is kept until all attempts are complete.' Giving up is free (ruling):
    the turn goes on."""
    g = Game(2).played().give(0, LOCKED_BOX).give(0, LOCKED_CHEST).turn(0)
    g.top("attempt", NO_EFFECT, TRAPPED)
    g.attempt(0, LOCKED_BOX)
    g.turn(0)
    assert g.abandon(0, ok=False) == ILLEGAL  # no Trapped card yet (abandon_needs_trap)
    g.attempt(0, LOCKED_BOX)
    assert g.seat(0).stack[TRAPPED] == 1 and g.seat(0).up[0] == 0
    g.turn(0)
    assert ("abandon", 0) in g.options(0)
    g.abandon(0)
    assert g.s[S.S_SEAT] == 0  # still A's turn
    assert g.seat(0).lock[0] == -1 and discards(g, "item") == [LOCKED_BOX]
    assert discards(g, "attempt") == [NO_EFFECT, TRAPPED]
    g.top("attempt", OPEN)
    g.attempt(0, LOCKED_CHEST)  # another box, in the same turn
    assert g.seat(0).carried.sum() == 2


def test_free_abandon_variant():
    rules = dataclasses.replace(SunkenTreasureRules(), abandon_needs_trap=False)
    g = Game(2, rules).played().give(0, LOCKED_BOX).turn(0).top("attempt", NO_EFFECT)
    g.attempt(0, LOCKED_BOX)
    g.turn(0).abandon(0)
    assert g.seat(0).lock[0] == -1


def test_second_trapped_surfaces_as_a_shark_attack():
    """'if a second Trapped Card is revealed you must surface under the same rules as a Shark
    Attack': up, all cards discarded except banked treasure."""
    g = Game(3).played().give(0, LOCKED_SAFE).give(0, UNLOCKED_BOX).give(0, SAFETY)
    g.treasure(0, 5000, 1000).treasure(0, 2000, banked=True).sharks(1)
    g.turn(0).top("attempt", TRAPPED, TRAPPED)
    g.attempt(0, LOCKED_SAFE)
    g.turn(0).attempt(0, LOCKED_SAFE)
    st = g.seat(0)
    assert st.up[0] == 1 and st.hand.sum() == 0 and st.lock[0] == -1
    assert g.carried(0) == 0 and g.banked(0) == 2000
    assert discards(g, "treasure") == [0, 3]
    assert discards(g, "attempt") == [TRAPPED, TRAPPED]
    assert g.s[S.S_SHARKS] == 1  # others still below: the shark stays
    assert g.seat(0).counters[3] == 1  # C_TRAP_SURFACED


# ------------------------------------------------------------------------------ sharks
def test_third_shark_forces_every_diver_up():
    """'If a third Shark Card is placed on the board, divers in the water are under attack
    and must immediately surface and discard all their cards except any banked treasure.'
    A player already up keeps its face-up treasure; every player is then up, so the sharks
    are discarded."""
    g = Game(3).played().sharks(2).up(2).treasure(2, 3000)
    g.give(0, LOCKED_CHEST).treasure(0, 5000).treasure(0, 1000, banked=True)
    g.give(1, SAFETY).treasure(1, 2000)
    g.turn(0).top("attempt", NO_EFFECT)
    g.attempt(0, LOCKED_CHEST)  # A's chest is under attempt when the shark comes
    g.top("item", SHARK)
    g.search(1)
    for k in (0, 1, 2):
        assert g.seat(k).up[0] == 1
    assert g.carried(0) == 0 and g.banked(0) == 1000 and g.seat(0).lock[0] == -1
    assert g.carried(1) == 0 and g.seat(1).hand.sum() == 0
    assert g.carried(2) == 3000  # on the boat: not under attack
    assert g.s[S.S_SHARKS] == 0
    assert discards(g, "item").count(SHARK) == 3
    assert discards(g, "attempt") == [NO_EFFECT]


def test_two_sharks_no_attack():
    g = Game(2).played().sharks(1).give(0, UNLOCKED_BOX).turn(0).top("item", SHARK)
    g.search(0)
    assert g.s[S.S_SHARKS] == 2 and g.seat(0).up[0] == 0 and g.seat(0).hand[UNLOCKED_BOX] == 1


def test_all_players_up_clears_the_sharks():
    """'If all players surface, all Sharks currently on the board are discarded.' / 'If all
    players surface before the third card, the Shark Cards are discarded.'"""
    g = Game(3).played().sharks(2).up(1).up(2).turn(0)
    g.surface(0)
    assert g.s[S.S_SHARKS] == 0 and discards(g, "item") == [SHARK, SHARK]


def test_sharks_stay_while_someone_is_below():
    g = Game(3).played().sharks(2).up(1).turn(0)
    g.surface(0)
    assert g.s[S.S_SHARKS] == 2


def test_solo_surfacing_clears_sharks():
    g = Game(1).played().sharks(2).turn(0)
    g.surface(0)
    assert g.s[S.S_SHARKS] == 0


def test_safety_card_removes_a_shark():
    """'On any turn you can play one Safety Card from your hand and eliminate one Shark Card.
    Both cards are discarded. Only one Safety Card can be played per turn and completes the
    turn.'"""
    g = Game(2).played().give(0, SAFETY, 2).turn(0)
    assert g.safety(0, ok=False) == ILLEGAL  # no shark to eliminate
    g.sharks(2)
    g.safety(0)
    assert g.s[S.S_SHARKS] == 1 and g.seat(0).hand[SAFETY] == 1
    assert discards(g, "item") == [SHARK, SAFETY]
    assert g.s[S.S_SEAT] == 1  # completes the turn: the second one waits


# ------------------------------------------------------------------------------ surfacing
def test_surfacing_discards_items_and_attempts_keeps_treasure():
    """'You cannot, however, take any chests or boxes with you and must discard all Item
    Cards and Attempt Cards after surfacing. Once the card is flipped, your turn is over.'"""
    g = Game(2).played().give(0, LOCKED_BOX).give(0, UNLOCKED_CHEST).give(0, SAFETY)
    g.turn(0).top("attempt", CRACKED)
    g.attempt(0, LOCKED_BOX)
    g.treasure(0, 5000)
    g.turn(0).surface(0)
    st = g.seat(0)
    assert st.up[0] == 1 and st.hand.sum() == 0 and st.lock[0] == -1 and st.stack.sum() == 0
    assert g.carried(0) == 5000 and g.banked(0) == 0
    assert discards(g, "item") == [UNLOCKED_CHEST, LOCKED_BOX, SAFETY]
    assert discards(g, "attempt") == [CRACKED]
    assert g.s[S.S_SEAT] == 1


def test_keep_safety_variant():
    rules = dataclasses.replace(SunkenTreasureRules(), keep_safety_on_surface=True)
    g = Game(2, rules).played().give(0, SAFETY).give(0, UNLOCKED_BOX).turn(0)
    g.surface(0)
    assert g.seat(0).hand[SAFETY] == 1 and g.seat(0).hand[UNLOCKED_BOX] == 0


def test_surfaced_choices():
    """'While surfaced, you can only dive again, bank treasure, or attempt to steal.'"""
    g = Game(3).played().up(0).sharks(1).turn(0)
    assert g.options(0) == {("dive", 0)}
    g.treasure(0, 1000)
    g.treasure(1, 2000, banked=True)
    assert g.options(0) == {("dive", 0), ("bank", 0), ("steal", 1)}
    g.dive(0)
    assert g.seat(0).up[0] == 0 and g.carried(0) == 1000  # ruling: carried back down


# ------------------------------------------------------------------------------ banking
def test_banking_completes_a_turn_and_is_safe_from_sharks():
    """'bank any captured treasure by turning your Treasure Cards face down. Those cards
    cannot be lost to Shark Attacks. Banking Treasure completes a turn.'"""
    g = Game(2).played().up(0).treasure(0, 5000, 3000).turn(0)
    g.bank(0)
    assert g.banked(0) == 8000 and g.carried(0) == 0 and g.s[S.S_SEAT] == 1
    g.turn(0).dive(0)
    g.sharks(2).turn(1).top("item", SHARK)
    g.search(1)
    assert g.banked(0) == 8000
    assert g.bank(0, ok=False) == ILLEGAL  # nothing to bank


def test_bank_on_surface_variant():
    """Ruling `bank_on_surface` ('Any Treasure that is brought to the surface is considered
    banked')."""
    rules = dataclasses.replace(SunkenTreasureRules(), bank_on_surface=True)
    g = Game(2, rules).played().treasure(0, 5000).turn(0)
    g.surface(0)
    assert g.banked(0) == 5000 and g.carried(0) == 0


# ------------------------------------------------------------------------------ stealing
def test_steal_open_takes_a_random_banked_card():
    """'If you are on the surface and another player is still below, you can attempt to break
    into their safe ... If successful, you can randomly collect one of their face down banked
    treasure cards.'"""
    g = Game(3).played().up(0).treasure(1, 10000, banked=True).turn(0).top("attempt", OPEN)
    g.steal(0, 1)
    assert g.banked(0) == 10000 and g.banked(1) == 0
    assert discards(g, "attempt") == [OPEN]
    assert g.seat(0).steal[0] == -1 and g.seat(0).steal_used[0] == 1


def test_steal_is_random_over_the_cards():
    got = set()
    for seed in range(40):
        g = Game(3, seed=seed).played().up(0).treasure(1, 1000, 10000, banked=True)
        g.turn(0).top("attempt", OPEN)
        g.steal(0, 1)
        got.add(g.banked(0))
    assert got == {1000, 10000}


def test_steal_only_from_a_diver_with_banked_treasure():
    g = Game(3).played().up(0).up(1).treasure(1, 5000, banked=True).treasure(2, 2000)
    g.turn(0)
    assert g.steal(0, 1, ok=False) == ILLEGAL  # B is on the surface
    assert g.steal(0, 2, ok=False) == ILLEGAL  # C has nothing banked (carried is not banked)
    assert g.steal(0, 0, ok=False) == ILLEGAL
    g2 = Game(3).played().treasure(1, 5000, banked=True).turn(0)
    assert g2.steal(0, 1, ok=False) == ILLEGAL  # a diver cannot steal


def test_steal_takes_turns_with_cracked_and_once_per_surface():
    """'using the same process as Breaking A Lock'; 'Stealing may only be attempted once per
    surface.'"""
    g = Game(3).played().up(0).treasure(1, 2000, banked=True).treasure(2, 3000, banked=True)
    g.turn(0).top("attempt", CRACKED, NO_EFFECT, CRACKED)
    g.steal(0, 1)
    assert g.seat(0).steal[0] == 1
    g.turn(0)
    assert ("steal", 2) not in g.options(0)  # only the theft under way
    g.steal(0, 1)
    g.turn(0).steal(0, 1)
    assert g.banked(0) == 2000
    g.turn(0)
    assert g.steal(0, 2, ok=False) == ILLEGAL  # once per surface
    g.dive(0)
    g.turn(0).surface(0)
    g.turn(0).top("attempt", OPEN)
    g.steal(0, 2)  # a new surfacing, a new theft
    assert g.banked(0) == 5000


def test_steal_fail_ends_the_theft():
    g = Game(2).played().up(0).treasure(1, 2000, banked=True).turn(0).top("attempt", FAIL)
    g.steal(0, 1)
    assert g.seat(0).steal[0] == -1 and g.banked(0) == 0
    g.turn(0)
    assert g.steal(0, 1, ok=False) == ILLEGAL


def test_theft_abandoned_when_the_target_surfaces():
    """'If the diver under attack surfaces before the attacker can successfully steal any
    treasure, the attempt must be abandoned and all Attempt Cards used discarded.'"""
    g = Game(3).played().up(0).treasure(1, 5000, banked=True).turn(0)
    g.top("attempt", CRACKED, NO_EFFECT)
    g.steal(0, 1)
    g.turn(0).steal(0, 1)
    g.turn(1).surface(1)
    assert g.seat(0).steal[0] == -1 and g.seat(0).stack.sum() == 0
    assert discards(g, "attempt") == [CRACKED, NO_EFFECT]
    g.turn(1).dive(1)
    g.turn(0)
    assert g.steal(0, 1, ok=False) == ILLEGAL  # the one theft of this surfacing is spent


def test_theft_abandoned_when_a_shark_attack_surfaces_the_target():
    g = Game(3).played().up(0).treasure(1, 5000, banked=True).sharks(2).turn(0)
    g.top("attempt", NO_EFFECT)
    g.steal(0, 1)
    g.top("item", SHARK)
    g.search(1)
    assert g.seat(0).steal[0] == -1 and g.seat(1).up[0] == 1


def test_second_trapped_on_a_theft():
    """Ruling `steal_trap_discards`: 'the same process' - a second Trapped is a Shark Attack's
    loss for the thief (already up): all but banked treasure is discarded."""
    g = Game(2).played().up(0).treasure(0, 3000).treasure(0, 1000, banked=True)
    g.treasure(1, 5000, banked=True).turn(0).top("attempt", TRAPPED, TRAPPED)
    g.steal(0, 1)
    g.turn(0).steal(0, 1)
    assert g.seat(0).steal[0] == -1 and g.carried(0) == 0 and g.banked(0) == 1000
    rules = dataclasses.replace(SunkenTreasureRules(), steal_trap_discards=False)
    g = Game(2, rules).played().up(0).treasure(0, 3000)
    g.treasure(1, 5000, banked=True).turn(0).top("attempt", TRAPPED, TRAPPED)
    g.steal(0, 1)
    g.turn(0).steal(0, 1)
    assert g.seat(0).steal[0] == -1 and g.carried(0) == 3000


def test_theft_ends_when_the_thief_dives():
    g = Game(2).played().up(0).treasure(1, 5000, banked=True).turn(0).top("attempt", NO_EFFECT)
    g.steal(0, 1)
    g.turn(0).dive(0)
    assert g.seat(0).steal[0] == -1 and discards(g, "attempt") == [NO_EFFECT]


# ------------------------------------------------------------------------------ decks
def test_attempt_deck_reshuffles():
    """'When the Attempt Cards pile is depleted, the discards are shuffled and made into a new
    pile.' The default (`reshuffle` "when-depleted"): the draw that takes the last card makes
    the new pile at once, so the Fail it turns up (and the box it discards) stay out of it."""
    g = Game(2).played().give(0, LOCKED_BOX).turn(0).top("attempt", FAIL).deplete("attempt", 1)
    g.tr = S.TRACE.new(4, True)
    assert g.s[S.S_ATT_N] == 1 and g.s[S.S_ATT_DN] == 20
    g.attempt(0, LOCKED_BOX)
    assert g.s[S.S_RESHUFFLES + 1] == 1 and g.s[S.S_ATT_N] == 20
    assert discards(g, "attempt") == [FAIL]
    reshuffles = [rec for rec in S.TRACE.actions(g.tr) if rec[2] == S.A_RESHUFFLE]
    assert [(int(rec[3]), int(rec[4])) for rec in reshuffles] == [(1, 20)]
    # the new pile's order is the shuffle's: every card of the discards, none seen
    assert sorted(int(c) for c in g.s[S.O_ATT_DECK : S.O_ATT_DECK + 20]) == sorted(
        [OPEN] * 8 + [CRACKED] * 4 + [NO_EFFECT] * 4 + [FAIL] * 2 + [TRAPPED] * 2
    )


def test_attempt_deck_reshuffles_when_needed():
    """`reshuffle` "when-needed" (the reading before issue #23): the pile stays empty until
    the next attempt, and the cards discarded meanwhile join the new pile."""
    g = Game(2, rules=SunkenTreasureRules(reshuffle="when-needed")).played()
    g.give(0, LOCKED_BOX).give(1, LOCKED_BOX).turn(0).top("attempt", FAIL).deplete("attempt", 1)
    g.tr = S.TRACE.new(4, True)
    g.attempt(0, LOCKED_BOX)
    assert g.s[S.S_RESHUFFLES + 1] == 0 and g.s[S.S_ATT_N] == 0 and g.s[S.S_ATT_DN] == 21
    g.attempt(1, LOCKED_BOX)
    assert g.s[S.S_RESHUFFLES + 1] == 1
    assert g.s[S.S_ATT_N] + g.s[S.S_ATT_DN] + g.seat(1).stack.sum() == 21
    reshuffles = [rec for rec in S.TRACE.actions(g.tr) if rec[2] == S.A_RESHUFFLE]
    assert [(int(rec[3]), int(rec[4])) for rec in reshuffles] == [(1, 21)]


def test_treasure_deck_reshuffles_when_depleted():
    """GAME-DATA: 'The treasure discard pile is reshuffled when the deck runs out' -- at the
    draw of its last card (default): a card discarded later waits in the discard pile."""
    for mode in ("when-depleted", "when-needed"):
        g = Game(2, rules=SunkenTreasureRules(reshuffle=mode)).played()
        vals = [1000] * 6 + [2000] * 6 + [3000] * 4 + [5000] * 2
        g.treasure(1, *vals, banked=True)  # the deck keeps a $5,000 and the $10,000 card
        g.treasure(0, 5000).give(0, LOCKED_BOX).sharks(2).turn(0).top("attempt", NO_EFFECT)
        g.attempt(0, LOCKED_BOX)
        g.top("item", SHARK).search(1)  # attack: A's $5,000 goes to the discard pile
        assert discards(g, "treasure") == [3] and g.s[S.S_TRE_N] == 1
        g.turn(0).dive(0)
        g.give(0, UNLOCKED_BOX).turn(0).claim(0, UNLOCKED_BOX)  # the last card: $10,000
        assert g.carried(0) == 10000
        if mode == "when-depleted":
            assert g.s[S.S_RESHUFFLES + 2] == 1 and g.s[S.S_TRE_N] == 1 and g.s[S.S_TRE_DN] == 0
        else:
            assert g.s[S.S_RESHUFFLES + 2] == 0 and g.s[S.S_TRE_N] == 0 and g.s[S.S_TRE_DN] == 1


def test_treasure_deck_reshuffles_and_runs_short():
    """GAME-DATA: 'The treasure discard pile is reshuffled when the deck runs out.' With both
    empty a container pays what is left (ruling, counted as 'treasure_short')."""
    g = Game(2).played()
    vals = [1000] * 6 + [2000] * 6 + [3000] * 4 + [5000] * 3
    g.treasure(1, *vals, banked=True)  # all but the $10,000 card banked by B
    g.give(0, UNLOCKED_CHEST).turn(0)
    g.claim(0, UNLOCKED_CHEST)
    assert g.carried(0) == 10000 and g.s[S.S_SHORT] == 1
    g.give(0, LOCKED_BOX).sharks(2).turn(0).top("attempt", NO_EFFECT)
    g.attempt(0, LOCKED_BOX)
    g.top("item", SHARK)
    g.search(1)  # attack: A's $10,000 goes to the discard pile
    assert discards(g, "treasure") == [4]
    g.turn(0).dive(0)
    g.give(0, UNLOCKED_BOX).turn(0).claim(0, UNLOCKED_BOX)
    assert g.carried(0) == 10000 and g.s[S.S_RESHUFFLES + 2] == 1


# ------------------------------------------------------------------------------ winning
def test_win_at_20000_banked():
    """'The game ends when a player has $20,000 or more in treasure banked and is proclaimed
    the winner.' (GAME-DATA: at the end of that turn.)"""
    g = Game(3).played().up(1).treasure(1, 10000, 5000, banked=True).treasure(1, 3000, 1000)
    g.turn(1).bank(1)
    assert g.banked(1) == 19000 and g.s[S.S_GAME_OVER] == 0
    g.treasure(1, 1000).turn(1).bank(1)
    assert g.s[S.S_GAME_OVER] == 1 and g.s[S.S_END_REASON] == S.END_TARGET and g.s[S.S_WINNER] == 1
    assert E.winners(g.s, g.r, g.s[:4], g.s[:4]) == (1, 2)
    assert g.search(2, ok=False) == ILLEGAL  # nothing after the end


def test_carried_treasure_does_not_win():
    g = Game(2).played().treasure(0, 10000, 5000, 3000, 2000).turn(0).top("item", JUNK)
    g.search(0)
    assert g.s[S.S_GAME_OVER] == 0


def test_win_by_stealing():
    g = Game(2).played().up(0).treasure(0, 10000, 5000, 3000, banked=True)
    g.treasure(1, 2000, banked=True).turn(0).top("attempt", OPEN)
    g.steal(0, 1)
    assert g.s[S.S_END_REASON] == S.END_TARGET and g.s[S.S_WINNER] == 0


def test_solo_turn_limit():
    """One player (GAME-DATA ruling): the target must be banked within solo_turns turns."""
    rules = dataclasses.replace(SunkenTreasureRules(), solo_turns=3)
    g = Game(1, rules).turn(0)
    g.top("item", JUNK, JUNK, JUNK)
    g.search(0)
    g.search(0)
    assert g.s[S.S_GAME_OVER] == 0
    g.search(0)
    assert g.s[S.S_GAME_OVER] == 1 and g.s[S.S_END_REASON] == S.END_SOLO_LIMIT
    assert E.winners(g.s, g.r, g.s[:4], g.s[:4]) == (-1, 0)
    g = Game(1).played().up(0).treasure(0, 10000, 5000, 5000).turn(0)
    g.bank(0)
    assert g.s[S.S_END_REASON] == S.END_TARGET and E.winners(g.s, g.r, g.s[:4], g.s[:4]) == (0, 1)


def test_round_cap():
    rules = dataclasses.replace(SunkenTreasureRules(), max_rounds=1)
    g = Game(2, rules).top("item", JUNK, JUNK).turn(0)
    g.search(0)
    g.search(1)
    assert g.s[S.S_END_REASON] == S.END_ROUND_LIMIT


# ------------------------------------------------------------------------------ legality
def test_illegal_actions_change_nothing():
    g = Game(3).played().give(0, LOCKED_BOX).treasure(1, 5000, banked=True).turn(0)
    before = g.s.copy()
    for err in (
        g.claim(0, UNLOCKED_BOX, ok=False),
        g.attempt(0, LOCKED_SAFE, ok=False),
        g.safety(0, ok=False),
        g.dive(0, ok=False),
        g.bank(0, ok=False),
        g.steal(0, 1, ok=False),
        g.abandon(0, ok=False),
        g.search(1, ok=False),
    ):
        assert err == ILLEGAL
    assert np.array_equal(before, g.s)


def test_checked_mode_catches_a_lost_card():
    g = Game(2)
    g.ok()
    g.s[S.S_ITEM_N] -= 1
    assert EI.check_invariants(g.s, g.r) == E.ERR_ITEMS
