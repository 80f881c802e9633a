# The two commands: `make run` and `make test`. Each makes .venv itself.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 0.0.0.0
PORT ?= 5000
export FLASK_APP := scorekeeper:create_app

.PHONY: run test lint typecheck pytest bench clean

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
	$(BIN)/gunicorn --bind "$(HOST):$(PORT)" --workers 2 --threads 4 \
		--access-logfile - "scorekeeper:create_app()"

test: $(BIN)/.installed-test lint typecheck pytest

lint: $(BIN)/.installed-test
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(BIN)/.installed-test
	$(BIN)/mypy

pytest: $(BIN)/.installed-test
	$(BIN)/pytest $(PYTEST_ARGS)

# Benchmarks: figures, not pass/fail timings (see bench/).
bench: $(BIN)/.installed-test
	$(BIN)/python -m bench.page_weight

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
