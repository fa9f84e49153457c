"""Wordgame settings: one file, driven by the environment.

With no environment variables set this is a development site: DEBUG on, SQLite in
``var/`` (outside git's view), the in-memory channel layer. Production sets
``DATABASE_URL`` (PostgreSQL through psycopg 3), ``REDIS_URL`` (channels-redis),
``SECRET_KEY``, ``ALLOWED_HOSTS`` and ``DEBUG=0``.
"""

from __future__ import annotations

import ipaddress
import json
import os
from datetime import timedelta
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import django_stubs_ext
from csp.constants import NONE, SELF
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
        pool_min, pool_max = env_int("DB_POOL_MIN_SIZE", 2), env_int("DB_POOL_MAX_SIZE", 10)
        if not 0 <= pool_min <= pool_max or pool_max < 1:
            raise ImproperlyConfigured(
                f"DB_POOL_MIN_SIZE ({pool_min}) must be between 0 and DB_POOL_MAX_SIZE ({pool_max}), "
                "and DB_POOL_MAX_SIZE at least 1"
            )
        database: dict[str, Any] = {
            "ENGINE": "django.db.backends.postgresql",
            "NAME": name,
            "USER": unquote(parts.username or ""),
            "PASSWORD": unquote(parts.password or ""),
            "HOST": parts.hostname or "",
            "PORT": str(parts.port or ""),
            # Django's psycopg pool, not persistent per-thread connections: under ASGI every
            # request runs in a thread of its own, so CONN_MAX_AGE kept one connection per
            # thread until PostgreSQL refused more. The pool bounds a process's connections
            # (DB_POOL_MAX_SIZE); a request waits up to DB_POOL_TIMEOUT seconds for one.
            # The pool requires CONN_MAX_AGE = 0 (a connection goes back after each request).
            "CONN_MAX_AGE": 0,
            "OPTIONS": {
                "pool": {
                    "min_size": pool_min,
                    "max_size": pool_max,
                    "timeout": env_int("DB_POOL_TIMEOUT", 10),
                },
            },
            # With the pool this makes it check a connection as it hands it out: one that
            # PostgreSQL dropped (a restart, pg_terminate_backend) is replaced, not failed
            # on first use.
            "CONN_HEALTH_CHECKS": True,
        }
        if env_bool("DATABASE_PGBOUNCER", False):
            behind_pgbouncer(database)
        return database
    if parts.scheme == "sqlite":
        return {"ENGINE": "django.db.backends.sqlite3", "NAME": unquote(parts.path) or ":memory:"}
    raise ImproperlyConfigured(
        f"DATABASE_URL scheme {parts.scheme!r} is not supported (use postgres:// or sqlite://)"
    )


def behind_pgbouncer(database: dict[str, Any]) -> None:
    """What changes in ``database`` behind PgBouncer in transaction mode (``DATABASE_PGBOUNCER=1``,
    ``deploy/pgbouncer/``): each transaction may run on another server connection, so
    nothing may outlive a transaction on the server. psycopg prepares a statement run
    five times on one connection (``prepare_threshold``), and Debian 12's PgBouncer 1.18
    cannot carry prepared statements: never prepare (Django passes None unless OPTIONS
    say otherwise; set here so that nobody does). Django's ``.iterator()`` opens a
    server-side cursor (a named cursor, held across fetches): fetch everything at once."""
    database["OPTIONS"]["prepare_threshold"] = None
    database["DISABLE_SERVER_SIDE_CURSORS"] = True


def redis_layer_host(url: str) -> dict[str, object]:
    """channels-redis's connection settings for ``url``.

    channels-redis waits for a message with a blocking read of up to 5 seconds
    (``BZPOPMIN``), and redis-py 8 gives up any read after ``socket_timeout``, also 5
    seconds by default: the two raced and every idle WebSocket was closed (code 1011)
    every few seconds. The read timeout must be well above the blocking read.

    No automatic retry: when Redis goes away, the blocking read must fail at once, so
    the consumer ends and its client reconnects and joins its groups again (a restarted
    Redis has lost them). A retried read would wait on, subscribed to nothing. Sends are
    retried once instead, in ``wordgame.channel_layer.RedisChannelLayer``.
    """
    return {
        "address": url,
        "socket_timeout": 30,
        "socket_connect_timeout": 5,
        "socket_keepalive": True,
        "health_check_interval": 30,
    }


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
    # django-ninja's templates and its bundled Swagger UI (the API docs load nothing from a CDN).
    "ninja",
    "axes",
    "csp",
    "accounts",
    "dictionaries",
    "games",
    "notifications",
    "tournaments",
    "puzzles",
    "api",
    # After games: games' `manage.py db_worker` (the framework's worker, recovering the
    # tasks of killed workers) overrides this app's command of the same name.
    "django_tasks_db",
    # OAuth 2.0 for third-party apps (api/oauth.py): authorisation code with PKCE.
    "oauth2_provider",
]

