"""Sunken Treasure's hook of the `trained` player (simcore.frame.trained): the features of each
candidate of a turn (the turn's legal options, search_player.search_options) from the deciding
seat's view (docs/policies-sunken-treasure.md, "The trained player").

A candidate is described by the position after it, its afterstate. Most actions draw a card
(a search, an attempt on a lock or a safe, a claim), and the order of the decks is what a seat
cannot see, so a drawn card is never looked at: the afterstate is the EXPECTED one, from the
composition of the decks (public: every card out of a deck lies open, in a discard pile, a
hand, on a lock, on the board or in front of a player) and the lock odds of the heuristic
(policies.lock_odds). Dollars are scaled by the target and sharks by the attack's count, so a
model sees the race, not the numbers, and plays any variant.

What is read of the opponents is public: their seat (up or down), the treasure they carry face
up, how many cards they have banked, and the dollars banked. Those dollars are public with two
players (every card was face up before it was banked, and a theft is between the two seats);
with three or four a card stolen between two other seats is seen only by them, so the dollars
of a seat that has stolen or been robbed are read as its card count times the mean card
(public_banked).
"""

from __future__ import annotations

from simcore.frame.jit import kernel
from simcore.games.sunken_treasure import board as B
from simcore.games.sunken_treasure import engine_options as EO
from simcore.games.sunken_treasure import rules as R
from simcore.games.sunken_treasure import state as S
from simcore.games.sunken_treasure.engine import (
    banked_value,
    carried_value,
    fld,
    hand,
    head_start,
    is_up,
    n_banked,
    stack,
)
from simcore.games.sunken_treasure.policies import lock_odds, mean_treasure

# a candidate's features, in order (dollars / target; "after": the expected afterstate)
F_BANKED = 0  # own dollars banked after (with the seat's head start)
F_CARRIED = 1  # own dollars carried face up after (at risk until banked)
F_HELD = 2  # expected dollars of the containers held after (locked ones at their odds)
F_SAFETY = 3  # Safety cards held after
F_UP = 4  # chance the seat is on the boat after (surfaced, or forced up)
F_SHARKS = 5  # sharks on the board after / sharks_to_attack
F_SHARK_NEXT = 6  # chance the next Item card is a Shark (the deck's composition)
F_LEADER = 7  # the most dollars banked by an opponent (public_banked)
F_THREAT = 8  # the most dollars an opponent has banked and carries together
F_DIVERS = 9  # opponents in the sea / opponents (0 solo): the seats a theft may rob
F_PREY = 10  # the most dollars banked by an opponent in the sea (what a theft may take from)
F_WINS = 11  # 1 for a candidate that banks the target (ends and wins the game)
F_TREASURE_LEFT = 12  # treasure cards in the deck and its discards / treasure cards in all
F_CLOCK = 13  # solo: turns played / solo_turns (the limit); 0 with more players
F_KIND = 14  # [9] 1 for the candidate's kind (engine_options.K_SEARCH .. K_ABANDON)
N_KINDS = 9
TRAINED_WIDTH = F_KIND + N_KINDS


@kernel(inline="always")
def public_banked(s, r, seat, t, mean):
    """The dollars seat t has banked as `seat` knows them (module docstring): exact with two
    players and for a seat no theft touched, else t's banked cards times the mean card."""
    if r[R.P_PLAYERS] <= 2 or t == seat:
        return banked_value(s, r, t) + head_start(r, t)
    touched = s[fld(t, S.F_CNT + S.C_THEFTS_WON)] + s[fld(t, S.F_CNT + S.C_ROBBED)]
    if touched == 0:
        return banked_value(s, r, t) + head_start(r, t)
    return n_banked(s, r, t) * mean + head_start(r, t)


@kernel(inline="always")
def lock_worth(r, kind, cracked, trapped, mean):
    """Expected dollars a locked container pays from its attempt cards (policies.lock_odds)."""
    p_open, _ = lock_odds(r, cracked, trapped)
    return p_open * r[R.R_BAGS + kind] * mean


@kernel(inline="always")
def item_worth(r, kind, mean):
    """Expected dollars of a container card held (a fresh lock at its odds); 0 for the rest."""
    if kind == B.UNLOCKED_BOX or kind == B.UNLOCKED_CHEST:
        return r[R.R_BAGS + kind] * mean
    if kind >= B.LOCKED_BOX and kind <= B.LOCKED_SAFE:
        return lock_worth(r, kind, 0, 0, mean)
    return 0.0


