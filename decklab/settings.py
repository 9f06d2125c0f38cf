"""DeckLab settings: one module, everything configurable from the environment.

Defaults are the embedded setup (SQLite under var/, kombu's filesystem broker under var/),
so a fresh clone runs with no server. DATABASE_URL / CELERY_BROKER_URL switch to PostgreSQL
(psycopg 3 with its pool) and Redis or RabbitMQ.
"""

from __future__ import annotations

from pathlib import Path

import bootstrap_wrapper
import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from decklab.env import env_bool, env_list, env_str

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(env_str("DECKLAB_VAR_DIR", str(BASE_DIR / "var")))
VAR_DIR.mkdir(parents=True, exist_ok=True)

DEBUG = env_bool("DEBUG", default=False)
_secret = env_str("SECRET_KEY", "")
if not _secret:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY is required when DEBUG is off.")
    _secret = "insecure-development-key-only-used-with-DEBUG-on"
SECRET_KEY = _secret
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]"])
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
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
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
FILE_UPLOAD_MAX_MEMORY_SIZE = 5 * 1024 * 1024

# --- Security -------------------------------------------------------------------------------
SESSION_COOKIE_HTTPONLY = True
CSRF_COOKIE_HTTPONLY = False  # htmx reads the token from the page, not the cookie
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
if not DEBUG:
    SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", default=True)
    CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE

LOGIN_URL = "accounts:login"
LOGIN_REDIRECT_URL = "accounts:profile-self"
LOGOUT_REDIRECT_URL = "catalog:home"
# Password-reset mail goes to the console unless a real backend is configured.
EMAIL_BACKEND = env_str("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "DeckLab <noreply@localhost>")

# --- REST framework -------------------------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": 50,
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "rest_framework.authentication.TokenAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.AllowAny"],
    "DEFAULT_THROTTLE_CLASSES": [
        "rest_framework.throttling.AnonRateThrottle",
        "rest_framework.throttling.UserRateThrottle",
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
}

# --- Cache ----------------------------------------------------------------------------------
REDIS_URL = env_str("REDIS_URL", "")
if REDIS_URL:
    CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL}
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# --- Celery ---------------------------------------------------------------------------------
BROKER_DIR = VAR_DIR / "broker"
CELERY_BROKER_URL = env_str("CELERY_BROKER_URL", "filesystem://")
CELERY_BROKER_TRANSPORT_OPTIONS: dict[str, object] = {}
if CELERY_BROKER_URL.startswith("filesystem://"):
    for sub in ("queue", "processed", "control"):
        (BROKER_DIR / sub).mkdir(parents=True, exist_ok=True)
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(BROKER_DIR / "queue"),
        "data_folder_out": str(BROKER_DIR / "queue"),
        "processed_folder": str(BROKER_DIR / "processed"),
        # broadcast (worker control) messages; kombu's default is ./control in the cwd
        "control_folder": str(BROKER_DIR / "control"),
        "store_processed": False,
    }
else:
    # CELERY_VISIBILITY_TIMEOUT (seconds) must exceed the longest task (a simulation chunk, a
    # catalog import): an unacknowledged task is handed to another worker after it, which is
    # also how a killed worker's task is recovered.
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "visibility_timeout": int(env_str("CELERY_VISIBILITY_TIMEOUT", "3600"))
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
# Celery's Django fixup closes the database connection around every task. Reusing it (for N
# tasks) saves a reconnect per simulation chunk on a dedicated worker, but it leaves stale
# connections in a worker that shares its process (the in-process test worker hung on one), so
# it is opt-in.
_db_reuse = env_str("CELERY_DB_REUSE_MAX", "")
CELERY_DB_REUSE_MAX = int(_db_reuse) if _db_reuse else None

# --- Logging --------------------------------------------------------------------------------
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "WARNING")},
}
