"""Wordgame settings: one file, driven by the environment.

With no environment variables set this is a development site: DEBUG on, SQLite in
``var/`` (outside git's view), the in-memory channel layer. Production sets
``DATABASE_URL`` (PostgreSQL through psycopg 3), ``REDIS_URL`` (channels-redis),
``SECRET_KEY``, ``ALLOWED_HOSTS`` and ``DEBUG=0``.
"""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import unquote, urlsplit

import django_stubs_ext
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

# Lets generic classes such as ModelAdmin[Game] be subscripted at run time (django-stubs).
django_stubs_ext.monkeypatch()

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    """Read a boolean; anything but the usual spellings is a configuration error."""
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    lowered = raw.strip().lower()
    if lowered in {"1", "true", "yes", "on"}:
        return True
    if lowered in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(f"{name} must be a boolean (1/0, true/false), got {raw!r}")


def env_int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    try:
        return int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a whole number, got {raw!r}") from None


def env_count(name: str, default: int) -> int:
    """A whole number that must not be negative (amounts of coins, counts)."""
    value = env_int(name, default)
    if value < 0:
        raise ImproperlyConfigured(f"{name} must not be negative, got {value}")
    return value


def database_from_url(url: str) -> dict[str, object]:
    """Turn ``postgres://user:pass@host:port/name`` (or ``sqlite:///path``) into DATABASES["default"]."""
    parts = urlsplit(url)
    if parts.scheme in {"postgres", "postgresql", "pgsql"}:
        name = unquote(parts.path.lstrip("/"))
        if not name:
            raise ImproperlyConfigured("DATABASE_URL names no database")
        return {
            "ENGINE": "django.db.backends.postgresql",
            "NAME": name,
            "USER": unquote(parts.username or ""),
            "PASSWORD": unquote(parts.password or ""),
            "HOST": parts.hostname or "",
            "PORT": str(parts.port or ""),
            "CONN_MAX_AGE": env_int("DB_CONN_MAX_AGE", 60),
            "CONN_HEALTH_CHECKS": True,
        }
    if parts.scheme == "sqlite":
        return {"ENGINE": "django.db.backends.sqlite3", "NAME": unquote(parts.path) or ":memory:"}
    raise ImproperlyConfigured(
        f"DATABASE_URL scheme {parts.scheme!r} is not supported (use postgres:// or sqlite://)"
    )


DEBUG = env_bool("DEBUG", True)

SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off")
    # Development only: a fixed key is fine because DEBUG sites are never public.
    SECRET_KEY = "dev-only-insecure-key-do-not-use-in-production"

ALLOWED_HOSTS = [h.strip() for h in os.environ.get("ALLOWED_HOSTS", "").split(",") if h.strip()]
if not ALLOWED_HOSTS:
    if not DEBUG:
        raise ImproperlyConfigured("ALLOWED_HOSTS must be set when DEBUG is off (comma-separated host names)")
    ALLOWED_HOSTS = ["localhost", "127.0.0.1", "[::1]", "testserver"]
CSRF_TRUSTED_ORIGINS = [o.strip() for o in os.environ.get("CSRF_TRUSTED_ORIGINS", "").split(",") if o.strip()]

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "channels",
    "django_htmx",
    "django_tasks",
    "django_tasks_db",
    # django-ninja's templates and its bundled Swagger UI (the API docs load nothing from a CDN).
    "ninja",
    "accounts",
    "dictionaries",
    "games",
    "tournaments",
    "api",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    # Under /api/ every error is JSON, whoever produced it (the URL resolver, a 405, a 500).
    "api.middleware.JsonErrorsMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "accounts.middleware.UserLanguageMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "accounts.middleware.daily_bonus_middleware",
]

ROOT_URLCONF = "wordgame.urls"
WSGI_APPLICATION = None
ASGI_APPLICATION = "wordgame.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

VAR_DIR = Path(os.environ.get("VAR_DIR", BASE_DIR / "var"))

if database_url := os.environ.get("DATABASE_URL"):
    DATABASES = {"default": database_from_url(database_url)}
else:
    VAR_DIR.mkdir(parents=True, exist_ok=True)
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": VAR_DIR / "db.sqlite3",
            # Games lock their row per action; on SQLite that means waiting for the
            # single writer rather than failing at once.
            "OPTIONS": {"timeout": 20, "transaction_mode": "IMMEDIATE"},
            # A file, not memory, so tests can share the test database with a second
            # process (a Daphne server for the browser, another worker for live lexicons),
            # which they tell its name; one file per test run, so runs never collide.
            "TEST": {"NAME": str(VAR_DIR / f"test-db-{os.getpid()}.sqlite3")},
        }
    }

CHANNEL_LAYERS: dict[str, dict[str, object]] = {
    "default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}
}
if redis_url := os.environ.get("REDIS_URL"):
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": [redis_url]},
        }
    }

# The cache shared by every process (the API's rate limits): Redis when configured,
# otherwise local memory (one process, as in development).
CACHES: dict[str, dict[str, object]] = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "wordgame"}
}
if redis_url:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": redis_url,
            "KEY_PREFIX": "wordgame",
        }
    }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
AUTH_USER_MODEL = "accounts.User"
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "games:lobby"
LOGOUT_REDIRECT_URL = "home"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# Interface languages (separate from the seven game languages, which live in engine/).
LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", _("English")),
    ("fr", _("French")),
    ("es", _("Spanish")),
    ("pt-br", _("Portuguese (Brazil)")),
    ("de", _("German")),
    ("sv", _("Swedish")),
    ("it", _("Italian")),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", BASE_DIR / "staticfiles"))
FIXTURE_DIRS = [BASE_DIR / "fixtures"]

