# Everything sets itself up: a fresh machine needs only `make run` or `make test`.
# `make run` installs only what the web app needs (`.[web]`); `make test` and `make lint` install
# everything (`.[dev]`), `make cluster` the web and cluster ones. Each set has its own stamp, so
# switching between them reinstalls only when needed (the dev set includes the others).

# Python writes its bytecode cache (__pycache__, git-ignored) even where the environment says not
# to: else every pytest worker rewrites every test module anew (collecting takes 7.6 s of CPU
# instead of 3.2 s) and every test server and bot worker compiles salad again.
unexport PYTHONDONTWRITEBYTECODE

VENV          := .venv
PY            := $(VENV)/bin/python
# --no-compile: a module's bytecode is written when it is first imported (see above), not for
# every module of every dependency at install (16 s of a fresh clone's set-up).
PIP           := $(PY) -m pip install -q --disable-pip-version-check --no-compile
# uv (put into the venv by pip) installs the packages: it fetches and unpacks them side by side
# where pip takes them one at a time (a fresh clone's set-up: 8 s instead of 85 s; it writes no
# bytecode either). It reads none of pip's configuration: where it cannot install (no PyPI), pip
# does.
UV            := $(VENV)/bin/uv
install        = { [ -x $(UV) ] || $(PIP) uv; } && $(UV) pip install -q --python $(PY) $(1) \
                 || $(PIP) $(1)
WEB_STAMP     := $(VENV)/.web-stamp
CLUSTER_STAMP := $(VENV)/.cluster-stamp
DEV_STAMP     := $(VENV)/.dev-stamp

.PHONY: dist docs setup setup-web system-deps run cluster test test-fast test-e2e lint lint-js protocol i18n bench bench-bots bench-server bench-cluster bench-review bench-fair bench-profile bench-lab bench-wire clean

# Debian packages the tests need: a real browser, and PostgreSQL, Redis and HAProxy for the
# cluster (docs/deploy.md); nginx for the configuration docs/deploying.md gives.
SYSTEM_PKGS := chromium postgresql redis-server haproxy nginx-light curl

setup: $(DEV_STAMP)

setup-web: $(WEB_STAMP)

$(PY):
	python3 -m venv $(VENV)

$(WEB_STAMP): pyproject.toml | $(PY)
	$(call install,-e '.[web]')
	touch $@

$(CLUSTER_STAMP): pyproject.toml | $(PY)
	$(call install,-e '.[web,cluster]')
	touch $@ $(WEB_STAMP)

$(DEV_STAMP): pyproject.toml | $(PY)
	$(call install,-e '.[dev]')
	touch $@ $(WEB_STAMP) $(CLUSTER_STAMP)

system-deps:
	@missing=""; for p in $(SYSTEM_PKGS); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing Debian packages:$$missing"; \
	  if [ "$$(id -u)" = 0 ]; then sudo=; else sudo=sudo; fi; \
	  $$sudo apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq --no-install-recommends $$missing; \
	fi

# `make run PORT=8001 HOST=0.0.0.0`: where the server listens (given on make's command line;
# := so that a HOST or PORT the shell happens to export does not choose it).
PORT := 8000
HOST := 127.0.0.1

run: setup-web
	$(VENV)/bin/salad serve --host $(HOST) --port $(PORT)

# Three nodes on PostgreSQL and Redis behind HAProxy, on this machine: http://127.0.0.1:8000/
cluster: $(CLUSTER_STAMP) system-deps
	scripts/postgres.sh scripts/cluster.sh

# The documentation site (mkdocs.yml) into site/, strict: a warning (a broken link or anchor, an
# API reference that does not resolve) fails it. Its end-of-life notice for MkDocs 1 is not one.
DOCS := NO_MKDOCS_2_WARNING=1 $(VENV)/bin/mkdocs build --strict -q