MIDDLEWARE = [
    "wordgame.middleware.access_log",
    "django.middleware.security.SecurityMiddleware",
    "wordgame.middleware.static_files",  # WhiteNoise, kept async-capable
    "csp.middleware.CSPMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    # Under /api/ every error is JSON, whoever produced it (the URL resolver, a 405, a 500).
    "api.middleware.JsonErrorsMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "accounts.middleware.UserLanguageMiddleware",
    "notifications.middleware.UserTimeZoneMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "accounts.middleware.daily_bonus_middleware",
    # Last, as django-axes requires: it turns a lock-out into the "too many attempts" page.
    "axes.middleware.AxesMiddleware",
    "wordgame.middleware.one_thread",
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
                "accounts.context_processors.notices",
                "notifications.context_processors.bell",
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
CACHES: dict[str, dict[str, object]] = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
}
if redis_url := os.environ.get("REDIS_URL"):
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "wordgame.channel_layer.RedisChannelLayer",
            "CONFIG": {
                "hosts": [redis_layer_host(redis_url)],
                # Sites (or parallel test runs) sharing one Redis keep their groups apart.
                "prefix": os.environ.get("CHANNEL_LAYER_PREFIX", "asgi"),
            },
        }
    }
    # Shared by every process: the sign-up rate limit and the API's rate limits count here,
    # word strength keeps a position's play scores here.
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": redis_url,
            "KEY_PREFIX": os.environ.get("CACHE_KEY_PREFIX", "wordgame"),
            "OPTIONS": {"socket_timeout": 5, "socket_connect_timeout": 5, "retry_on_timeout": True},
        }
    }


DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
AUTH_USER_MODEL = "accounts.User"
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "games:lobby"
LOGOUT_REDIRECT_URL = "home"

# django-axes counts failed log-ins per user name and client address (in the database, so
# every worker shares the count) and refuses that pair for a while after too many.
AUTHENTICATION_BACKENDS = [
    "accounts.throttling.LoginThrottleBackend",
    "django.contrib.auth.backends.ModelBackend",
    # Last: the name an account had before the case-insensitive rename (accounts 0006).
    "accounts.backends.RenamedUsernameBackend",
]
AXES_FAILURE_LIMIT = env_int("LOGIN_FAILURE_LIMIT", 5)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("LOGIN_COOLOFF_MINUTES", 15))
# Failures are counted; successful log-ins are not logged by axes (the access log has every
# request), so an API token request creates no session.
AXES_DISABLE_ACCESS_LOG = True
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
# Failed log-ins from one address across all user names (password spraying) before that
# address is locked out too (accounts/login_failures.py).
AXES_HANDLER = "accounts.login_failures.LoginFailuresHandler"
LOGIN_ADDRESS_FAILURE_LIMIT = env_int("LOGIN_ADDRESS_FAILURE_LIMIT", 20)
AXES_RESET_ON_SUCCESS = True
# Quiet: no banner at start, and its logger only for errors (LOGGING below); every log-in
# attempt is one JSON line of accounts.logins instead of axes's five.
AXES_VERBOSE = False
AXES_LOCKOUT_CALLABLE = "accounts.throttling.locked_out"
# The address Daphne reports (behind nginx, the client's, with --proxy-headers); the
# sign-up rate limit uses the same.
AXES_CLIENT_IP_CALLABLE = "accounts.throttling.client_ip"
AXES_USERNAME_CALLABLE = "accounts.throttling.username_key"
# Sign-up attempts (POSTs) allowed per client address per hour.
SIGNUP_RATE_PER_HOUR = env_int("SIGNUP_RATE_PER_HOUR", 10)

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
# WhiteNoise serves static files from the Django process (nginx serves them first in the
# deploy/ configuration). In production they are compressed and their names hashed by
# collectstatic, in the ES modules' imports too (wordgame/storage.py); in development and tests they come from the source folders as they are,
# so nothing needs collecting.
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "wordgame.storage.StaticFilesStorage"
    },
}
WHITENOISE_USE_FINDERS = DEBUG
WHITENOISE_AUTOREFRESH = DEBUG
FIXTURE_DIRS = [BASE_DIR / "fixtures"]

