"""Loading the scripts of tools/ as modules in the tests (they are not a package)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

TOOLS = Path(__file__).parents[1] / "tools"


def load_script(name: str):
    """tools/<name>.py imported as the module `name` (its main() is not run)."""
    spec = importlib.util.spec_from_file_location(name, TOOLS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