# Python: ruff, formatting, mypy --strict, the floors contract (pyproject.toml, importlinter) and
# the protocol's generated files; JavaScript: tsc --noEmit over the // @ts-check client (npm
# installs TypeScript); the documentation site's strict build. The first that fails stops it.
LINT := $(VENV)/bin/ruff check src tests benchmarks docs/griffe_doctests.py \
  && $(VENV)/bin/ruff format --check src tests benchmarks docs/griffe_doctests.py \
  && $(VENV)/bin/mypy \
  && $(VENV)/bin/lint-imports \
  && $(PY) -m salad.server.protocol_schema --check \
  && npm run -s typecheck \
  && $(DOCS)

lint: setup node_modules/.stamp
	$(LINT)

docs: setup
	$(DOCS)

# The websocket protocol's generated files (docs/protocol.schema.json, js/messages.d.ts and .js),
# written from the models of salad.server.messages; `make lint` fails while they are stale.
protocol: setup
	$(PY) -m salad.server.protocol_schema

# The catalogs (src/salad/locale/po, docs/i18n.md): the template extracted anew from the sources
# and every language's catalog brought up to it; then translate what it left empty or fuzzy
# (tests/test_locale.py fails while any is).
i18n: setup
	$(PY) -m salad.locale.tool update

# TypeScript comes from the npm registry (package-lock.json); Node.js and npm from Debian when
# the machine has none.
lint-js: node_modules/.stamp
	npm run -s typecheck

node_modules/.stamp: package.json package-lock.json
	@command -v npm >/dev/null 2>&1 || { \
	  echo "installing Debian packages: nodejs npm"; \
	  if [ "$$(id -u)" = 0 ]; then sudo=; else sudo=sudo; fi; \
	  $$sudo apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq --no-install-recommends nodejs npm; }
	npm ci --no-audit --no-fund
	touch $@

# The tests run in two passes under one throwaway PostgreSQL (scripts/postgres.sh sets
# SALAD_TEST_POSTGRES_URL): those that can share the machine on $(WORKERS) pytest-xdist workers
# (the server tests often wait on the processes they start, so a worker more than the cores
# pays; a fourth cost more than it overlapped: its collection, its browser and session server
# made a fresh clone's make test 13 s longer; loadgroup keeps each browser module on one worker,
# tests/conftest.py), then those marked serial, which measure wall or CPU time, without other
# tests (reading only the modules that hold them). A third argument is a command run beside the
# second pass, on the core those tests leave idle (its output held back until both end); a
# fourth, pytest arguments of both passes; a fifth, test modules taken out of the first pass and
# run after that command, beside the second pass too (those that only compute: they start no
# process and measure no time). Any of them failing fails the target.
# SELECT: a marker expression more, e.g. SELECT="not slow" (not with -m in ARGS, which would
# replace the passes' own); ARGS: more pytest arguments, e.g. ARGS="-x tests/server";
# WORKERS=0: no workers.
WORKERS ?= 3
PYTEST  := $(VENV)/bin/pytest
BESIDE  := $(VENV)/beside.log
define two_passes
HYPOTHESIS_PROFILE=$(2) scripts/postgres.sh sh -c '\
  $(PYTEST) -n $(WORKERS) --dist loadgroup -m "$(SELECTED)$(1)not serial" $(4) $(ARGS) \
    $(addprefix --ignore=,$(5)); parallel=$$?; \
  { $(or $(3),true); lint=$$?; \
    $(if $(5),$(PYTEST) -m "$(SELECTED)$(1)not serial" $(4) $(5) || exit $$?;) exit $$lint; \
  } >$(BESIDE) 2>&1 & beside=$$!; \
  $(PYTEST) -m "$(SELECTED)$(1)serial" --serial-modules $(4) $(ARGS); alone=$$?; \
  wait $$beside; besides=$$?; cat $(BESIDE); rm -f $(BESIDE); \
  for s in $$besides $$parallel $$alone; do [ $$s -eq 0 ] || [ $$s -eq 5 ] || exit $$s; done'
endef
# (5: a pass that SELECT or ARGS left without tests.)
SELECTED = $(if $(SELECT),($(SELECT)) and ,)