# Built lexicons (memory-mapped word graphs) and the normalised word lists.
LEXICON_DIR = Path(os.environ.get("LEXICON_DIR", BASE_DIR / "fixtures" / "lexicons"))

# Game settings.
MAX_ACTIVE_GAMES = env_int("MAX_ACTIVE_GAMES", 40)
INACTIVITY_DAYS_RANDOM = env_int("INACTIVITY_DAYS_RANDOM", 5)
INACTIVITY_DAYS_FRIEND = env_int("INACTIVITY_DAYS_FRIEND", 11)

# Tournaments: the spread a bye and a forfeit count for (as TSH records them), the
# defaults for a new tournament, which keeps its own.
TOURNAMENT_BYE_SPREAD = env_int("TOURNAMENT_BYE_SPREAD", 50)
TOURNAMENT_FORFEIT_SPREAD = env_int("TOURNAMENT_FORFEIT_SPREAD", 50)

# Background work (games/tasks.py): Django's task framework, tasks stored in the database
# and run by `manage.py db_worker` (as many workers, on as many machines, as needed).
# TASKS_BACKEND=immediate runs each task at once in the process that enqueues it (tests).
TASKS_BACKEND = os.environ.get("TASKS_BACKEND", "database")
if TASKS_BACKEND not in {"database", "immediate"}:
    raise ImproperlyConfigured("TASKS_BACKEND must be 'database' or 'immediate'")
TASKS = {
    "default": {
        "BACKEND": (
            "django_tasks_db.DatabaseBackend"
            if TASKS_BACKEND == "database"
            else "django_tasks.backends.immediate.ImmediateBackend"
        ),
        "QUEUES": ["default"],
    }
}
# Seconds after which a computer turn not played yet is enqueued again (its worker may
# have been killed mid-thought; the game's version makes a duplicate harmless).
COMPUTER_WATCHDOG_SECONDS = env_int("COMPUTER_WATCHDOG_SECONDS", 30)
# The least time the computer takes to answer (a human-looking pause); 0: at once.
COMPUTER_MIN_THINK_SECONDS = env_int("COMPUTER_MIN_THINK_SECONDS", 0)
# Paid extras: their prices in coins, and how long a position's play scores stay cached
# for word strength.
EXTRA_PRICE_TILE_BAG = env_int("EXTRA_PRICE_TILE_BAG", 5)
EXTRA_PRICE_HINDSIGHT = env_int("EXTRA_PRICE_HINDSIGHT", 10)
EXTRA_PRICE_WORD_STRENGTH = env_int("EXTRA_PRICE_WORD_STRENGTH", 10)
STRENGTH_CACHE_SECONDS = env_int("STRENGTH_CACHE_SECONDS", 3600)
# Study list: a play that left at least this many points on the table is collected
# (missed bingos always are).
STUDY_MIN_POINTS_LEFT = env_int("STUDY_MIN_POINTS_LEFT", 15)
# How often the safety-net sweep (lapsed deadlines, reminders, stuck computer turns) runs.
SWEEP_INTERVAL_SECONDS = env_int("SWEEP_INTERVAL_SECONDS", 900)

# Coins (accounts.services): what a player earns. 0 switches an earning off.
COINS_SIGNUP = env_count("COINS_SIGNUP", 50)
COINS_DAILY_BONUS = env_count("COINS_DAILY_BONUS", 5)
COINS_GAME_FINISHED = env_count("COINS_GAME_FINISHED", 5)
COINS_GAME_WON = env_count("COINS_GAME_WON", 5)
# Both players must have made this many moves for a finished game (or a win) to earn coins.
COINS_GAME_MIN_MOVES = env_count("COINS_GAME_MIN_MOVES", 3)
# Players: days of vacation a year (inactivity clocks paused), and the Glicko-2 rating
# period (a player's rating deviation widens with each period without a rated game).
VACATION_DAYS_PER_YEAR = env_int("VACATION_DAYS_PER_YEAR", 21)
RATING_PERIOD_DAYS = env_int("RATING_PERIOD_DAYS", 7)
# The JSON API (/api/v1/): requests per token per minute, counted in the cache above.
# Writes change something (a game, a move); look-ups read (a game, a word, a preview).
# Token requests (username and password) are counted per client address.
API_WRITES_PER_MINUTE = env_int("API_WRITES_PER_MINUTE", 60)
API_LOOKUPS_PER_MINUTE = env_int("API_LOOKUPS_PER_MINUTE", 300)
API_TOKEN_REQUESTS_PER_MINUTE = env_int("API_TOKEN_REQUESTS_PER_MINUTE", 10)
# Personal tokens a player may hold at once (revoke one on /accounts/tokens/ to make room).
API_MAX_TOKENS = env_int("API_MAX_TOKENS", 20)
# The event stream sends an empty line after this many quiet seconds (keeps proxies and
# clients from taking a quiet stream for a dead one).
API_STREAM_KEEPALIVE_SECONDS = env_int("API_STREAM_KEEPALIVE_SECONDS", 15)

# Mail (turn reminders). Development prints mail to the console; production sets SMTP.
EMAIL_BACKEND = os.environ.get(
    "EMAIL_BACKEND",
    "django.core.mail.backends.console.EmailBackend"
    if DEBUG
    else "django.core.mail.backends.smtp.EmailBackend",
)
EMAIL_HOST = os.environ.get("EMAIL_HOST", "localhost")
EMAIL_PORT = env_int("EMAIL_PORT", 25)
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Wordgame <noreply@localhost>")

if not DEBUG:
    SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", True)
    CSRF_COOKIE_SECURE = env_bool("SECURE_COOKIES", True)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    # Daphne's runserver logs each request through its own handler already.
    "loggers": {"django.channels.server": {"propagate": False}},
}