# Built lexicons (memory-mapped word graphs) and the normalised word lists.
LEXICON_DIR = Path(os.environ.get("LEXICON_DIR", BASE_DIR / "fixtures" / "lexicons"))

# Game settings.
MAX_ACTIVE_GAMES = env_int("MAX_ACTIVE_GAMES", 40)
# Words a player may suggest for the dictionaries in 24 hours.
WORD_SUGGESTIONS_PER_DAY = env_int("WORD_SUGGESTIONS_PER_DAY", 10)
# Friend invitations one player may have waiting for an answer at once (received ones do
# not count against the invitee's MAX_ACTIVE_GAMES until accepted).
MAX_PENDING_INVITATIONS = env_int("MAX_PENDING_INVITATIONS", 10)
# Chat lines one player may send a minute, all games together (accounts/ratelimit.py).
CHAT_LINES_PER_MINUTE = env_int("CHAT_LINES_PER_MINUTE", 20)
INACTIVITY_DAYS_RANDOM = env_int("INACTIVITY_DAYS_RANDOM", 5)
INACTIVITY_DAYS_FRIEND = env_int("INACTIVITY_DAYS_FRIEND", 11)
# Live games (games/pace.py, games/clocks.py). LIVE_CLOCK_SECONDS, for tests only: every
# live clock gets that many seconds instead of its minutes (0: off).
LIVE_CLOCK_SECONDS = env_int("LIVE_CLOCK_SECONDS", 0)
# A live game whose first player has not moved this long after it began is aborted.
LIVE_ABORT_SECONDS = env_int("LIVE_ABORT_SECONDS", 60)
# Open seeks (games/seeks.py): players meet within SEEK_WINDOW rating points each way,
# SEEK_WIDEN more for each minute (live) or hour (correspondence) a request waited; a
# live request offers its player the computer after SEEK_COMPUTER_AFTER_SECONDS.
SEEK_WINDOW = env_int("SEEK_WINDOW", 200)
SEEK_WIDEN = env_int("SEEK_WIDEN", 100)
SEEK_COMPUTER_AFTER_SECONDS = env_int("SEEK_COMPUTER_AFTER_SECONDS", 30)

# Tournaments: the spread a bye and a forfeit count for (as TSH records them), the
# defaults for a new tournament, which keeps its own.
TOURNAMENT_BYE_SPREAD = env_int("TOURNAMENT_BYE_SPREAD", 50)
TOURNAMENT_FORFEIT_SPREAD = env_int("TOURNAMENT_FORFEIT_SPREAD", 50)

# Background work (games/tasks.py): Django's task framework, tasks stored in the database
# and run by `manage.py db_worker` (as many workers, on as many machines, as needed).
# TASKS_BACKEND=immediate runs each task in the process that enqueues it, once the
# enclosing transaction commits (tests; wordgame/task_backends.py).
TASKS_BACKEND = os.environ.get("TASKS_BACKEND", "database")
if TASKS_BACKEND not in {"database", "immediate"}:
    raise ImproperlyConfigured("TASKS_BACKEND must be 'database' or 'immediate'")
TASKS = {
    "default": {
        "BACKEND": (
            "django_tasks_db.DatabaseBackend"
            if TASKS_BACKEND == "database"
            else "wordgame.task_backends.ImmediateAfterCommitBackend"
        ),
        # "clocks": live games' flags (games/clocks.py), run by a worker of its own.
        "QUEUES": ["default", "clocks"],
    }
}
# Seconds after which a computer turn not played yet is enqueued again (its worker may
# have been killed mid-thought; the game's version makes a duplicate harmless).
COMPUTER_WATCHDOG_SECONDS = env_int("COMPUTER_WATCHDOG_SECONDS", 30)
# Tasks whose worker died (games/worker.py): a task still running after its lease is taken
# back and queued again (at once when its worker, on the same host, no longer exists);
# one claimed this many times is failed instead; each worker checks this often.
TASK_LEASE_SECONDS = env_int("TASK_LEASE_SECONDS", 600)
TASK_MAX_ATTEMPTS = env_int("TASK_MAX_ATTEMPTS", 3)
TASK_LEASE_CHECK_SECONDS = env_int("TASK_LEASE_CHECK_SECONDS", 60)
# The least time the computer takes to answer (a human-looking pause); 0: at once.
COMPUTER_MIN_THINK_SECONDS = env_int("COMPUTER_MIN_THINK_SECONDS", 0)
# In a live game the computer answers this long after its turn began (a delayed start).
COMPUTER_LIVE_THINK_SECONDS = env_int("COMPUTER_LIVE_THINK_SECONDS", 2)
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