# Everything (CI runs this: .ci/run), with Hypothesis's full example counts, and lint beside the
# serial pass, then COMPUTE: the serial pass's tests mostly wait (on bots' delays, leases
# lapsing), one process at a time, leaving a core idle for most of its minute. Lint on a fresh
# clone (mypy without its cache) takes half a minute of it, COMPUTE's modules (27 s of CPU) the
# rest; the parallel pass, CPU-bound on both cores, had to share both. With SELECT or ARGS,
# COMPUTE's modules stay in the parallel pass.
COMPUTE := tests/test_batch.py tests/test_properties.py tests/test_bad_inputs.py \
  tests/test_skip_the_salad.py
# The servers the tests start (about 140 in make test) are forked from a process that has loaded
# the server's modules (tests/forked_servers.py): each is still a process of its own that runs
# `python -m salad.cli serve ...` from its start, less the 1.2 s of CPU of loading the modules
# anew (make test: about 140 s of CPU less, 70 s of its wall on 2 cores). Each worker's browser
# session server is `salad serve` started as a user starts it.
test test-fast: export SALAD_TEST_FORK_SERVERS = 1
test: setup system-deps node_modules/.stamp
	$(call two_passes,,ci,$(LINT),,$(if $(SELECT)$(ARGS),,$(COMPUTE)))

# The inner loop: everything but the browser and cluster tests (the browser modules not even
# read), fewer Hypothesis examples.
test-fast: setup
	$(call two_passes,not e2e and not cluster and ,dev,,--ignore=tests/e2e)

# Only the browser tests.
test-e2e: setup
	$(call two_passes,e2e and ,ci)

bench: setup
	$(PY) benchmarks/engine_speed.py
	$(PY) benchmarks/batch_speed.py

bench-bots: setup
	$(PY) benchmarks/bot_strength.py $(ARGS)

# The server's figures beside those of the code of git revision AGAINST (default: the code
# before issue #32), four pairs of runs, each pair's order alternated; AGAINST= skips them.
AGAINST ?= 27266ee

bench-server: setup
	$(PY) benchmarks/server_load.py
	$(if $(AGAINST),$(PY) benchmarks/server_load.py --against $(AGAINST) --rounds 4)
	$(PY) benchmarks/server_share.py

# Three nodes through HAProxy on a throwaway PostgreSQL and Redis, against one node on the same
# setup (three pairs of runs side by side, their ratios' median), then a three-node run with one
# node killed (kill -9) in its middle. ARGS="--unnamed": clients that do not name their
# table's node: HAProxy routes them by the table's hash, and a node that does not hold the table
# redirects them (4307) to the one that does. Then one cluster node beside one of the code of
# AGAINST (three pairs).
bench-cluster: setup
	scripts/postgres.sh $(PY) benchmarks/server_load.py --nodes 3 --compare --failover $(ARGS)
	$(if $(AGAINST),scripts/postgres.sh $(PY) benchmarks/server_load.py --cluster --against $(AGAINST))

bench-wire: setup
	$(PY) benchmarks/wire_encode.py

bench-review: setup
	$(PY) benchmarks/review_speed.py

# Fair work (#40): a normal table's wait under expert tables, a review's under a review flood.
bench-fair: setup
	$(PY) benchmarks/fair_work.py

bench-profile: setup
	$(PY) benchmarks/profile_speed.py $(ARGS)

bench-lab: setup
	$(PY) benchmarks/tournament_speed.py

# The sdist and the wheel of canadian-salad in dist/ (uv, which the venv has, builds them in an
# isolated environment), checked by twine (their metadata and README render as PyPI would).
dist: setup
	rm -rf dist
	$(UV) build -q --out-dir dist
	$(VENV)/bin/twine check --strict dist/*

clean:
	rm -rf $(VENV) build dist site src/*.egg-info .pytest_cache .mypy_cache .ruff_cache .hypothesis \
	  .import_linter_cache node_modules
