# Two commands matter: `make demo` runs the bot, `make test` runs every check.
# `make test-fast` is the quick loop while working: the same checks without the tests marked slow.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: venv deps test test-fast demo web

venv: $(STAMP)

# The web table's bundle (bot/web/static/app.js) from web/src: TypeScript checked
# (tsc --noEmit), bundled by esbuild, both pinned by web/package-lock.json (npm ci).
WEB_BUNDLE := bot/web/static/app.js
WEB_NPM    := web/node_modules/.package-lock.json
web: $(WEB_BUNDLE)

$(WEB_NPM): web/package.json web/package-lock.json
	cd web && npm ci --no-audit --no-fund
	touch $(WEB_NPM)

$(WEB_BUNDLE): $(WEB_NPM) web/tsconfig.json web/build.mjs $(wildcard web/src/*.ts)
	cd web && npm run --silent check && rm -rf ../bot/web/static/chunks && npm run --silent build


# Re-install only when pyproject.toml changes; otherwise `make venv` is a no-op.
$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

# What the tests need from the machine (PostgreSQL's server for the store tests, chromium
# and the web bundle for the web table's): installed when missing, a no-op otherwise.
deps:
	bash tools/install_test_deps.sh

test: venv deps
	$(BIN)/ruff check engine bot tests tools
	$(BIN)/ruff format --check engine bot tests tools
	$(BIN)/mypy --strict engine bot
	$(BIN)/pytest -q

test-fast: venv deps
	$(BIN)/ruff check engine bot tests tools
	$(BIN)/ruff format --check engine bot tests tools
	$(BIN)/mypy --strict engine bot
	$(BIN)/pytest -q -m "not slow"

demo: venv web
	$(BIN)/python -m tools.demo
