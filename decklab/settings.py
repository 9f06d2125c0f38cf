"""DeckLab settings: one module, everything configurable from the environment.

Defaults are the embedded setup (SQLite under var/, kombu's filesystem broker under var/),
so a fresh clone runs with no server. DATABASE_URL / CELERY_BROKER_URL switch to PostgreSQL
(psycopg 3 with its pool) and Redis or RabbitMQ.
"""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path

import bootstrap_wrapper
import dj_database_url
from csp.constants import NONE, SELF, UNSAFE_INLINE
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from decklab.env import email_settings, env_bool, env_list, env_str, production_problems

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(env_str("DECKLAB_VAR_DIR", str(BASE_DIR / "var")))
VAR_DIR.mkdir(parents=True, exist_ok=True)
# numba's on-disk cache of the engines' compiled kernels (simulator/engine/compiled.py). Its
# default is __pycache__ beside each kernel, then the user's ~/.cache: a checkout the service
# user may not write to, and a home it may not have, leave numba no place, and it then refuses
# to load the kernel module at all. VAR_DIR is writable wherever DeckLab runs. Set before any
# kernel module is imported (numba reads it when it decorates a kernel).
os.environ.setdefault("NUMBA_CACHE_DIR", str(VAR_DIR / "numba"))

DEBUG = env_bool("DEBUG", default=False)
_secret = env_str("SECRET_KEY", "")
if not _secret:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY is required when DEBUG is off.")
    _secret = "insecure-development-key-only-used-with-DEBUG-on"
SECRET_KEY = _secret
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]"])
if not DEBUG:
    # weak settings used to start silently (scripts/run generates a key and names the hosts)
    _problems = production_problems(
        secret_key=SECRET_KEY,
        allowed_hosts=ALLOWED_HOSTS if "ALLOWED_HOSTS" in os.environ else None,
    )
    if _problems:
        raise ImproperlyConfigured(" ".join(_problems))
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "rest_framework",
    "rest_framework.authtoken",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_htmx",
    "games",
    "accounts",
    "catalog",
    "decks",
    "simulator",
    "collection",
    "contributions",
    "axes",  # login throttling: keep after the apps (its middleware is last)
]

#: freeze each serving process's warmed heap out of the garbage collector (decklab/heap.py);
#: off only to measure what it saves (bench/scale.py)
FREEZE_WARM_HEAP = env_bool("FREEZE_WARM_HEAP", default=True)

