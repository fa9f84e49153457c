"""Settings for the Daphne processes the production tests start: the site's own settings
(read from the environment those tests give them), pointed at the test database the
pytest process created (``WORDGAME_TEST_DB_NAME``), so every process sees the same rows."""

from __future__ import annotations

import os

from wordgame.settings import *  # noqa: F403
from wordgame.settings import DATABASES

DATABASES["default"]["NAME"] = os.environ["WORDGAME_TEST_DB_NAME"]
# Users made by the test process are hashed with MD5 (tests/conftest.py).
PASSWORD_HASHERS = [
    "django.contrib.auth.hashers.PBKDF2PasswordHasher",
    "django.contrib.auth.hashers.MD5PasswordHasher",
]
