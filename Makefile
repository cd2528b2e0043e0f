# storechat: `make demo` and `make test` set everything up on a fresh machine.
SHELL := /bin/bash
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
NODE_STAMP := node_modules/.installed
QUESTION := What Windows PC do you have which is best for a high school student?

export PIP_DISABLE_PIP_VERSION_CHECK := 1
# The CDK (jsii under the Python app, and the CDK CLI) runs on the Node.js LTS that
# `npm ci` installs (package.json), not on whatever node the machine has.
export PATH := $(CURDIR)/node_modules/.bin:$(PATH)

.PHONY: setup demo test test-fast lint typecheck bench bench-quick load serve synth browser clean

# A new Lambda package under functions/ is a new top-level package: reinstall to find it.
$(STAMP): pyproject.toml $(wildcard functions/*/__init__.py)
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@touch $@

setup: $(STAMP)

$(NODE_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	@touch $@

# Debian's chromium drives the page tests (Playwright's own browser download is not used).
browser:
	@command -v chromium >/dev/null 2>&1 || { \
	  echo "installing Debian's chromium for the browser tests"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; }

demo: setup
	$(BIN)/storechat ask "$(QUESTION)" --trace
	@echo
	@echo "Chat in a browser: $(BIN)/storechat serve   then open http://127.0.0.1:8000/"
	@echo "Chat in the terminal: $(BIN)/storechat chat"

lint: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: setup
	$(BIN)/mypy functions storechat statemachine infra bench app.py

test: setup $(NODE_STAMP) browser lint typecheck
	$(BIN)/python -m pytest -n 2 --dist loadfile -q --durations=10

# Everything but the browser and the CDK synth, for a quick loop while editing.
test-fast: setup
	$(BIN)/python -m pytest -q tests/unit tests/integration

bench: setup
	$(BIN)/python -m bench

# Every section of the bench on tiny sizes, into a temporary folder; `make test` runs it too
# (tests/integration/test_bench_smoke.py). Its figures are not meaningful.
bench-quick: setup
	$(BIN)/python -m bench --quick

# 20 shoppers x 50 questions against the dev server on 127.0.0.1, offline model.
load: setup
	$(BIN)/python -m bench.loadtest --shoppers 20 --questions 50 --out bench/results/load.json

serve: setup
	$(BIN)/storechat serve

synth: setup $(NODE_STAMP)
	npx cdk synth -c env=dev -q

clean:
	rm -rf $(VENV) node_modules cdk.out .storechat .pytest_cache .mypy_cache .ruff_cache test-artifacts
