# The two commands: `make play` and `make test`.  Both set themselves up in .venv first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# Two stamps: play needs Ludorum alone (no extras), test every extra; a venv made for test also plays.
CORE := $(VENV)/.core
STAMP := $(VENV)/.installed
EXTRAS := dev,docs,lab,rl,train,postgres,bench
# MkDocs 1.x and its plugins print notices about its future on every build; they are not about this site
MKDOCS := NO_MKDOCS_2_WARNING=1 DISABLE_MKDOCS_2_WARNING=true $(BIN)/mkdocs

.PHONY: play test bench lint venv clean screenshots soak docs

$(CORE): pyproject.toml constraints.txt
	@# Debian splits venv out of python3; as root, fetch it with apt when it is missing.
	@$(PYTHON) -c 'import ensurepip' 2>/dev/null || { [ "$$(id -u)" = 0 ] && \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv; } || \
	  { echo "Please install python3-venv (sudo apt install python3-venv)"; exit 1; }
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet -c constraints.txt -e .
	touch $(CORE)

$(STAMP): $(CORE)
	$(BIN)/pip install --quiet --upgrade pip
	@# torch first and pinned: its CPU wheel (docs/rl.md); an unpinned torch would pull a CUDA build of GBs.
	$(BIN)/pip install --quiet -c constraints.txt torch==2.13.0
	$(BIN)/pip install --quiet -c constraints.txt -e '.[$(EXTRAS)]'
	touch $(STAMP)

venv: $(STAMP)

## play: start Ludorum (the web server with bots on an embedded database; it prints its URL).
## It installs Ludorum alone (no extras: about 100 MB); `make test` installs everything.
play: $(CORE)
	$(BIN)/ludorum start

## test: run the whole suite (lint, types, unit, conformance, server, browser)
test: $(STAMP)
	$(BIN)/ruff check ludorum tests
	$(BIN)/ruff format --check ludorum tests
	$(BIN)/mypy
	$(BIN)/python -m pytest -n 2 --dist loadfile
	$(MKDOCS) build --strict --quiet

## docs: build the documentation site into build/site/ (open build/site/index.html)
docs: $(STAMP)
	$(MKDOCS) build --strict

## bench: print speed figures (decisions/s, clone cost, server latency)
bench: $(STAMP)
	$(BIN)/python -m ludorum.bench speed

## soak: the conformance kit over 5,000 seeded random games per game, on every core (hours; not CI)
soak: $(STAMP)
	$(BIN)/ludorum soak

## screenshots: refresh docs/screenshots/ from the browser tests (make test writes them to build/ only)
screenshots: $(STAMP)
	LUDORUM_SCREENSHOTS=$(CURDIR)/docs/screenshots $(BIN)/python -m pytest -m browser -n 0 tests/browser

lint: $(STAMP)
	$(BIN)/ruff check ludorum tests
	$(BIN)/ruff format --check ludorum tests
	$(BIN)/mypy
	$(BIN)/lint-imports --no-cache

clean:
	rm -rf $(VENV) build *.egg-info
