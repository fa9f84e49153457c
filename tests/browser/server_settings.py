"""Settings for the Daphne server the browser tests start in a second process.

The same settings as the site, pointed at the test database the pytest process created
(its name is passed in ``WORDGAME_TEST_DB_NAME``), so both processes see the same rows.
"""

from __future__ import annotations

import os

from wordgame.settings import *  # noqa: F403
from wordgame.settings import DATABASES

DATABASES["default"]["NAME"] = os.environ["WORDGAME_TEST_DB_NAME"]
# Users made by the test process are hashed with MD5 (tests/conftest.py); the browser
# tests sign in with a session cookie, but keep the hasher so a password login works too.
PASSWORD_HASHERS = [
    "django.contrib.auth.hashers.PBKDF2PasswordHasher",
    "django.contrib.auth.hashers.MD5PasswordHasher",
]
# The server runs its tasks (the computer's replies) in the request's thread, once the
# change commits:
# these tests drive pages, not the task queue (tests/games/test_tasks.py does that).
TASKS = {"default": {"BACKEND": "wordgame.task_backends.ImmediateAfterCommitBackend", "QUEUES": ["default"]}}
if os.environ.get("WORDGAME_TEST_TASKS") == "database":
    # tests/browser/test_embedded_worker.py: the queue in the database, worked by the
    # worker inside the server process (EMBEDDED_TASK_WORKER), as under `make run`.
    TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["default", "clocks"]}}
# The sign-up counter lives in Redis when it is configured and outlives a test run: the
# browser tests sign players up from 127.0.0.1 many times an hour (tests/conftest.py
# raises the limit the same way in the test process).
SIGNUP_RATE_PER_HOUR = 1000
# The chat limit counts per user id (ids come again in later tests).
CHAT_LINES_PER_MINUTE = 1000
