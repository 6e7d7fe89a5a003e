"""The game packages, one per game, each written only through the game contract
(simcore.frame.contract) and registered with simcore.frame.registry. The registry imports every
sub-package of this folder.
"""
