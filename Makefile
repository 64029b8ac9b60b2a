# batak-bot: the two commands people need are `make run` and `make test`.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
PIP    := $(PY) -m pip

.PHONY: run test lint types check docs play bench bench-quick e2e-bench gallery fuzz chaos chaos-pg \
	clean native fonts

# The first run is quiet work of a few minutes (the venv, the packages, then compiling the
# simulator): each step says so before it starts.
$(VENV)/.installed: pyproject.toml
	@echo "batak-bot: creating the virtual environment in $(VENV) and installing the packages" \
	     "(first run: up to a few minutes)..."
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip
	$(PIP) install --quiet -e .
	touch $@

$(VENV)/.installed-test: $(VENV)/.installed pyproject.toml
	$(PIP) install --quiet -e '.[test]'
	touch $@

# The simulator, the play rules and the solver compiled with mypyc (pinned in pyproject's
# `native` extra) by the machine's C compiler; rebuilt when their sources change. If the
# build fails the pure-Python modules run instead (same decisions, slower) and make goes on.
NATIVE_SOURCES := build_native.py batak/play.py batak/ai/sim.py batak/solver.py batak/_solver_core.c
$(VENV)/.native: $(VENV)/.installed pyproject.toml $(NATIVE_SOURCES)
	@echo "batak-bot: compiling the simulator, the play rules and the solver with mypyc" \
	     "(first run: up to a few minutes)..."
	$(PIP) install --quiet -e '.[native]'
	@$(PY) build_native.py >$(VENV)/native-build.log 2>&1 || { \
	  $(PY) build_native.py clean >/dev/null; \
	  echo "note: compiling the simulator failed (see $(VENV)/native-build.log);" \
	       "the pure-Python modules run instead"; }
	touch $@

native: $(VENV)/.native

# The fallback fonts of the pictures (emoji, other scripts), from Debian: installed
# when missing and apt-get can be used, else one line says what to install; never fails.
fonts:
	@sh ops/fonts.sh

# bot.py exits 2 when it cannot start and has said why (no token yet, a refused token, a
# bad setting or database): that is the end of `make run`, not a failure of make's own.
run: $(VENV)/.installed $(VENV)/.native fonts
	@$(PY) bot.py || [ $$? -eq 2 ]

lint: $(VENV)/.installed-test
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .

types: $(VENV)/.installed-test
	$(PY) -m mypy --strict batak images data ops tables cogs locales discordspec bot.py \
	  docs/griffe_docstrings.py

# The slash command list against Discord's rules (no token, database or connection).
check: $(VENV)/.installed
	$(PY) bot.py --check

# The documentation site (mkdocs.yml, docs/): --strict makes a broken link, a missing
# anchor or a docstring of the API reference that does not render an error.
SITE ?= .site
docs: $(VENV)/.installed-test
	$(PY) -m mkdocs build --strict --quiet --site-dir $(SITE)

# The suite runs on TEST_WORKERS pytest-xdist processes (1: one process, no xdist). Most
# of its time is the end-to-end tests waiting on a bot process and the fake Discord, so
# four workers keep two cores busy; worksteal hands a long test's neighbours to idle ones.
TEST_WORKERS ?= 4
test: lint types check docs bench-quick $(VENV)/.native fonts
	$(PY) -m pytest -q $(if $(filter 1,$(TEST_WORKERS)),-p no:xdist,-n $(TEST_WORKERS) --dist worksteal)

# A long attack on the engine's doors (records, actions); prints what it did.
FUZZ_EXAMPLES ?= 20000
fuzz: $(VENV)/.installed-test
	BATAK_FUZZ_EXAMPLES=$(FUZZ_EXAMPLES) $(PY) -m pytest -q -s tests/engine/test_engine_fuzz.py

play: $(VENV)/.installed
	$(PY) -m batak play

# Every bench at full size (minutes). The storage bench runs where DATABASE_URL points
# (.env included), else on SQLite files in a temporary folder.
bench: $(VENV)/.installed $(VENV)/.native
	$(PY) -m batak bench
	$(PY) -m batak playout-bench
	$(PY) -m batak decision-bench
	$(PY) -m batak solve-bench
	$(PY) -m batak review-bench
	$(PY) -m images bench
	$(PY) -m images replay-bench
	$(PY) -m data bench

# Every bench on small sizes, a few seconds each, so that `make test` fails when one no
# longer runs; the figures it prints measure nothing. The storage bench runs on SQLite
# (never on the bot's own DATABASE_URL), and on PostgreSQL too when TEST_DATABASE_URL
# names a server (.ci/run), in a temporary database there.
bench-quick: $(VENV)/.installed $(VENV)/.native
	$(PY) -m batak bench --seconds 0.3
	$(PY) -m batak playout-bench --seconds 0.3
	$(PY) -m batak decision-bench --deals 1 --levels hard
	$(PY) -m batak solve-bench --deals 1
	$(PY) -m batak review-bench --deals 1 --presets standard,esli
	$(PY) -m images bench -n 4
	$(PY) -m images replay-bench -n 1
	$(PY) -m data bench --url '' --matches 500 --actions 50 --tables 10 --moves 5 --played 2
	$(if $(TEST_DATABASE_URL),$(PY) -m data bench --url '$(TEST_DATABASE_URL)' --matches 500 --actions 50 --tables 10 --moves 5)

gallery: $(VENV)/.installed
	$(PY) -m images gallery gallery

e2e-bench: $(VENV)/.installed-test
	$(PY) -m tests.fakediscord.bench --tables 200

# SIGKILL the real bot >= 50 times (some right after a match is recorded) against the
# fake Discord; prints kills survived, lost / duplicated moves and stranded tables.
# 50 SIGKILLs (KILLS=n) on SQLite; on PostgreSQL too when TEST_DATABASE_URL is set.
chaos: $(VENV)/.installed-test
	$(PY) -m tests.bot.chaos --sqlite --kills $(or $(KILLS),50)
	$(if $(TEST_DATABASE_URL),$(PY) -m tests.bot.chaos --database-url '$(TEST_DATABASE_URL)' --kills $(or $(KILLS),50))

# The same on a throwaway PostgreSQL cluster with fsync and synchronous commits on.
chaos-pg: $(VENV)/.installed-test
	@dir=$$(mktemp -d); url=$$(PG_CLUSTER_DURABLE=1 tests/pg_cluster.sh start $$dir/pg) || exit 1; \
	$(PY) -m tests.bot.chaos --database-url "$$url" --kills $(or $(KILLS),50); rc=$$?; \
	tests/pg_cluster.sh stop $$dir/pg; rmdir $$dir; exit $$rc

clean:
	-$(PY) build_native.py clean
	rm -rf $(VENV) build .mypy_cache .pytest_cache .ruff_cache .hypothesis $(SITE)
