"""Trace mode: play one game with recording on, and turn the records into JSON lines and a
readable text replay. The format is documented in docs/trace-format-sunken-treasure.md.
"""

from __future__ import annotations

import numpy as np

from simcore.frame import replay
from simcore.frame.replay import SEAT_LETTERS, GameTrace, TraceFormat, title_lines
from simcore.games.sunken_treasure import state as S
from simcore.games.sunken_treasure.board import ATTEMPT_NAMES, DECK_NAMES, ITEM_NAMES
from simcore.games.sunken_treasure.play import DRIVER
from simcore.games.sunken_treasure.rules import P_N_TKINDS, P_PLAYERS, R_TVALUE
from simcore.games.sunken_treasure.state import (
    A_ABANDON,
    A_ATTEMPT,
    A_BANK,
    A_CLAIM,
    A_DIVE,
    A_RESHUFFLE,
    A_SAFETY,
    A_SEARCH,
    A_SHARK_ATTACK,
    A_SHARKS_CLEARED,
    A_SHORT,
    A_SURFACE,
    A_THEFT,
    A_THEFT_ENDED,
    A_TREASURE,
    END_REASONS,
    OUTCOME_NAMES,
    S_ATT_DN,
    S_ATT_N,
    S_END_REASON,
    S_ITEM_DN,
    S_ITEM_N,
    S_ROUND,
    S_SEAT,
    S_SHARKS,
    S_TRE_DN,
    S_TRE_N,
    S_TURN,
    UP_NAMES,
    view,
)


def _values(counts: np.ndarray, r: np.ndarray) -> list[int]:
    """Treasure cards by kind -> their dollar values, highest first."""
    out = []
    for k in range(int(r[P_N_TKINDS])):
        out += [int(r[R_TVALUE + k])] * int(counts[k])
    return sorted(out, reverse=True)


def state_json(snap: np.ndarray, r: np.ndarray) -> dict:
    """The full state (one snapshot) as plain data."""
    v = view(snap)
    players = int(r[P_PLAYERS])
    seats = []
    for k in range(players):
        st = v.seats[k]
        seats.append(
            {
                "diver": "up" if st.up[0] else "down",
                "hand": {ITEM_NAMES[i]: int(n) for i, n in enumerate(st.hand) if n},
                "lock": ITEM_NAMES[int(st.lock[0])] if st.lock[0] >= 0 else None,
                "theft": int(st.steal[0]) if st.steal[0] >= 0 else None,
                "theft_used": bool(st.steal_used[0]),
                "attempt_cards": {ATTEMPT_NAMES[i]: int(n) for i, n in enumerate(st.stack) if n},
                "carried": _values(st.carried, r),
                "banked": _values(st.banked, r),
            }
        )
    sc = v.scal
    return {
        "turn": int(sc[S_TURN]),
        "round": int(sc[S_ROUND]),
        "seat": int(sc[S_SEAT]),
        "sharks": int(sc[S_SHARKS]),
        "decks": {
            "item": [int(sc[S_ITEM_N]), int(sc[S_ITEM_DN])],
            "attempt": [int(sc[S_ATT_N]), int(sc[S_ATT_DN])],
            "treasure": [int(sc[S_TRE_N]), int(sc[S_TRE_DN])],
        },
        "seats": seats,
        "end_triggered": END_REASONS[int(sc[S_END_REASON])] if sc[S_END_REASON] >= 0 else None,
    }


def actions_json(recs: np.ndarray) -> list[dict]:
    """One turn's records -> actions (turn ends are implied by the next turn)."""
    out: list[dict] = []
    for rec in recs:
        kind = int(rec[2])
        a, b, c, d, e = (int(x) for x in rec[3:8])
        if kind == A_SEARCH:
            out.append({"type": "search", "card": ITEM_NAMES[a], "sharks": b})
        elif kind == A_CLAIM:
            out.append({"type": "claim", "container": ITEM_NAMES[a], "cards": b})
        elif kind == A_ATTEMPT:
            out.append(
                {
                    "type": "attempt",
                    "container": ITEM_NAMES[a],
                    "card": ATTEMPT_NAMES[b],
                    "outcome": OUTCOME_NAMES[c],
                    "cards": d,
                }
            )
        elif kind == A_TREASURE:
            out.append({"type": "treasure", "seat": c, "value": b})
        elif kind == A_SAFETY:
            out.append({"type": "safety", "sharks_left": a})
        elif kind == A_SURFACE:
            out.append({"type": "surface", "seat": a, "reason": UP_NAMES[b], "lost": c})
        elif kind == A_DIVE:
            out.append({"type": "dive"})
        elif kind == A_BANK:
            out.append({"type": "bank", "value": a, "banked_total": b})
        elif kind == A_THEFT:
            out.append(
                {
                    "type": "theft",
                    "target": a,
                    "card": ATTEMPT_NAMES[b],
                    "outcome": OUTCOME_NAMES[c],
                    "stolen": e if d >= 0 else None,
                }
            )
        elif kind == A_ABANDON:
            out.append(
                {"type": "abandon", "lock": ITEM_NAMES[b]}
                if a == 0
                else {"type": "abandon", "theft_on": b}
            )
        elif kind == A_THEFT_ENDED:
            out.append({"type": "theft_ended", "thief": a, "target": b})
        elif kind == A_SHARK_ATTACK:
            out.append({"type": "shark_attack", "divers": [k for k in range(4) if a & (1 << k)]})
        elif kind == A_SHARKS_CLEARED:
            out.append({"type": "sharks_cleared", "sharks": a})
        elif kind == A_RESHUFFLE:
            out.append({"type": "reshuffle", "deck": DECK_NAMES[a], "cards": b})
        elif kind == A_SHORT:
            out.append({"type": "short", "cards": a})
    return out


