# gotweb: `make run` serves the site at http://127.0.0.1:8000; `make test` runs every test.
# Both create .venv with python3 -m venv and install the project's dependencies into it.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1
PORT ?= 8000
IS_ROOT := $(shell [ "$$(id -u)" = 0 ] && echo yes)
# Development commands run with DEBUG=1 unless told otherwise: with DEBUG off the settings refuse
# to load without SECRET_KEY (production), and these need none.
DEV := DEBUG=$${DEBUG:-1}

.PHONY: run test messages makemessages gettext chromium nginx migrate clean

$(PY):
	$(PYTHON) -m venv $(VENV)

$(VENV)/.installed: pyproject.toml | $(PY)
	$(PY) -m pip install --quiet .
	@touch $@

$(VENV)/.installed-test: pyproject.toml | $(PY)
	$(PY) -m pip install --quiet ".[test]"
	@touch $@ $(VENV)/.installed

# GNU gettext's msgfmt compiles the translation catalogues (Debian package: gettext). Without it
# the site still runs, in English only, and the Chinese tests skip naming the package.
gettext:
	@if ! command -v msgfmt >/dev/null; then \
	  if [ "$(IS_ROOT)" = yes ] && command -v apt-get >/dev/null; then \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gettext; \
	  else \
	    echo "NOTE: msgfmt is missing, so the site runs in English only (Debian package: gettext)"; \
	  fi; \
	fi

messages: gettext $(VENV)/.installed
	@if command -v msgfmt >/dev/null; then $(DEV) $(PY) manage.py compilemessages --ignore=$(VENV) --ignore=build -v0; fi

# The browser tests drive Debian's chromium; without it they skip and say so.
chromium:
	@if [ ! -x /usr/bin/chromium ]; then \
	  if [ "$(IS_ROOT)" = yes ] && command -v apt-get >/dev/null; then \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; \
	  else \
	    echo "NOTE: /usr/bin/chromium is missing; the browser tests will skip (Debian package: chromium)"; \
	  fi; \
	fi
	@# a CJK font, so that Chinese pages in the browser tests' screenshots show characters, not boxes
	@if [ -x /usr/bin/chromium ] && ! fc-list :lang=zh 2>/dev/null | grep -q .; then \
	  if [ "$(IS_ROOT)" = yes ] && command -v apt-get >/dev/null; then \
	    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq fonts-wqy-zenhei) || true; \
	  else \
	    echo "NOTE: no Chinese font; Chinese screenshots show boxes (Debian package: fonts-wqy-zenhei)"; \
	  fi; \
	fi

# The load-balancer test puts Debian's nginx in front of two server processes (deploy/nginx.conf);
# without it that test skips and says so.
nginx:
	@if ! command -v nginx >/dev/null && [ ! -x /usr/sbin/nginx ]; then \
	  if [ "$(IS_ROOT)" = yes ] && command -v apt-get >/dev/null; then \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx-light; \
	  else \
	    echo "NOTE: nginx is missing; the load-balancer test will skip (Debian package: nginx-light or nginx)"; \
	  fi; \
	fi

# Refresh the catalogues after changing marked strings, then translate the new entries.
MAKEMESSAGES_ARGS := -l zh_Hans --no-location --ignore=.venv --ignore=build --ignore=tests --ignore=game/rules --ignore=staticfiles
makemessages: gettext $(VENV)/.installed
	$(DEV) $(PY) manage.py makemessages -d django $(MAKEMESSAGES_ARGS)
	$(DEV) $(PY) manage.py makemessages -d djangojs $(MAKEMESSAGES_ARGS)
	for po in locale/*/LC_MESSAGES/*.po; do msgattrib --no-obsolete -o $$po $$po; done

migrate: $(VENV)/.installed
	$(DEV) $(PY) manage.py migrate --noinput

# --nostatic: WhiteNoise serves the static files (compressed, gotweb/compress.py), not runserver
run: $(VENV)/.installed messages migrate
	$(DEV) $(PY) manage.py runserver --nostatic $(HOST):$(PORT)

test: $(VENV)/.installed-test messages chromium nginx
	$(PY) -m pytest $(PYTEST_ARGS)

clean:
	rm -rf $(VENV) build *.egg-info test-results .pytest_cache
	find locale -name '*.mo' -delete
