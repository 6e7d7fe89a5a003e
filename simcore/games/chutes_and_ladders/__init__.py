"""Chutes and Ladders (Milton Bradley): a reference game with a published answer. 1 to 4
players race from off the board to square 100 by a spinner of 1 to 6, up ladders and down
chutes; a spin that would pass 100 is not moved; the first to land exactly on 100 wins. No
decisions: one player, the spinner."""

from __future__ import annotations

from simcore.frame.registry import PolicySpec, register
from simcore.games.chutes_and_ladders import play as _play
from simcore.games.chutes_and_ladders import trace as _trace
from simcore.games.chutes_and_ladders.rules import ChutesAndLaddersRules

POLICIES = {
    "spinner": PolicySpec(
        "spinner",
        _play.POL_SPINNER,
        "spins and moves as the spinner says (the game has no decisions)",
    ),
}

SPEC = register(
    title="Chutes and Ladders (Milton Bradley)",
    rules_cls=ChutesAndLaddersRules,
    policies=POLICIES,
    trace=_trace.FORMAT,
    report_variants=("base", "no-links"),
    no_search=(
        "chutes-and-ladders has no decisions (every move is the spinner's), so it has no "
        "search player; use --policy spinner"
    ),
    reference=(
        "a 1-player game lasts 39.2251 spins on average (Althoen, King & Schilling, "
        '"How long is a game of Snakes and Ladders?", The Mathematical Gazette 77, 1993)'
    ),
)
