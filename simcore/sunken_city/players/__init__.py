"""The Sunken City players (their scratch layout so far; the players follow)."""