MIDDLEWARE = [
    # outermost: counts every request served, and freezes the warmed heap (decklab/heap.py)
    "decklab.heap.FreezeWarmHeapMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Content-Security-Policy on every response (CONTENT_SECURITY_POLICY below)
    "csp.middleware.CSPMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # JSON 404/413 and unknown query parameters refused under /api/v1/
    "decklab.api.middleware.ApiErrorsMiddleware",
    # a NUL in any query parameter or form field is a 400 (PostgreSQL refuses it)
    "decklab.safe_input_middleware.RefuseUnsafeInputMiddleware",
    # refuses logins from a locked-out account or address (AXES_* below)
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "decklab.urls"
WSGI_APPLICATION = "decklab.wsgi.application"
ASGI_APPLICATION = "decklab.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "OPTIONS": {
            # each game's own templates (games/<slug>/...) come from its package's folder
            "loaders": [
                (
                    "django.template.loaders.cached.Loader",
                    [
                        "django.template.loaders.filesystem.Loader",
                        "django.template.loaders.app_directories.Loader",
                        "games.web.GameTemplateLoader",
                    ],
                )
            ],
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# --- Database -------------------------------------------------------------------------------
DATABASE_URL = env_str("DATABASE_URL", f"sqlite:///{VAR_DIR / 'decklab.sqlite3'}")
_db = dj_database_url.parse(DATABASE_URL, conn_max_age=0)
if _db["ENGINE"] == "django.db.backends.postgresql":
    # psycopg 3's pool: Django reuses pooled connections instead of one per request.
    _db.setdefault("OPTIONS", {})["pool"] = {
        "min_size": 1,
        "max_size": int(env_str("DATABASE_POOL_MAX", "10")),
    }
    # JIT off: the app's statements take milliseconds, and compiling one cost 0.9 s of the
    # collection page's 1.5 s at 100,000 items (docs/architecture.md, "PostgreSQL's JIT")
    _db["OPTIONS"]["options"] = "-c jit=off"
elif _db["ENGINE"] == "django.db.backends.sqlite3":
    # WAL lets the web process read while the embedded worker writes.
    _db.setdefault("OPTIONS", {})["init_command"] = (
        "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA busy_timeout=10000;"
    )
    _db["OPTIONS"]["transaction_mode"] = "IMMEDIATE"
DATABASES = {"default": _db}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# --- Languages ------------------------------------------------------------------------------
LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("ja", _("Japanese"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "Asia/Tokyo"
USE_I18N = True
USE_TZ = True

# --- Static files ---------------------------------------------------------------------------
STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_FINDERS = [
    "django.contrib.staticfiles.finders.FileSystemFinder",
    "django.contrib.staticfiles.finders.AppDirectoriesFinder",
    "games.web.GameStaticFinder",  # each game's static/ as games/<slug>/
]
#: games kept outside this repository, by dotted package path (games/registry.py)
DECKLAB_EXTRA_GAMES = env_list("DECKLAB_EXTRA_GAMES", [])
STATICFILES_DIRS = [
    BASE_DIR / "static",
    ("bootstrap", str(bootstrap_wrapper.get_bootstrap_dir())),
]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}
MEDIA_ROOT = VAR_DIR / "media"
# Catalog files uploaded by staff wait here for the worker; bounded in size.
CATALOG_UPLOAD_MAX_BYTES = 20 * 1024 * 1024
DATA_UPLOAD_MAX_MEMORY_SIZE = 5 * 1024 * 1024
# Collections (collection/limits.py, docs/collection-format.md): previews, commits, undos and
# exports above COLLECTION_JOB_THRESHOLD rows or items run as Celery jobs with progress; a
# player holds at most COLLECTION_MAX_ITEMS items; an import file is at most
# COLLECTION_IMPORT_MAX_ROWS rows and COLLECTION_IMPORT_MAX_MB megabytes (the import endpoints
# alone accept bodies that large); a player previews at most COLLECTION_IMPORTS_PER_HOUR
# imports an hour, on the page and in the API together.
COLLECTION_JOB_THRESHOLD = int(env_str("COLLECTION_JOB_THRESHOLD", "2000"))
COLLECTION_MAX_ITEMS = int(env_str("COLLECTION_MAX_ITEMS", "200000"))
COLLECTION_IMPORT_MAX_ROWS = int(env_str("COLLECTION_IMPORT_MAX_ROWS", "200000"))
COLLECTION_IMPORT_MAX_MB = int(env_str("COLLECTION_IMPORT_MAX_MB", "16"))
COLLECTION_IMPORTS_PER_HOUR = int(env_str("COLLECTION_IMPORTS_PER_HOUR", "30"))
FILE_UPLOAD_MAX_MEMORY_SIZE = 5 * 1024 * 1024

# --- Security -------------------------------------------------------------------------------
SESSION_COOKIE_HTTPONLY = True
CSRF_COOKIE_HTTPONLY = False  # htmx reads the token from the page, not the cookie
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
if not DEBUG:
    SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", default=True)
    CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
    if SESSION_COOKIE_SECURE:
        # HTTPS only: plain HTTP is redirected and browsers remember it (HSTS)
        SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", default=True)
        SECURE_HSTS_SECONDS = int(env_str("SECURE_HSTS_SECONDS", str(365 * 24 * 3600)))
        SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=True)
        SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", default=False)
        if not SECURE_HSTS_PRELOAD:
            # joining the browsers' preload list is the operator's decision, not a default
            SILENCED_SYSTEM_CHECKS = ["security.W021"]
# Behind an HTTPS proxy (nginx, a load balancer) that sets X-Forwarded-Proto: without this,
# Django thinks every request is plain HTTP and reset links come out http://.
# Only set it when the proxy overwrites the header: a client could otherwise claim HTTPS.
if env_bool("BEHIND_HTTPS_PROXY", default=False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
# the health endpoints answer plain HTTP probes from the load balancer
SECURE_REDIRECT_EXEMPT = [r"^health/"]
# Content Security Policy (django-csp): scripts and stylesheets only from our own static files,
# so an injected <script> or <style> does not run. Style *attributes* stay allowed: templates set
# per-game accent colours and progress-bar widths with them, and they cannot run code. htmx runs
# with allowEval off (base.html), so no 'unsafe-eval' either. The API docs pages relax this for
# themselves only (catalog/api/views.py).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "style-src-attr": [UNSAFE_INLINE],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}

# --- Login throttling (django-axes) ----------------------------------------------------------
# Wrong passwords are counted per account and, separately, per address: either reaching
# AXES_FAILURE_LIMIT locks further attempts (a 429 page) until AXES_COOLOFF_MINUTES pass.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = int(env_str("AXES_FAILURE_LIMIT", "5"))
AXES_COOLOFF_TIME = timedelta(minutes=int(env_str("AXES_COOLOFF_MINUTES", "15")))
AXES_LOCKOUT_PARAMETERS = ["username", "ip_address"]
# A successful login clears that account's failures only (accounts/login_limits.py): clearing
# the address's too let one account of one's own reset the per-address count at will.
AXES_RESET_ON_SUCCESS = True
AXES_HANDLER = "accounts.login_limits.AccountResetHandler"
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
# How many trusted proxies sit in front: the client's address is read through them
# (decklab/client_address.py), by axes, the API's throttle and the sign-up throttle alike.
PROXY_COUNT = int(env_str("PROXY_COUNT", "0"))
AXES_CLIENT_IP_CALLABLE = "decklab.client_address.client_address"
# Sign-ups and password-reset mails, each counted per client address and per e-mail address
# typed (accounts/mail_limits.py): a refused request is a 429 with the form.
ACCOUNT_MAIL_RATE_PER_ADDRESS = env_str("ACCOUNT_MAIL_RATE_PER_ADDRESS", "10/hour")
ACCOUNT_MAIL_RATE_PER_EMAIL = env_str("ACCOUNT_MAIL_RATE_PER_EMAIL", "3/hour")

LOGIN_URL = "accounts:login"
LOGIN_REDIRECT_URL = "accounts:profile-self"
LOGOUT_REDIRECT_URL = "catalog:home"
# Mail (password resets) from one URL: EMAIL_URL=smtp://user:password@host:587. The console
# backend (the default with DEBUG on) writes valid reset links into the log, so a server with
# DEBUG off refuses to start with it unless EMAIL_ALLOW_CONSOLE=1 says it is meant.
globals().update(email_settings(env_str("EMAIL_URL", "console://")))
if (
    not DEBUG
    and EMAIL_BACKEND.endswith("console.EmailBackend")  # type: ignore[name-defined]  # noqa: F821
    and not env_bool("EMAIL_ALLOW_CONSOLE", default=False)
):
    raise ImproperlyConfigured(
        "EMAIL_URL is required when DEBUG is off (smtp://user:password@host:587): the console "
        "backend would write password-reset links into the log. Set EMAIL_ALLOW_CONSOLE=1 to "
        "run without mail on purpose."
    )
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "DeckLab <noreply@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL

# --- REST framework -------------------------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    # DRF's JSON parser with a depth limit and no NUL characters (decklab/safe_input.py)
    "DEFAULT_PARSER_CLASSES": [
        "decklab.api.parsers.SafeJSONParser",
        "decklab.api.parsers.SafeFormParser",
        "decklab.api.parsers.SafeMultiPartParser",
    ],
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": 50,
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "rest_framework.authentication.TokenAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.AllowAny"],
    # atomic counters that hold under concurrency and let requests through if the cache is down
    "DEFAULT_THROTTLE_CLASSES": [
        "decklab.api.throttling.AtomicAnonRateThrottle",
        "decklab.api.throttling.AtomicUserRateThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        "anon": env_str("API_ANON_RATE", "600/minute"),
        "user": env_str("API_USER_RATE", "1200/minute"),
    },
}
SPECTACULAR_SETTINGS = {
    "TITLE": "DeckLab API",
    "DESCRIPTION": "Card catalogs, decks and simulations for five card games.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    # The sidecar serves Swagger UI and Redoc from our own static files: no CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        # one error shape for every error answer (decklab/api/schema.py)
        "decklab.api.schema.document_errors",
        # alternative shapes that may overlap are anyOf (decklab/api/schema.py)
        "decklab.api.schema.overlapping_alternatives",
    ],
}

