"""The project's errors. Every one is shown to the user as one line (the CLI's exit status 2).

RulesError: a rules choice that cannot be played (unknown game, variant, field or value, a
player count out of range). InputError: any other input that cannot be used (an option's
value, a file, a checkpoint). ContractError: a game's declaration to the frame is wrong
(simcore.frame.contract), raised when the game is imported.
"""

from __future__ import annotations


class BalanceError(ValueError):
    """An error whose message is shown to the user as is."""


class RulesError(BalanceError):
    """A rules choice that cannot be played: the message is shown to the user as is."""


class InputError(BalanceError):
    """An input other than the rules that cannot be used (options, files, checkpoints)."""


class ContractError(TypeError):
    """A game's declaration to the frame (its GameContract) is wrong: names the game and the
    hook."""