def _search(a: dict) -> str:
    sharks = f" ({a['sharks']} shark(s) on the board)" if a["card"] == "shark" else ""
    return f"searches: {a['card']}{sharks}"


def _attempt(a: dict) -> str:
    extra = f", {a['cards']} treasure card(s)" if a["outcome"] == "opened" else ""
    return f"attempts the {a['container']}: {a['card']} -> {a['outcome']}{extra}"


def _surface(a: dict) -> str:
    seat = SEAT_LETTERS[a["seat"]]
    if a["reason"] == "by choice":
        return f"seat {seat} surfaces (Diver Up), discarding items and attempts"
    lost = f", loses ${a['lost']:,} unbanked" if a["lost"] else ""
    return f"seat {seat} is forced up ({a['reason']}){lost}"


def _theft(a: dict) -> str:
    got = f", steals ${a['stolen']:,}" if a["stolen"] is not None else ""
    return f"tries seat {SEAT_LETTERS[a['target']]}'s safe: {a['card']} -> {a['outcome']}{got}"


def _abandon(a: dict) -> str:
    if "lock" in a:
        return f"gives up the trapped {a['lock']}"
    return f"gives up the theft on seat {SEAT_LETTERS[a['theft_on']]}"


def _shark_attack(a: dict) -> str:
    who = ", ".join(SEAT_LETTERS[k] for k in a["divers"]) or "nobody"
    return f"SHARK ATTACK: divers {who} must surface and lose all but banked treasure"


# the sentence of each action type (simcore.frame.replay.describe)
PHRASES = {
    "search": _search,
    "claim": "claims an {container}: {cards} treasure card(s)",
    "attempt": _attempt,
    "treasure": "  seat {seat!L} takes a ${value:,} treasure card",
    "safety": "plays a Safety card: a shark is discarded ({sharks_left} left)",
    "surface": _surface,
    "dive": "dives (Diver Down)",
    "bank": "banks ${value:,} (banked total ${banked_total:,})",
    "theft": _theft,
    "abandon": _abandon,
    "theft_ended": "  seat {thief!L}'s theft on seat {target!L} is abandoned",
    "shark_attack": _shark_attack,
    "sharks_cleared": "  everyone is up: {sharks} shark(s) discarded",
    "reshuffle": "  the {deck} discards ({cards}) are shuffled into a new deck",
    "short": "  no treasure card left to take",
}


def _seat_line(k: int, st: dict) -> str:
    hand = ", ".join(f"{n}x {name}" for name, n in st["hand"].items()) or "-"
    lock = ""
    if st["lock"]:
        cards = ", ".join(f"{n}x {c}" for c, n in st["attempt_cards"].items()) or "no cards"
        lock = f" | working on {st['lock']} ({cards})"
    if st["theft"] is not None:
        lock = f" | robbing seat {SEAT_LETTERS[st['theft']]}"
    return (
        f"  {SEAT_LETTERS[k]} {st['diver']:<4} hand {hand}{lock} | carried "
        f"${sum(st['carried']):,} banked ${sum(st['banked']):,}"
    )


def render(trace: GameTrace) -> list[str]:
    """The readable replay's lines, up to how the game ended."""
    out = title_lines(f"Sunken Treasure, {trace.header['players']} player(s)", trace.header)
    for t in trace.turns:
        st = t["state"]
        d = st["decks"]
        out.append("")
        out.append(
            f"== Round {st['round'] + 1}, turn {st['turn'] + 1}: seat "
            f"{SEAT_LETTERS[st['seat']]} == sharks {st['sharks']}; decks item "
            f"{d['item'][0]}/{d['item'][1]} attempt {d['attempt'][0]}/{d['attempt'][1]} "
            f"treasure {d['treasure'][0]}/{d['treasure'][1]} (deck/discard)"
        )
        for k, seat in enumerate(st["seats"]):
            out.append(_seat_line(k, seat))
        for a in t["actions"]:
            out.append("  " + replay.describe(a, PHRASES))
    return out


def ending(e: dict) -> str:
    win = f"Winner: seat {SEAT_LETTERS[e['winner']]}." if e["winner"] >= 0 else "No winner."
    banked = ", ".join(f"${v:,}" for v in e["scores"])
    return f"Game over ({e['end_reason']}) after {e['turns']} turns. Banked {banked}. {win}"


def max_turns(rules, players: int) -> int:
    """The most turns a game can last (one player: the solo turn limit)."""
    return (rules.solo_turns if players == 1 else rules.max_rounds * players) + 1


def turn_actions(snap: np.ndarray, recs: np.ndarray, r: np.ndarray) -> list[dict]:
    return actions_json(recs)


# the end line's final state: each seat's banked and carried treasures (score and tie-break),
# hands, locks, attempt cards, the decks and the end condition
FORMAT = TraceFormat(
    DRIVER, S, max_turns, state_json, turn_actions, render, ending, final_state=state_json
)
