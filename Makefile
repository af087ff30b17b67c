# Everything sets itself up: a fresh machine needs only `make run` or `make test`.
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed-stamp

.PHONY: setup system-deps run test lint bench bench-bots bench-server bench-lab clean

# Debian packages the tests need: a real browser and a real PostgreSQL server.
SYSTEM_PKGS := chromium postgresql

setup: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install -q --disable-pip-version-check -e '.[dev]'
	touch $(STAMP)

system-deps:
	@missing=""; for p in $(SYSTEM_PKGS); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing Debian packages:$$missing"; \
	  if [ "$$(id -u)" = 0 ]; then sudo=; else sudo=sudo; fi; \
	  $$sudo apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq --no-install-recommends $$missing; \
	fi

run: setup
	$(VENV)/bin/salad serve

lint: setup
	$(VENV)/bin/ruff check src tests benchmarks
	$(VENV)/bin/ruff format --check src tests benchmarks
	$(VENV)/bin/mypy

# scripts/postgres.sh runs pytest with a throwaway PostgreSQL (SALAD_TEST_POSTGRES_URL).
test: system-deps lint
	scripts/postgres.sh $(VENV)/bin/pytest

bench: setup
	$(PY) benchmarks/engine_speed.py

bench-bots: setup
	$(PY) benchmarks/bot_strength.py

bench-server: setup
	$(PY) benchmarks/server_load.py

bench-lab: setup
	$(PY) benchmarks/tournament_speed.py

clean:
	rm -rf $(VENV) build src/*.egg-info .pytest_cache .mypy_cache .ruff_cache .hypothesis
