# Every target creates .venv and installs the project when missing.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: setup test test-slow report bench bench-quick lint clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

setup: $(STAMP)

test: $(STAMP)
	$(BIN)/python -m pytest -q

test-slow: $(STAMP)
	$(BIN)/python -m pytest -q -m slow

report: $(STAMP)
	$(BIN)/balance report sunken-city --out reports/sunken-city --games 20000

# every figure of docs/performance.md (about 13 minutes: cold compiles, 1e7-game memory runs;
# plus the search strength-for-cost curves, about 6 minutes more, estimated from their ms/game)
bench: $(STAMP)
	$(BIN)/balance bench --games 20000 --runs 5 --full

# the games-per-second table only (about 2 minutes)
bench-quick: $(STAMP)
	$(BIN)/balance bench --games 20000 --runs 5

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

clean:
	rm -rf $(VENV) build *.egg-info