@kernel
def held_worth(s, r, seat, mean):
    """(dollars of the containers held and the lock under attempt, the lock's alone)."""
    v = 0.0
    for kind in range(B.N_CONTAINERS):
        v += hand(s, seat, kind) * item_worth(r, kind, mean)
    lock = s[fld(seat, S.F_LOCK)]
    w = 0.0
    if lock >= 0:
        cr = min(stack(s, seat, B.CRACKED), 1)
        w = lock_worth(r, lock, cr, min(stack(s, seat, B.TRAPPED), 1), mean)
    return v + w, w


@kernel
def next_item(s, r, mean):
    """(chance the next Item card is a Shark, expected dollars of the container it may be,
    chance it is a Safety card), from the deck's composition (its discards when it is empty:
    they are shuffled into the next pile). Counts only, never the order."""
    off, n = S.O_ITEM_DECK, s[S.S_ITEM_N]
    if n == 0:
        off, n = S.O_ITEM_DISC, s[S.S_ITEM_DN]
    if n == 0:
        return 0.0, 0.0, 0.0
    sharks = 0.0
    safety = 0.0
    worth = 0.0
    for i in range(n):
        card = s[off + i]
        if card == B.SHARK:
            sharks += 1.0
        elif card == B.SAFETY:
            safety += 1.0
        elif card < B.N_CONTAINERS:
            worth += item_worth(r, card, mean)
    return sharks / n, worth / n, safety / n


@kernel
def attempt_step(r, cracked, trapped):
    """One Attempt card on a lock or safe with `cracked` / `trapped` cards on it, from the
    attempt deck's mix: (chance it opens now, chance it is a second Trapped, chance it goes on
    with a Cracked added, with a Trapped added, unchanged)."""
    o = float(r[R.R_ATTEMPT_COUNTS + B.OPEN])
    c = float(r[R.R_ATTEMPT_COUNTS + B.CRACKED])
    ne = float(r[R.R_ATTEMPT_COUNTS + B.NO_EFFECT])
    f = float(r[R.R_ATTEMPT_COUNTS + B.FAIL])
    t = float(r[R.R_ATTEMPT_COUNTS + B.TRAPPED])
    q = o + c + ne + f + t
    if q <= 0.0:
        return 0.0, 0.0, 0.0, 0.0, 0.0
    if cracked >= 1:
        o += c
        c = 0.0
    out = 0.0
    if trapped >= 1:
        out = t
        t = 0.0
    return o / q, out / q, c / q, t / q, ne / q


@kernel
def opponents(s, r, seat, mean):
    """(the most dollars an opponent has banked, banked and carried, banked among those in the
    sea; the opponents in the sea)."""
    leader = 0.0
    threat = 0.0
    prey = 0.0
    divers = 0
    for t in range(r[R.P_PLAYERS]):
        if t == seat:
            continue
        b = public_banked(s, r, seat, t, mean)
        leader = max(leader, b)
        threat = max(threat, b + carried_value(s, r, t))
        if not is_up(s, t):
            divers += 1
            prey = max(prey, b)
    return leader, threat, prey, divers


@kernel(inline="always")
def after_attempt(r, kind, cr, tr, carried, held, lock, mean):
    """(carried, held, up) expected after one Attempt card on the lock `kind` (its worth
    `lock` in held): opened, it pays its bags (one card for a second Cracked on the literal
    reading); a second Trapped forces the seat up, losing what it carries and holds."""
    p_open, p_out, p_cr, p_tr, p_same = attempt_step(r, cr, tr)
    bags = r[R.R_BAGS + kind]
    paid = float(bags)
    if cr >= 1 and r[R.P_SECOND_CRACKED_FULL] == 0:
        o, _, c, _, _ = attempt_step(r, 0, tr)  # Open pays the bags, the second Cracked one
        paid = (o * bags + c) / (o + c) if o + c > 0 else paid
    gain = p_open * paid * mean
    on = p_cr * lock_worth(r, kind, 1, tr, mean) + p_tr * lock_worth(r, kind, cr, 1, mean)
    on += p_same * lock
    return carried * (1.0 - p_out) + gain, (held - lock) * (1.0 - p_out) + on, p_out