def env_gc_thresholds(name: str, default: tuple[int, int, int]) -> tuple[int, int, int]:
    raw = os.environ.get(name, "")
    if not raw:
        return default
    parts = raw.split(",")
    if len(parts) != 3 or not all(p.strip().isdigit() and int(p) > 0 for p in parts):
        raise ImproperlyConfigured(
            f"{name} must be three positive whole numbers, e.g. 10000,20,50; got {raw!r}"
        )
    first, second, third = (int(p) for p in parts)
    return first, second, third


# The server process's garbage collector (wordgame.asgi): thresholds for gc.set_threshold.
# Python's default is 700,10,10; full collections of a process holding a thousand
# connections took 60-200 ms each, several a minute (docs/benchmarks.md). The young
# generations keep Python's thresholds (larger ones made their own pauses 50-65 ms).
GC_THRESHOLDS = env_gc_thresholds("GC_THRESHOLDS", (700, 10, 1000))

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

# OAuth 2.0 for third-party apps (django-oauth-toolkit, api/oauth.py): the authorisation
# code flow, PKCE required (an app on a phone keeps no secret), three scopes. Apps are
# registered by staff in the admin. An access token lasts an hour; the player sees and
# revokes each app's grant beside their personal tokens (/accounts/tokens/).
OAUTH2_PROVIDER = {
    "SCOPES": {
        "read": _("See your games, profile, friends and study list"),
        "play": _("Play and manage your games, invitations, friends and settings"),
        "chat": _("Read and write in your games' chat"),
    },
    "DEFAULT_SCOPES": ["read"],
    "PKCE_REQUIRED": True,
    "ACCESS_TOKEN_EXPIRE_SECONDS": env_int("OAUTH_ACCESS_TOKEN_SECONDS", 3600),
    "ROTATE_REFRESH_TOKEN": True,
    # The OAuth 2.0 Security Best Current Practice (RFC 9700), before the toolkit's 4.0
    # makes it the default: no implicit or password grant, PKCE with S256 only, tokens
    # never in a URL, the issuer in the authorisation response, hashed token storage, a
    # replayed refresh token revokes its family, https redirect URIs only.
    "COMPLIANT_BCP_RFC9700_IMPLICIT_GRANT": True,
    "COMPLIANT_BCP_RFC9700_PASSWORD_GRANT": True,
    "COMPLIANT_BCP_RFC9700_PKCE_METHOD": True,
    "COMPLIANT_BCP_RFC9700_ACCESS_TOKEN_TRANSPORT": True,
    "COMPLIANT_BCP_RFC9700_AUTHZ_RESPONSE_ISS": True,
    "COMPLIANT_BCP_RFC9700_TOKEN_STORAGE": True,
    "REFRESH_TOKEN_REUSE_PROTECTION": True,
    "ALLOWED_REDIRECT_URI_SCHEMES": ["https"],
}

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
# The site's address as players reach it: the links in mails are absolute (notifications).
SITE_URL = os.environ.get("SITE_URL", "http://localhost:8000")
# A notification's delivery on a channel is tried this often, the n-th retry after
# NOTIFICATION_RETRY_SECONDS x 2^(n-1) (notifications/tasks.py).
NOTIFICATION_ATTEMPTS = env_int("NOTIFICATION_ATTEMPTS", 5)
NOTIFICATION_RETRY_SECONDS = env_int("NOTIFICATION_RETRY_SECONDS", 60)
# Deadline warnings, hours before a turn lapses (each at most once per turn, none longer
# than the turn), and how far a lapsed deadline moves when no warning reached the player.
DEADLINE_WARNING_HOURS = [
    int(h) for h in os.environ.get("DEADLINE_WARNING_HOURS", "24,3").split(",") if h.strip()
]
DEADLINE_EXTENSION_HOURS = env_int("DEADLINE_EXTENSION_HOURS", 24)
# The daily summary of games waiting for a player goes out from this hour of their day.
DIGEST_HOUR = env_int("DIGEST_HOUR", 8)
# A development site (`make run`) runs its task worker inside the server process, so that
# what tasks cause reaches open pages on the in-memory layer (wordgame/embedded_worker.py).
EMBEDDED_TASK_WORKER = env_bool("EMBEDDED_TASK_WORKER", False)
# Web Push (notifications/push.py): the VAPID key pair from the environment (`manage.py
# vapid_keys` prints a new one); a development site reads the pair `make run` writes to
# var/vapid.json on first start. No keys: no push, the rest of the notifications work.
VAPID_PUBLIC_KEY = os.environ.get("VAPID_PUBLIC_KEY", "")
VAPID_PRIVATE_KEY = os.environ.get("VAPID_PRIVATE_KEY", "")
if DEBUG and not VAPID_PRIVATE_KEY and (VAR_DIR / "vapid.json").is_file():
    _vapid = json.loads((VAR_DIR / "vapid.json").read_text())
    VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY = _vapid["public"], _vapid["private"]
