"""The site's ASGI application with static files served (test-only: no collectstatic,
no web server in front). Started by ``tests/browser/conftest.py`` under Daphne."""

from __future__ import annotations

import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.browser.server_settings")

from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler

from wordgame.asgi import application as site

# ProtocolTypeRouter (inside the embedded worker's starter) keeps its routes in
# .application_mapping; only HTTP needs static files.
routes = site.app.application_mapping
routes["http"] = ASGIStaticFilesHandler(routes["http"])
application = site
