"""The studies built on the run engine, one per command: comparisons, dice and sweeps (arms),
robustness, the tuning commands (tuning, tune_players, tune_rules), the report's plan
(report_plan) and the benchmark (bench).
"""
