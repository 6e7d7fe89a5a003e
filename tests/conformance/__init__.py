"""The conformance suite: the checks every registered game must pass, run over all_games().

A game registered in simcore (its GameSpec) gets these tests without writing any: determinism
across threads and chunkings (test_determinism), replay = simulate (test_replay), checked-mode
fuzzing with the random player for every player count and variant, and with every policy mixed
(test_fuzz), and the golden traces of tests/golden/ (test_golden). A game's own rules tests
live in tests/<game>/.
"""
