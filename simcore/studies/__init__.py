"""The studies built on the run engine, one per command, each rendered by the analysis module
of its name (docs/adding-a-study.md): comparisons, dice and sweeps (compare), seat
compensation (compensate), robustness, the rated ladder (ladder), the tuning commands (tuning,
tune_players, tune_rules), the report's games (report), the benchmark (bench, bench_pig), the
outcome tally of the degenerate-play check (outcomes) and the trained player's self-play
(train).
"""
