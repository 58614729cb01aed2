# Two commands do all the set-up on a fresh machine with only Python:
#   make run    — install into .venv, check every ruleset, play one North Pole game with random
#                 players and simulate 200 games of Endurance
#   make test   — install into .venv with the test tools, run the whole test suite
# And for CI (.ci/run) and long sessions:
#   make lint       — ruff (as the oldest supported Python, 3.10, so names it lacks are caught),
#                     and mypy --strict on the whole package
#   make test-long  — the long checks (about 12 minutes on two cores): 600 conformance games
#                     per ruleset, longer fuzzing, an injection payload in every text, every
#                     edit of more saves, and the suite's core on every other Python 3.10–3.13
#                     found on this machine (longer runs by hand: docs/testing.md)
PYTHON ?= python3
VENV   ?= .venv
BIN     = $(VENV)/bin
# The other Pythons test-long tries (those not found are skipped, and said so).
PYTHONS ?= python3.10 python3.11 python3.12 python3.13

.PHONY: run test lint test-long test-pythons bench clean

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
	$(BIN)/python -m pytest -n auto --dist worksteal --durations=15

lint: $(BIN)/rulelang
	$(BIN)/ruff check rulelang tests benchmarks
	$(BIN)/mypy

test-long: $(BIN)/rulelang
	RULELANG_LONG=1 RULELANG_CONFORMANCE_GAMES=300 RULELANG_FUZZ_EXAMPLES=1000 \
		$(BIN)/python -m pytest -n auto --dist worksteal -q
	$(MAKE) test-pythons

# The core of the suite (API, trust boundary, hostile input, data forms, golden
# playthroughs) on each other Python: the same games, move for move, everywhere.
test-pythons: $(BIN)/rulelang
	@for py in $(PYTHONS); do \
	  if ! $$py -c 'import sys; assert sys.version_info >= (3, 10)' >/dev/null 2>&1; then \
	    echo "test-pythons: $$py not found, skipped"; continue; fi; \
	  v=$$($$py -c 'import sys; print("%d.%d" % sys.version_info[:2])'); \
	  if [ "$$v" = "$$($(BIN)/python -c 'import sys; print("%d.%d" % sys.version_info[:2])')" ]; then \
	    echo "test-pythons: Python $$v is the one the suite just ran on, skipped"; continue; fi; \
	  [ -x .venv-$$v/bin/python ] || { $$py -m venv .venv-$$v && \
	    .venv-$$v/bin/pip install --quiet --upgrade pip && \
	    .venv-$$v/bin/pip install --quiet -e '.[test]'; } || exit 1; \
	  echo "test-pythons: Python $$v"; \
	  .venv-$$v/bin/python -m pytest -n auto -q -p no:cacheprovider tests/test_api.py \
	    tests/test_trust.py tests/test_hostile.py tests/test_data.py tests/test_golden.py \
	    tests/test_saves.py tests/test_hidden.py tests/test_work_limits.py || exit 1; \
	done

bench: $(BIN)/rulelang
	$(BIN)/python benchmarks/playouts.py

clean:
	rm -rf $(VENV) .venv-3.* build *.egg-info