@kernel
def candidate_features(s, r, seat, code, xf, o, own):
    """The afterstate features (F_BANKED .. F_WINS) of option `code` into xf[o:]; own: the
    seat's (dollars banked, carried, held, of the lock under attempt; Safety cards, sharks on
    the board; the next Item card's chance of a Shark, its expected container dollars, its
    chance of a Safety card; the mean treasure card)."""
    k = code // 8
    a = code % 8
    banked, carried, held, lock, safety, sharks, p_shark, worth, p_safety, mean = own
    t_up = 1.0 if is_up(s, seat) else 0.0
    n_sharks = float(r[R.P_SHARKS])
    if k == EO.K_SEARCH:
        if sharks + 1.0 >= n_sharks:  # a Shark now is the attack: everyone up, sharks gone
            keep = 1.0 - p_shark
            carried *= keep
            held = (held + worth) * keep
            safety = (safety + p_safety) * keep
            sharks *= keep
            t_up = p_shark
        else:
            held += worth
            safety += p_safety
            sharks += p_shark
    elif k == EO.K_CLAIM:
        v = r[R.R_BAGS + a] * mean
        held -= v
        carried += v
    elif k == EO.K_ATTEMPT:
        cr = min(stack(s, seat, B.CRACKED), 1)
        tr = min(stack(s, seat, B.TRAPPED), 1)
        if s[fld(seat, S.F_LOCK)] < 0:  # a fresh lock: its card leaves the hand
            lock = item_worth(r, a, mean)
        carried, held, t_up = after_attempt(r, a, cr, tr, carried, held, lock, mean)
    elif k == EO.K_SAFETY:
        safety -= 1.0
        sharks -= 1.0
    elif k == EO.K_SURFACE:
        t_up = 1.0
        held = 0.0
        if r[R.P_KEEP_SAFETY] == 0:
            safety = 0.0
        if r[R.P_BANK_ON_SURFACE] == 1:
            banked += carried
            carried = 0.0
    elif k == EO.K_DIVE:
        t_up = 0.0
    elif k == EO.K_BANK:
        banked += carried
        carried = 0.0
    elif k == EO.K_STEAL:
        cr = min(stack(s, seat, B.CRACKED), 1)
        tr = min(stack(s, seat, B.TRAPPED), 1)
        p_open, p_out, _, _, _ = attempt_step(r, cr, tr)
        nb = n_banked(s, r, a)
        if nb > 0:
            banked += p_open * (public_banked(s, r, seat, a, mean) - head_start(r, a)) / nb
        if r[R.P_STEAL_TRAP_DISCARDS] == 1:
            carried *= 1.0 - p_out
    elif k == EO.K_ABANDON:
        held -= lock
    target = float(r[R.P_TARGET])
    xf[o + F_BANKED] = banked / target
    xf[o + F_CARRIED] = carried / target
    xf[o + F_HELD] = held / target
    xf[o + F_SAFETY] = safety
    xf[o + F_UP] = t_up
    xf[o + F_SHARKS] = sharks / n_sharks
    xf[o + F_WINS] = 1.0 if k == EO.K_BANK and banked >= target else 0.0
    for j in range(N_KINDS):
        xf[o + F_KIND + j] = 0.0
    xf[o + F_KIND + k] = 1.0


@kernel
def trained_features(s, r, seat, x, at, n, xf, out):
    """The TRAINED_WIDTH features of each of the n candidates x[at : at + n] into
    xf[out + i * TRAINED_WIDTH ...] (float64)."""
    mean = mean_treasure(r)
    held, lock = held_worth(s, r, seat, mean)
    p_shark, worth, p_safety = next_item(s, r, mean)
    own = (
        float(banked_value(s, r, seat) + head_start(r, seat)),
        float(carried_value(s, r, seat)),
        held,
        lock,
        float(hand(s, seat, B.SAFETY)),
        float(s[S.S_SHARKS]),
        p_shark,
        worth,
        p_safety,
        mean,
    )
    leader, threat, prey, divers = opponents(s, r, seat, mean)
    target = float(r[R.P_TARGET])
    players = r[R.P_PLAYERS]
    total = r[R.P_N_TREASURES]
    left = (s[S.S_TRE_N] + s[S.S_TRE_DN]) / total if total > 0 else 0.0
    clock = s[S.S_TURN] / r[R.P_SOLO_TURNS] if players == 1 and r[R.P_SOLO_TURNS] > 0 else 0.0
    for i in range(n):
        o = out + i * TRAINED_WIDTH
        candidate_features(s, r, seat, x[at + i], xf, o, own)
        xf[o + F_SHARK_NEXT] = p_shark
        xf[o + F_LEADER] = leader / target
        xf[o + F_THREAT] = threat / target
        xf[o + F_DIVERS] = divers / (players - 1) if players > 1 else 0.0
        xf[o + F_PREY] = prey / target
        xf[o + F_TREASURE_LEFT] = left
        xf[o + F_CLOCK] = clock
