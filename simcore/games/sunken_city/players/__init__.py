"""The Sunken City players: compiled functions that play a whole turn through the engine's
do_* verbs. `random` chooses uniformly among the legal options; the heuristic players are one
compiled turn (`turn.heuristic_turn`) driven by a weight vector (`weights.py`, presets in
`presets.py`)."""