# Who the push services may contact about our pushes (RFC 8292's "sub" claim).
VAPID_SUBJECT = os.environ.get("VAPID_SUBJECT", "mailto:" + DEFAULT_FROM_EMAIL.rsplit("<", 1)[-1].rstrip(">"))
WEBPUSH_TIMEOUT_SECONDS = env_int("WEBPUSH_TIMEOUT_SECONDS", 10)
# How long a push service keeps a message for a device that is offline (at most; a turn's
# push expires with the turn).
WEBPUSH_TTL_SECONDS = env_int("WEBPUSH_TTL_SECONDS", 24 * 3600)
# URL prefixes of push endpoints let through although they are not public https addresses:
# only the tests' local push service. Empty in production.
WEBPUSH_ALLOWED_ENDPOINTS: list[str] = []
# A game page's socket marks its player present on that game for this long, refreshed while
# it stays open (notifications.presence): no push about a game the player is looking at.
PRESENCE_SECONDS = env_int("PRESENCE_SECONDS", 60)

if not DEBUG:
    SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", True)
    CSRF_COOKIE_SECURE = env_bool("SECURE_COOKIES", True)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

# HTTPS: redirect plain HTTP and send HSTS, both off until the site is really served over
# HTTPS (HSTS is remembered by browsers for SECURE_HSTS_SECONDS). /healthz stays reachable
# over plain HTTP for the load balancer's checks.
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", False)
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", False)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", False)

# Content-Security-Policy (django-csp 4): only this site's own files. No inline script or
# style anywhere (htmx's indicator styles are switched off in base.html), no eval; the
# WebSocket ('self' covers ws: and wss: of this origin) and forms go only back here.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}

# Metrics for operators (/metrics, wordgame/metrics.py, Prometheus's text format): who may
# read them. A bearer token (Prometheus's `authorization` credentials), client addresses or
# networks (as Daphne reports them: behind nginx, the address nginx saw), staff users
# signed in. None of them configured: staff only. The figures of every worker of a machine
# are added up when PROMETHEUS_MULTIPROC_DIR names a folder they share (deploy/).
METRICS_TOKEN = os.environ.get("METRICS_TOKEN", "")
METRICS_ALLOWED_IPS = [a.strip() for a in os.environ.get("METRICS_ALLOWED_IPS", "").split(",") if a.strip()]
for _network in METRICS_ALLOWED_IPS:
    try:
        ipaddress.ip_network(_network, strict=False)
    except ValueError:
        raise ImproperlyConfigured(
            f"METRICS_ALLOWED_IPS must list addresses or networks (10.0.0.0/8), got {_network!r}"
        ) from None
METRICS_STAFF = env_bool("METRICS_STAFF", True)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"message": {"format": "%(message)s"}},
    "handlers": {
        "console": {"class": "logging.StreamHandler"},
        # One JSON object per line (wordgame.middleware): requests and WebSocket sessions.
        "access": {"class": "logging.StreamHandler", "formatter": "message"},
    },
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {
        # Daphne's runserver logs each request through its own handler already.
        "django.channels.server": {"propagate": False},
        "wordgame.access": {"handlers": ["access"], "level": "INFO", "propagate": False},
        # One JSON line per log-in attempt (accounts/logins.py).
        "accounts.logins": {"handlers": ["access"], "level": "INFO", "propagate": False},
        # django-axes writes several lines per log-in (cleaned, reset, deleted, each
        # failure): errors only.
        "axes": {"level": "ERROR"},
    },
}
