# Quick start: `make run` (set up + main job) and `make test` (set up + tests).
# `make run` installs what the quick start uses (the engine, the shipped policy `ppo`: torch and
# sb3-contrib, plots); `make test` adds the training, cluster and test tools.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip

.PHONY: run test setup setup-run clean bench browser

$(PY):
	$(PYTHON) -m venv $(VENV)

# torch first, alone: the pinned release (the CPU build where pip is set up to find it)
$(VENV)/.run: pyproject.toml | $(PY)
	$(PIP) install torch==2.13.0
	$(PIP) install -e '.[policy,plots]'
	touch $@

$(VENV)/.installed: pyproject.toml | $(PY)
	$(PIP) install torch==2.13.0
	$(PIP) install -e '.[dev]'
	touch $(VENV)/.run $@

setup-run: $(VENV)/.run

setup: $(VENV)/.installed

run: setup-run
	rm -rf runs/quickstart
	$(VENV)/bin/dustup tournament --agents random,easy,medium,hard,defensive,ppo --games 20 --seed 1 --out runs/quickstart

test: setup browser
	$(PY) -m pytest -n 2 --dist loadgroup tests

# Chromium from Debian's packages for the page's end-to-end test (Playwright drives it; no `playwright install`)
browser:
	@command -v chromium >/dev/null 2>&1 || { echo "installing chromium (apt-get)"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO="sudo -n"; fi; \
	  $$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq chromium >/dev/null; } \
	  || { echo "make browser: cannot install chromium (apt-get as root needed)" >&2; exit 1; }

bench: setup
	$(PY) benchmarks/bench_random_play.py

clean:
	rm -rf $(VENV) build *.egg-info
