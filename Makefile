# The two commands: `make run` and `make test`. Each makes .venv itself.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 0.0.0.0
PORT ?= 5000
export FLASK_APP := scorekeeper:create_app

.PHONY: run test quick mutate lint typecheck pytest bench load crash racing translations clean

# The virtual environment is rebuilt when pyproject.toml changes.
$(BIN)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(BIN)/.installed-test: $(BIN)/.installed
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@

run: $(BIN)/.installed
	$(BIN)/flask db upgrade
	@$(BIN)/flask address --host "$(HOST)" --port "$(PORT)"
	$(BIN)/gunicorn --bind "$(HOST):$(PORT)" --workers 1 \
		--access-logfile - "scorekeeper:create_app()"

test: $(BIN)/.installed-test lint typecheck pytest

lint: $(BIN)/.installed-test
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(BIN)/.installed-test
	$(BIN)/mypy

# One pytest worker a core (pytest-xdist); PYTEST_JOBS=0 runs in one process.
PYTEST_JOBS ?= auto
pytest: $(BIN)/.installed-test
	$(BIN)/pytest -n $(PYTEST_JOBS) $(PYTEST_ARGS)

# The loop between edits: the rules, the use cases and the API on SQLite, hypothesis's quick
# profile. `make test` stays the whole suite.
quick: $(BIN)/.installed-test
	HYPOTHESIS_PROFILE=quick TEST_DATABASE_URL= $(BIN)/pytest -n $(PYTEST_JOBS) -q \
		tests/rules tests/services tests/api $(PYTEST_ARGS)

# Mutation testing of the rules and the use cases (mutmut, outside CI: it takes a while),
# against the tests of the layers that own them. MUTATE_ARGS="--sample 4" runs one mutant
# in four; docs/development.md has the score.
mutate: $(BIN)/.installed-test
	$(BIN)/python -m pip install --quiet 'mutmut==3.8.1'
	$(BIN)/python scripts/mutate.py $(MUTATE_ARGS)

# Benchmarks: figures, not pass/fail timings (docs/performance.md). PostgreSQL rows need
# BENCH_DATABASE_URL (or TEST_DATABASE_URL); each run works in a schema of its own.
bench: $(BIN)/.installed-test
	$(BIN)/python -m bench

# Capacity, open loop: the largest number of tables served within the limits, on SQLite and
# PostgreSQL, beside the floor (/healthz). Old and new in the same hour, median of three:
# `make load OLD=../old` (OLD: a checkout of the older commit, e.g. a git worktree; its
# .venv is made here). Each table's keeper taps the round screen as a phone does; a commit
# whose taps answer 303 needs LOAD_ARGS="--keeper api" (the keeper writes through the API).
# More options: LOAD_ARGS="--backend sqlite --seconds 20", --help.
load: $(BIN)/.installed
	$(if $(OLD),$(MAKE) -C "$(OLD)" $(BIN)/.installed)
	$(BIN)/python -m bench.load $(if $(OLD),--checkout "$(OLD)" --checkout . --runs 3) $(LOAD_ARGS)

# SIGKILL the server mid-load and restart it, repeatedly: CRASH_ARGS="--rounds 20 --backend both".
crash: $(BIN)/.installed
	$(BIN)/python -m bench.crash $(CRASH_ARGS)

# 1,000 racing pairs of writes per path and backend.
racing: $(BIN)/.installed-test
	$(BIN)/python -m bench.racing $(RACING_PAIRS)

# The catalogues: extract every marked message, merge it into each language's .po (new ones
# untranslated, changed ones marked fuzzy), compile the .mo files the app reads. Then
# translate what `pytest tests/app/test_catalogue.py` lists as missing, and run it again.
TRANSLATIONS := scorekeeper/translations
translations: $(BIN)/.installed
	$(BIN)/pybabel extract -F babel.cfg -k _l -k _n:1,2 --add-comments=Translators: \
		--no-location --sort-output --project="Tablet of Truth" --version="" \
		-o $(TRANSLATIONS)/messages.pot .
	$(BIN)/pybabel update -i $(TRANSLATIONS)/messages.pot -d $(TRANSLATIONS) --ignore-obsolete
	$(BIN)/pybabel compile -d $(TRANSLATIONS) --statistics

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis mutants