# --- Cache ----------------------------------------------------------------------------------
REDIS_URL = env_str("REDIS_URL", "")
if REDIS_URL:
    CACHES = {
        "default": {
            # pages are served uncached while Redis is down (decklab/cache.py)
            "BACKEND": "decklab.cache.FallThroughRedisCache",
            "LOCATION": REDIS_URL,
            # an unreachable Redis must cost a page little: fail fast, then skip it a while
            "OPTIONS": {
                "socket_connect_timeout": float(env_str("REDIS_CONNECT_TIMEOUT", "0.5")),
                "socket_timeout": float(env_str("REDIS_TIMEOUT", "2")),
            },
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# --- Celery ---------------------------------------------------------------------------------
BROKER_DIR = VAR_DIR / "broker"
CELERY_BROKER_URL = env_str("CELERY_BROKER_URL", "filesystem://")
CELERY_BROKER_TRANSPORT_OPTIONS: dict[str, object] = {}
if CELERY_BROKER_URL.startswith("filesystem://"):
    for sub in ("queue", "processed", "control", "staging"):
        (BROKER_DIR / sub).mkdir(parents=True, exist_ok=True)
    # decklab/broker.py: messages are written in "staging" and renamed into "queue" whole
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(BROKER_DIR / "queue"),
        "data_folder_out": str(BROKER_DIR / "queue"),
        "staging_folder": str(BROKER_DIR / "staging"),
        "claim_folder": str(BROKER_DIR / "staging"),
        "rejected_folder": str(BROKER_DIR / "rejected"),
        "processed_folder": str(BROKER_DIR / "processed"),
        # broadcast (worker control) messages; kombu's default is ./control in the cwd
        "control_folder": str(BROKER_DIR / "control"),
        "store_processed": False,
        # kombu polls the folder once a second by default: ~0.7 s idle between one-second
        # chunks. Listing a small folder 50 times a second costs next to nothing.
        "polling_interval": float(env_str("CELERY_POLLING_INTERVAL", "0.02")),
    }
else:
    # CELERY_VISIBILITY_TIMEOUT (seconds) must exceed the longest task (a simulation chunk, a
    # catalog import): an unacknowledged task is handed to another worker after it, which is
    # also how a killed worker's task is recovered.
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "visibility_timeout": int(env_str("CELERY_VISIBILITY_TIMEOUT", "3600"))
    }
    if env_bool("SIMULATION_WORKER", default=False):
        # a chunk's hard limit (simulator/tasks.py) plus a margin
        CELERY_BROKER_TRANSPORT_OPTIONS = {
            "visibility_timeout": int(env_str("CELERY_VISIBILITY_TIMEOUT", "420")),
            "unacked_key": "unacked_simulation",
            "unacked_index_key": "unacked_simulation_index",
            "unacked_mutex_key": "unacked_simulation_mutex",
        }
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_TIME_LIMIT = 30 * 60
CELERY_TASK_SOFT_TIME_LIMIT = 25 * 60
CELERY_TASK_IGNORE_RESULT = True
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", default=False)
# Two queues: "simulation" (chunks of a second or so, and the supervisor's sweep) and
# "celery", the default, for catalog imports and other long jobs. A worker takes both unless
# started with -Q; SIMULATION_WORKER=true gives a simulation-only worker (-Q simulation) a
# visibility timeout fitting a chunk's hard limit, on its own unacked keys so that it never
# hands out a long job that another worker is still running.
# After a lost broker connection, tasks still running cannot be acknowledged; left running they
# can also leave the reconnected consumer without free prefetch slots, so it takes nothing
# more (seen with Redis restarted mid-run). Cancelled, a simulation chunk is queued again by the
# supervisor and any other task is redelivered by the broker. Celery 6's default.
CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS = True
CELERY_TASK_QUEUES: dict[str, dict[str, str]] = {"celery": {}, "simulation": {}}
CELERY_TASK_ROUTES = {"simulator.*": {"queue": "simulation"}}
# The supervisor's sweep (simulator/supervisor.py); the run pages also sweep their run on read.
CELERY_BEAT_SCHEDULE = {
    "simulation-supervise": {
        "task": "simulator.runs_supervise",
        "schedule": 5.0,
        "options": {"expires": 5.0},
    }
}
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")
# Big collection jobs whose worker or message was lost are queued again or failed plainly
# (collection/jobs.py); their pages and the API also sweep the job they read.
COLLECTION_JOB_SWEEP_SECONDS = float(env_str("COLLECTION_JOB_SWEEP_SECONDS", "30"))
# a running job's worker renews its lease every third of this; lapsed, the job is queued again
COLLECTION_JOB_LEASE_SECONDS = int(env_str("COLLECTION_JOB_LEASE_SECONDS", "60"))
CELERY_BEAT_SCHEDULE["collection-jobs-sweep"] = {
    "task": "collection.jobs_sweep",
    "schedule": COLLECTION_JOB_SWEEP_SECONDS,
    "options": {"expires": COLLECTION_JOB_SWEEP_SECONDS},
}
# Chunks a player may have queued or running at once, and of those waiting in the broker
# (simulator/supervisor.py)
SIMULATION_CHUNKS_IN_FLIGHT = int(env_str("SIMULATION_CHUNKS_IN_FLIGHT", "8"))
SIMULATION_CHUNKS_QUEUED_AHEAD = int(env_str("SIMULATION_CHUNKS_QUEUED_AHEAD", "1"))
# Celery's Django fixup closes the database connections around every task, and in a prefork
# child it also closes psycopg's pool: every simulation chunk then paid for a new pool, its
# thread and a new connection. A `celery worker` process with the pool therefore defaults to
# 1000 here (decklab/celery.py, ``_keep_the_pool``), and hands each task's connections back to
# the pool as the task ends instead. Worker threads inside another process (the tests'
# in-process workers) keep the fixup's close around every task: with reuse one hung on a
# connection. Without the pool (SQLite) it is closed around every task unless set here.
_db_reuse = env_str("CELERY_DB_REUSE_MAX", "")
CELERY_DB_REUSE_MAX = int(_db_reuse) if _db_reuse else None

# --- Logging --------------------------------------------------------------------------------
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "WARNING")},
}
