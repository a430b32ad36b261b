"""Django settings, read from the environment.

Unset variables fall back to the embedded default (SQLite, no Redis, Celery eager, in-process live
bus). ``FRONTERA_ENV=production`` switches on the production hardening that passes
``manage.py check --deploy`` with zero warnings. See docs/deployment.md.
"""

from __future__ import annotations

import os
from pathlib import Path

import dj_database_url
from django.utils.csp import CSP
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: list[str]) -> list[str]:
    value = os.environ.get(name, "")
    return [item.strip() for item in value.split(",") if item.strip()] or default


PRODUCTION = os.environ.get("FRONTERA_ENV", "").lower() == "production"

DEBUG = env_bool("DEBUG", not PRODUCTION)
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if PRODUCTION:
        raise RuntimeError("SECRET_KEY must be set when FRONTERA_ENV=production")
    SECRET_KEY = "dev-only-insecure-key-frontera-do-not-use-in-production"

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django_htmx",
    "axes",
    "frontera.accounts",
    "frontera.campaigns",
    "frontera.characters",
    "frontera.play",
    "frontera.live",
    "cardgames",
    "frontera.demo",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "frontera.middleware.never_store",  # after WhiteNoise: static files keep their caching
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "frontera.accounts.middleware.AuthenticationMiddleware",  # Django's, with the session's user
    "frontera.accounts.language.account_language",  # after Locale and Authentication (issue #12)
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Last, as django-axes asks: it turns a lockout into its response.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "frontera.urls"
ASGI_APPLICATION = "frontera.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.template.context_processors.csp",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# Database: SQLite by default (WAL, IMMEDIATE transactions, busy timeout), or DATABASE_URL.
DATABASE_URL = os.environ.get("DATABASE_URL", "")
# SQLite's settings, for the default file and for a sqlite:/// DATABASE_URL alike (a URL's file had
# none of them: every transaction began DEFERRED, and two tables' moves at once failed at once with
# "database is locked" instead of waiting for each other)
SQLITE_OPTIONS = {
    "transaction_mode": "IMMEDIATE",
    "timeout": 20,
    "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
}
# Pages are served by a fixed pool of threads (frontera/asgi.py): each keeps its connection
# instead of opening one per request (issue #11).
SQLITE_CONN_MAX_AGE = int(os.environ.get("SQLITE_CONN_MAX_AGE", "300"))
if DATABASE_URL:
    DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=0, conn_health_checks=True)}
    if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
        DATABASES["default"]["OPTIONS"] = {**SQLITE_OPTIONS, **DATABASES["default"].get("OPTIONS", {})}
        DATABASES["default"]["CONN_MAX_AGE"] = SQLITE_CONN_MAX_AGE
    if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
        # Values travel as bound parameters (psycopg's server-side binding) instead of being quoted
        # into the statement's text in Python: a call check's CPU to its publish fell ~10 % (issue #11).
        # A statement that runs a second time on a connection is prepared there (psycopg's
        # prepare_threshold; Django leaves it off for external poolers such as PgBouncer's
        # transaction mode: set DATABASE_PREPARED=false behind one). The pool keeps connections,
        # so the server parses and plans each of a request's statements once, not every time.
        DATABASES["default"].setdefault("OPTIONS", {})["server_side_binding"] = True
        # A transaction's BEGIN goes out with its first statement instead of as a round trip of
        # its own (frontera/postgresql/base.py; issue #11).
        DATABASES["default"]["ENGINE"] = "frontera.postgresql"
        if env_bool("DATABASE_PREPARED", True):
            DATABASES["default"]["OPTIONS"]["prepare_threshold"] = 2
    if DATABASES["default"]["ENGINE"] == "frontera.postgresql" and env_bool("DATABASE_POOL", True):
        # psycopg's connection pool (Django's "pool" option; CONN_MAX_AGE stays 0, as ASGI wants):
        # without it every request opened a new PostgreSQL connection (issue #11's profile). A
        # pooled connection is checked before use only after it sat idle (frontera/dbpool.py):
        # Django's check (CONN_HEALTH_CHECKS) cost one more round trip on every request.
        from frontera.dbpool import check_after_idle

        DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
            "min_size": 1, "max_size": int(os.environ.get("DATABASE_POOL_MAX", "10")), "timeout": 10,
            "check": check_after_idle,
        }
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": os.environ.get("SQLITE_PATH", str(BASE_DIR / "var" / "frontera.sqlite3")),
            "OPTIONS": dict(SQLITE_OPTIONS),
            "CONN_MAX_AGE": SQLITE_CONN_MAX_AGE,
            "CONN_HEALTH_CHECKS": True,
        }
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "frontera.accounts.backends.MemoryModelBackend",  # ModelBackend, its get_user from memory
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "campaign_list"
LOGOUT_REDIRECT_URL = "login"

# django-axes: lock a username from one IP after repeated failures, for a while. Never by IP
# alone: a whole table shares one Wi-Fi.
AXES_FAILURE_LIMIT = int(os.environ.get("AXES_FAILURE_LIMIT", "5"))
AXES_COOLOFF_TIME = float(os.environ.get("AXES_COOLOFF_HOURS", "0.25"))  # hours
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
AXES_IPWARE_PROXY_COUNT = int(os.environ.get("AXES_PROXY_COUNT", "0"))

