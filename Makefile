# AI4HSE Desk — the two commands: `make run` and `make test`.
# Each creates .venv when needed and installs everything, including the few
# Debian packages Qt needs (only those that are missing).

PYTHON ?= python3.11
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
OUT    := out
export QT_API := pyside6

.PHONY: run test lint docs bench mutate dist bundle install-desktop clean setup system-deps

$(STAMP): pyproject.toml scripts/setup-venv.sh
	@PYTHON=$(PYTHON) bash scripts/setup-venv.sh $(VENV)
	@touch $(STAMP)

setup: $(STAMP)

system-deps:
	@bash scripts/ensure-debian-packages.sh qt

## Open the window on the built-in demo database (a screenshot without a display).
run: $(STAMP) system-deps
	@bash scripts/run.sh $(BIN)

## The whole test suite (core, Qt models, widgets, PostgreSQL store) plus lint.
test: $(STAMP)
	@bash scripts/test.sh $(BIN)

lint: $(STAMP)
	$(BIN)/ruff check ai4hse_desk tests scripts
	$(BIN)/ruff format --check ai4hse_desk tests scripts
	$(BIN)/mypy

## The documentation site (MkDocs), served on loopback while you edit it.
DOCS_ADDR ?= 127.0.0.1:8000
docs: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs serve --dev-addr $(DOCS_ADDR)

## Benchmarks (figures for the issue notes): rescore throughput, peak RSS …
bench: $(STAMP)
	@bash scripts/bench.sh $(BIN)

## Mutation testing (mutmut, pinned in the `mutate` extra and installed on demand) of the
## protocol, group by group (GROUPS in scripts/mutate_groups.py; `make mutate MUTATE=metrics` for
## one); writes docs/dev/mutation.md. Slow (about a quarter of an hour on 2 cores): not
## part of `make test`.
mutate: $(STAMP)
	@nice -n 19 $(BIN)/python scripts/mutate.py $(MUTATE)

## Wheel and sdist in dist/ (python -m build).
dist: $(STAMP)
	rm -rf dist/*.whl dist/*.tar.gz
	$(BIN)/python -m build --outdir dist .

## One-folder PyInstaller bundle in dist/ai4hse-desk/.
bundle: $(STAMP)
	$(BIN)/python -m pip install -q --disable-pip-version-check "pyinstaller>=6.10"
	$(BIN)/pyinstaller --noconfirm --clean --distpath dist --workpath build/pyinstaller packaging/ai4hse-desk.spec

## Add the desk to this user's application menu (desktop entry, AppStream data, icons).
install-desktop: $(STAMP)
	@bash scripts/install-desktop.sh $(BIN)

clean:
	rm -rf $(OUT) build dist *.egg-info .pytest_cache .mypy_cache .ruff_cache
