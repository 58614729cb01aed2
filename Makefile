# Two commands do all the set-up on a fresh machine with only Python:
#   make run    — install into .venv, check every ruleset, play one North Pole game with random
#                 players and simulate 200 games of Endurance
#   make test   — install into .venv with the test tools, run the whole test suite
PYTHON ?= python3
VENV   ?= .venv
BIN     = $(VENV)/bin

.PHONY: run test bench clean

$(BIN)/rulelang: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $@

run: $(BIN)/rulelang
	$(BIN)/rulelang check rulesets/*.rules
	$(BIN)/rulelang play rulesets/northpole.rules --players 3 --seed 1 --auto
	$(BIN)/rulelang simulate rulesets/endurance.rules --games 200

test: $(BIN)/rulelang
	$(BIN)/python -m pytest -n auto

bench: $(BIN)/rulelang
	$(BIN)/python benchmarks/playouts.py

clean:
	rm -rf $(VENV) build *.egg-info
