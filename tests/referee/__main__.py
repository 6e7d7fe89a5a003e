"""`python -m tests.referee [trace.jsonl]`: check a trace file (or standard input)."""

from __future__ import annotations

import sys

from tests.referee.check import main

sys.exit(main())
