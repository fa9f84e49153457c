# Two commands matter: `make run` and `make test`. Everything else supports them.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
DEV_STAMP := $(VENV)/.installed-dev
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test install install-dev core migrate data lint typecheck pytest expire clean messages

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

$(STAMP): requirements.txt | $(PY)
	$(PY) -m pip install --quiet -r requirements.txt
	touch $@

$(DEV_STAMP): requirements.txt requirements-dev.txt | $(PY)
	$(PY) -m pip install --quiet -r requirements-dev.txt
	touch $@ $(STAMP)

install: $(STAMP) core
install-dev: $(DEV_STAMP) core

# The compiled move generator, built in place with this machine's C compiler (a no-op when
# up to date). Without a compiler the engine runs its pure-Python generator (same plays,
# slower); WORDGAME_MOVEGEN=compiled turns that into an error, as CI does.
core: $(STAMP)
	$(VENV)/bin/cythonize -i -3 -q engine/_core.pyx || \
	  echo "warning: engine/_core.pyx not built (C compiler or Python.h missing?): the pure-Python move generator runs" >&2

migrate: install
	$(PY) manage.py migrate --noinput

# Lexicons are committed, built files; this loads the moderated word changes and the demo accounts.
data: migrate
	$(PY) manage.py setup_site --demo

## make run: install, migrate, load data, serve on http://$(HOST):$(PORT) with Daphne (SQLite + in-memory layer)
## with the task worker inside the server process (the computer's moves, deadlines, warnings, notifications, the
## sweep: what they cause reaches open pages at once on the in-memory layer); a Web
## Push key pair is made in var/vapid.json on first start
run: data
	@echo "Demo accounts (password wordgame-demo): ana and ben (players), mod (moderator). The task worker runs inside the server process."
	$(PY) manage.py vapid_keys --write var/vapid.json
	EMBEDDED_TASK_WORKER=1 $(PY) manage.py runserver $(HOST):$(PORT)

lint: install-dev
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

typecheck: install-dev
	$(PY) -m mypy --strict engine/
	$(PY) -m mypy .

pytest: install-dev
	$(PY) -m pytest -n 2 --dist loadfile $(PYTEST_ARGS)

## make test: install dev requirements, ruff, mypy (--strict on engine/), pytest
test: lint typecheck pytest

## Resign players whose turn lapsed and send reminders; run it periodically (see README).
expire: install
	$(PY) manage.py expire_games

messages: install
	$(PY) manage.py makemessages --all --ignore=.venv --ignore=static/vendor
	$(PY) manage.py compilemessages --ignore=.venv

clean:
	rm -rf $(VENV) var staticfiles build engine/_core.c engine/_core.*.so
