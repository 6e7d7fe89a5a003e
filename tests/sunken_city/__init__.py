"""Sunken City rules, players and tables tests."""
