# Quick start: `make run` (set up + main job) and `make test` (set up + tests).
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip

.PHONY: run test setup clean bench

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PIP) install torch==2.13.0
	$(PIP) install -e '.[dev]'
	touch $@

setup: $(VENV)/.installed

run: setup
	rm -rf runs/quickstart
	$(VENV)/bin/dustup tournament --agents random,easy,medium,hard,defensive,ppo --games 20 --seed 1 --out runs/quickstart

test: setup
	$(PY) -m pytest -n 2 --dist loadgroup tests

bench: setup
	$(PY) benchmarks/bench_random_play.py

clean:
	rm -rf $(VENV) build *.egg-info