# Internationalisation: Spanish (the game's language) by default, English complete.
LANGUAGE_CODE = "es"
LANGUAGES = [("es", _("Spanish")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
TIME_ZONE = os.environ.get("TIME_ZONE", "Europe/Madrid")
USE_TZ = True

STATIC_URL = "/static/"
# Collected files exist only in production; in development whitenoise serves from the finders.
STATIC_ROOT = BASE_DIR / "staticfiles" if PRODUCTION else None
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "whitenoise.storage.CompressedManifestStaticFilesStorage"
            if PRODUCTION
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        )
    },
}
WHITENOISE_USE_FINDERS = not PRODUCTION

# E-mail: printed to the console in development; SMTP from the environment in production.
if PRODUCTION:
    MAILERS = {
        "default": {
            "BACKEND": os.environ.get("EMAIL_BACKEND", "django.core.mail.backends.smtp.EmailBackend"),
            "OPTIONS": {
                "host": os.environ.get("EMAIL_HOST", "localhost"),
                "port": int(os.environ.get("EMAIL_PORT", "587")),
                "username": os.environ.get("EMAIL_HOST_USER", ""),
                "password": os.environ.get("EMAIL_HOST_PASSWORD", ""),
                "use_tls": env_bool("EMAIL_USE_TLS", True),
            },
        }
    }
else:
    MAILERS = {
        "default": {"BACKEND": os.environ.get("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")},
    }
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Frontera <frontera@localhost>")

# Content Security Policy (Django's own middleware): nothing inline without the page's nonce.
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF, CSP.NONCE],
    "style-src": [CSP.SELF, CSP.NONCE],
    "img-src": [CSP.SELF, "data:"],
    "connect-src": [CSP.SELF],
    "font-src": [CSP.SELF],
    "object-src": [CSP.NONE],
    "base-uri": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
    "form-action": [CSP.SELF],
}

# Redis: the live bus and Celery use it when REDIS_URL is set.
REDIS_URL = os.environ.get("REDIS_URL", "")
LIVE_BUS_BACKEND = "redis" if REDIS_URL else "memory"
CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    # HTML rendered once and kept, each piece keyed by everything it shows: a session's feed per
    # state, language and side of the table (frontera/play/views/sessions.py; its lines are kept apart,
    # frontera/play/views/feed.py: a line never changes), a check's article that holds nothing of its viewer's own (a
    # resolved check, a player's view of another's: templates/play/_checks_list.html), each card of
    # the Mayor's board (templates/play/_cast.html) and a phone's table zones per state
    "feed": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "feed",
             "OPTIONS": {"MAX_ENTRIES": 5000}},
}
# Sessions: on the embedded default (no REDIS_URL: one process serves every page, see
# docs/deployment.md) a request reads its session from this process's memory, and the database
# keeps it for a restart (Django's cached_db: frontera/accounts/memory_sessions.py): one query less
# on every request (issue #13's push). With REDIS_URL several processes serve pages, and one
# process's memory could keep a session that another logged out: there the database alone holds
# them, as Django's database store does, each request's read written as SQL and made with its
# user's (frontera/accounts/sessions.py). Both keep the same rows (frontera.accounts.models.LogIn).
SESSION_ENGINE = "frontera.accounts.sessions"
if not REDIS_URL:
    SESSION_ENGINE = "frontera.accounts.memory_sessions"
    SESSION_CACHE_ALIAS = "sessions"
    CACHES |= {
        "sessions": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "sessions",
                     "OPTIONS": {"MAX_ENTRIES": 10000}},
        "users": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "users",
                  "OPTIONS": {"MAX_ENTRIES": 10000}},
    }
    # request.user from that memory too (frontera/accounts/backends.py), for the same reason
    USER_CACHE_ALIAS = "users"
LIVE_KEEPALIVE_SECONDS = float(os.environ.get("LIVE_KEEPALIVE_SECONDS", "15"))
# The build of the pages this process serves, told to every stream at its (re)connection: a session
# page rendered by another build reloads itself (frontera/live/build.py). Empty: a digest of the code,
# templates and static files, the same for every process started from the same files.
LIVE_BUILD = os.environ.get("FRONTERA_BUILD", "").strip()[:64]
# After a publish, a request thread waits (at most this long) for this process's event loop to write
# the push to its streams before it renders its answer (live/bus.py: settle; 0 turns it off).
LIVE_PUSH_FIRST_SECONDS = float(os.environ.get("LIVE_PUSH_FIRST_SECONDS", "0.005"))

CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_RESULT_BACKEND = REDIS_URL or None
CELERY_TASK_ALWAYS_EAGER = not REDIS_URL  # the embedded default only
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_ACKS_LATE = True

# The bonus tables: the least time a bot's move takes on a worker, in seconds (0: as fast as it
# thinks). A pause lets people see "the bot is thinking"; the services suite uses it to stop a
# worker in the middle of a move.
CARDGAMES_BOT_PAUSE = float(os.environ.get("CARDGAMES_BOT_PAUSE", "0"))
# Known deals for a test server (the browser suite's): an integer makes the new tables' seeds the
# sequence of random.Random(CARDGAMES_SEED) (cardgames.services.new_seed). Never in production:
# whoever knows it knows every hand.
CARDGAMES_SEED = int(os.environ["CARDGAMES_SEED"]) if os.environ.get("CARDGAMES_SEED", "").strip() else None
if CARDGAMES_SEED is not None and PRODUCTION:
    raise RuntimeError("CARDGAMES_SEED must not be set when FRONTERA_ENV=production")

INVITE_DEFAULT_DAYS = 7
INVITE_DEFAULT_USES = 5

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}

if PRODUCTION:
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", str(60 * 60 * 24 * 365)))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_CONTENT_TYPE_NOSNIFF = True
    X_FRAME_OPTIONS = "DENY"
