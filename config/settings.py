"""Settings, all from the environment (12-factor). Production-safe unless told otherwise.

`DATABASE_URL` and `REDIS_URL` default to the embedded servers that `make run` / `make test`
start under var/ when those variables are unset (devtools/devservers.py).
"""

from __future__ import annotations

import contextlib
import secrets
from datetime import timedelta
from pathlib import Path
from typing import Any

import django_stubs_ext
import environ
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured

from core import logs, prepared, sentinel
from games.engine.cpu import Level

# Lets admin and model classes be subscripted at run time, as django-stubs types them.
django_stubs_ext.monkeypatch()

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = BASE_DIR / "var"

env = environ.Env()
environ.Env.read_env(BASE_DIR / ".env")  # optional; the real environment wins


def _local_secret_key() -> str:
    """A key that survives restarts of a local checkout; deployments set SECRET_KEY."""
    path = VAR_DIR / "secret_key"
    if not path.exists():
        VAR_DIR.mkdir(exist_ok=True)
        path.write_text(secrets.token_urlsafe(50))
        path.chmod(0o600)
    return path.read_text().strip()


DEBUG = env.bool("DEBUG", default=False)
SECRET_KEY = env.str("SECRET_KEY", default="") or _local_secret_key()
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

# Behind TLS (a proxy that sets X-Forwarded-Proto), turn on every HTTPS protection.
SECURE_SSL = env.bool("SECURE_SSL", default=False)
if SECURE_SSL:
    # Not SECURE_PROXY_SSL_HEADER, which believes X-Forwarded-Proto from anyone: the scheme
    # comes from the connection, or from a proxy of FORWARDED_ALLOW_IPS (config/asgi.py).
    SECURE_SSL_REDIRECT = True
    SECURE_REDIRECT_EXEMPT = [r"^(healthz|livez|readyz)$"]  # probes come over plain HTTP
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"
# Scripts, styles, images and connections (REST and websockets) from this origin only: no
# inline script or style, no CDN. The web client (web/) is built to it; the one exception,
# Swagger UI's inline style on /api/docs/, is made by that view (config/urls.py).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI served from here, pinned: /api/docs/ works offline
    "channels",
    "accounts",
    "games",
    "ratings",
    "seasons",
    "matchmaking",
    "tournaments",
    "social",
    "chat",
    "players",
    "moderation",
    "ops",
    "axes",
    "web",
]

MIDDLEWARE = [
    # First: every request gets its id (logs, X-Request-ID) and is counted and timed.
    "core.logs.RequestIdMiddleware",
    "core.metrics.HttpMetricsMiddleware",
    # The language of every answer: Accept-Language (or the language cookie the web client's
    # picker sets), else English; `Content-Language` and `Vary: Accept-Language` on every
    # response, the probes' and static files' included. A player's own `language` takes over
    # where the request names none (core/i18n.py).
    "django.middleware.locale.LocaleMiddleware",
    # The probes (/healthz, /livez, /readyz) and /metrics answer by a replica's address
    # (config/internal.py).
    "config.internal.InternalEndpointsMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # Content-Security-Policy on every response (CONTENT_SECURITY_POLICY below).
    "csp.middleware.CSPMiddleware",
    # Static files (the admin's) from the web process itself (core/perf/http.py runs WSGI).
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # The admin in the staff member's own language (core/i18n.py).
    "core.i18n.StaffLanguageMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Last: turns the lockout that AxesStandaloneBackend flags into the lockout page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"
ASGI_APPLICATION = "config.asgi.application"
WSGI_APPLICATION = None

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# Unset, the embedded servers of `make run` and `make test` (devtools/devservers.py), which set
# both for the command they run; a command run beside them (`manage.py createsuperuser`) finds
# them at their ports. (One that found its port taken and moved to a free one is reached
# through `python -m devtools.devservers exec --` only.) The image has no such servers.
_embedded_pg_port = env.int("YANIV_EMBEDDED_PG_PORT", default=54329)
_embedded_redis_port = env.int("YANIV_EMBEDDED_REDIS_PORT", default=63799)

DATABASES = {
    "default": env.db_url(
        "DATABASE_URL", default=f"postgres://postgres@127.0.0.1:{_embedded_pg_port}/yaniv"
    )
}
# Django's PostgreSQL backend, its pool checking a connection only when the server spoke to it
# (core/postgresql/base.py).
DATABASES["default"]["ENGINE"] = "core.postgresql"
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
# What sits between the processes and PostgreSQL: "" (nothing: a direct connection) or
# "pgbouncer" (PgBouncer in transaction pooling mode, where each transaction may run on another
# server connection: nothing may outlive a transaction on it; docs/operations.md#pgbouncer).
DATABASE_POOLER = env.str("DATABASE_POOLER", default="").strip().lower()
if DATABASE_POOLER not in ("", "pgbouncer"):
    raise ImproperlyConfigured(f'DATABASE_POOLER: {DATABASE_POOLER!r} ("" or "pgbouncer")')
# Parameters sent apart from the statement (the extended protocol, unnamed statements:
# nothing outlives the call, so PgBouncer's transaction pooling is unaffected), rather than
# quoted into its text by psycopg's Python (Django's default): that quoting was the largest
# single frame of a CPU turn's task (bench/README.md, profiles).
_server_side_binding = env.bool("DB_SERVER_SIDE_BINDING", default=True)
DATABASES["default"]["OPTIONS"] = {
    # A statement run this many times on a connection is prepared on it (PostgreSQL plans it
    # once): on direct to PostgreSQL, off behind PgBouncer unless a number says it tracks
    # them (core/prepared.py; Django's default is off).
    "prepare_threshold": prepared.prepare_threshold(
        env.str("DB_PREPARE_THRESHOLD", default=""),
        pooler=DATABASE_POOLER,
        server_side_binding=_server_side_binding,
    ),
    "server_side_binding": _server_side_binding,
}
# A QuerySet.iterator() outside a transaction declares a cursor WITH HOLD, which outlives its
# transaction on the server connection PgBouncer then hands to another client: behind it,
# iterator() fetches every row at once instead (inside atomic() a cursor would be safe).
DATABASES["default"]["DISABLE_SERVER_SIDE_CURSORS"] = DATABASE_POOLER == "pgbouncer"
if env.bool("DB_POOL", default=True):
    # psycopg 3's pool, per process: web, worker and beat each keep a few warm connections.
    DATABASES["default"]["OPTIONS"]["pool"] = {
        "min_size": env.int("DB_POOL_MIN", default=1),
        "max_size": env.int("DB_POOL_MAX", default=10),
        "timeout": env.float("DB_POOL_TIMEOUT", default=10.0),
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = env.str("REDIS_URL", default=f"redis://127.0.0.1:{_embedded_redis_port}/0")
# Or Sentinels, which every Redis user follows to the primary they name (core/sentinel.py):
# sentinel://[[username]:password@]host:26379,host:26379,host:26379/<master_name>[/<db>]
# (docs/operations.md, "Redis with failover"). None for one Redis.
REDIS_SENTINEL = sentinel.parse(REDIS_URL)
# Every Redis call (cache, throttles, tickets, pushes, Celery's publishes) gives up after these,
# so that a Redis that stops answering cannot hold a request: a move against a CPU waited for
# as long as Redis was paused. On a healthy network Redis answers in about a millisecond.
# After a timeout, the process's other Redis calls fail at once for a second (core/redis.py).
REDIS_CONNECT_TIMEOUT = env.float("REDIS_CONNECT_TIMEOUT", default=0.5)
REDIS_SOCKET_TIMEOUT = env.float("REDIS_SOCKET_TIMEOUT", default=0.5)

AUTH_USER_MODEL = "accounts.Player"
PASSWORD_HASHERS = [
    "django.contrib.auth.hashers.Argon2PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2PasswordHasher",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# The admin's login (the only caller of django.contrib.auth's authenticate(): the API checks
# passwords in accounts.services.player_login, under its own throttles) locks out after
# AXES_FAILURE_LIMIT failures in a row, per username (any spelling: accounts.usernames) and,
# separately, per client address (the trusted one: FORWARDED_ALLOW_IPS), for
# AXES_COOLOFF_MINUTES after the last failure. Staff unlock with `manage.py axes_reset_username`
# (docs/operations.md, "Admin lockout") or by deleting the admin's access attempts.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = env.int("AXES_FAILURE_LIMIT", default=5)
AXES_COOLOFF_TIME = timedelta(minutes=env.float("AXES_COOLOFF_MINUTES", default=15.0))
AXES_LOCKOUT_PARAMETERS = ["username", "ip_address"]
AXES_ONLY_ADMIN_SITE = True
AXES_RESET_ON_SUCCESS = True
AXES_USERNAME_CALLABLE = "accounts.admin.lockout_username"
AXES_CLIENT_IP_CALLABLE = "core.throttles.client_ip"
AXES_LOCKOUT_CALLABLE = "accounts.admin.lockout_response"

# The players' languages (docs/languages.md): English, Hebrew (right to left), Nepali, Hindi.
# The catalogs are locale/<code>/LC_MESSAGES/{django,djangojs}.po (the .mo files are built
# from them: `python manage.py i18n compile`, which make and the image run).
LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("he", "עברית"), ("ne", "नेपाली"), ("hi", "हिन्दी")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"  # filled by `collectstatic` (the image does it)
# Until `collectstatic` has filled STATIC_ROOT (`make run`, tests), WhiteNoise serves from the
# apps' own folders; the empty folder only keeps it from warning that there is none.
WHITENOISE_USE_FINDERS = True
with contextlib.suppress(OSError):
    STATIC_ROOT.mkdir(exist_ok=True)

CACHES = {
    "default": {
        "BACKEND": "core.perf.cache.RedisCache",
        "LOCATION": REDIS_URL,
        "KEY_PREFIX": "yaniv",
    }
}

REST_FRAMEWORK: dict[str, Any] = {
    "DEFAULT_RENDERER_CLASSES": ["core.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["core.parsers.JSONParser"],
    "DEFAULT_CONTENT_NEGOTIATION_CLASS": "core.negotiation.ContentNegotiation",
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.LimitOffsetPagination",
    "PAGE_SIZE": 50,
    "UNAUTHENTICATED_USER": None,
    "DEFAULT_AUTHENTICATION_CLASSES": ["accounts.authentication.BearerTokenAuthentication"],
    # Protected by default; the few open endpoints (guest, login, schema) say so themselves.
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "EXCEPTION_HANDLER": "core.errors.exception_handler",
    "DEFAULT_THROTTLE_CLASSES": ["core.throttles.PlayerRateThrottle"],
    "DEFAULT_THROTTLE_RATES": {
        "player": env.str("THROTTLE_RATE_PLAYER", default="600/min"),
        "guest_create": env.str("THROTTLE_RATE_GUEST_CREATE", default="20/hour"),
        "login_ip": env.str("THROTTLE_RATE_LOGIN_IP", default="10/min"),
        "login_username": env.str("THROTTLE_RATE_LOGIN_USERNAME", default="10/min"),
        # Reads without a token (players, leaderboard, live games, records), per IP.
        "public": env.str("THROTTLE_RATE_PUBLIC", default="120/min"),
        # Arena tournaments a player may create.
        "tournament_create": env.str("THROTTLE_RATE_TOURNAMENT_CREATE", default="10/hour"),
        # A bot's moves (POST .../actions/), beside the general limit; humans have none.
        "bot_moves": env.str("THROTTLE_RATE_BOT_MOVES", default="300/min"),
    },
    # The client address is REMOTE_ADDR, never X-Forwarded-For (core.throttles.client_ip):
    # config/asgi.py sets it from that header only for requests of FORWARDED_ALLOW_IPS.
    "NUM_PROXIES": 0,
    # The API parses only JSON, so that is what test clients send unless told otherwise.
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
}
if DEBUG:
    REST_FRAMEWORK["DEFAULT_RENDERER_CLASSES"].append(
        "rest_framework.renderers.BrowsableAPIRenderer"
    )

SPECTACULAR_SETTINGS = {
    "TITLE": "Yaniv server API",
    "DESCRIPTION": "Ranked Yaniv: accounts, games, matchmaking and ratings.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SCHEMA_PATH_PREFIX": r"/api/v1",
    "COMPONENT_SPLIT_REQUEST": True,
    # One name for the CPU levels (games.engine.cpu.Level), a request's `level` or a seat's
    # `cpu_level`. The values, not the enum's path: as a path its members' names would be the
    # labels, which the fields' choices (value, value) do not match.
    "ENUM_NAME_OVERRIDES": {
        "CpuLevelEnum": [level.value for level in Level],
        # games.models.Pool: a ticket's, a game's and the leaderboard's pools.
        "PoolEnum": ["ranked", "bots"],
        # An action's `type`, in `POST .../actions/` and in `GET .../legal-moves/` alike.
        "ActionInputTypeEnum": ["play", "yaniv"],
    },
    "POSTPROCESSING_HOOKS": [
        "config.socket_messages.add_socket_messages",  # before the enums are named
        "drf_spectacular.hooks.postprocess_schema_enums",
        "core.schema.add_transport_errors",
    ],
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
}

# Addresses (or networks, e.g. 10.0.0.0/8; "*" for any) of the reverse proxies whose
# X-Forwarded-For and X-Forwarded-Proto are believed (config/asgi.py). Empty: none, so a client
# cannot choose the address its per-IP limits (throttles, admin lockout) count against.
FORWARDED_ALLOW_IPS = [ip.strip() for ip in env.list("FORWARDED_ALLOW_IPS", default=[])]

# Threads per web process that run HTTP requests (core/perf/http.py); each may hold a database
# connection, so keep it at or below DB_POOL_MAX less the CPU replies' 2 (WEB_CPU_REPLIES).
WEB_THREADS = env.int("WEB_THREADS", default=8)

# A game's read, its events, a move and a websocket ticket answered without Django's request
# cycle, the same answers for less CPU (core/lean.py); off: every request through Django.
WEB_LEAN_PATH = env.bool("WEB_LEAN_PATH", default=True)

# The CPU's reply to a move played by the web process that took the move, after its think time
# and off the request's path (core/local_tasks.py, in 2 threads of its own beside WEB_THREADS),
# instead of by a Celery task; off: a task a reply. Beat's sweeper plays a reply lost with its
# process either way.
WEB_CPU_REPLIES = env.bool("WEB_CPU_REPLIES", default=True)

# Seconds between a web process's full garbage collections (core/perf/garbage.py): they run
# on this clock instead of when CPython's allocation counts say, since each one stops the
# process for as long as it visits every socket's objects. 0: CPython's own.
WEB_GC_FULL_SECONDS = env.float("WEB_GC_FULL_SECONDS", default=600.0)

# Seconds a web process drains for on SIGTERM (core/drain.py): /readyz answers 503 at once, new
# websockets are refused, and each open socket is told to reconnect (4503) at its own random
# moment of the window; then uvicorn finishes the requests in flight and the process exits.
# 0: every socket at once. Keep it below the orchestrator's grace period (docs/operations.md).
WEB_DRAIN_SECONDS = env.float("WEB_DRAIN_SECONDS", default=30.0)

# Redis pub/sub: a group_send is one PUBLISH, and a web process gets each message once and
# hands it to its sockets in memory. (channels_redis.core's layer made four round trips per
# group_send and had every socket poll Redis: 30% more CPU per move in bench.api_moves.)
# Pushes are at most once; a socket that missed one reads it back (games/consumers.py).
CHANNEL_LAYERS: dict[str, dict[str, Any]] = {
    "default": {
        "BACKEND": "core.layer.RedisPubSubChannelLayer",
        "CONFIG": {
            # (The socket read timeout does not cut subscriptions short: the layer reads them
            # with a timeout of its own.)
            "hosts": [
                {
                    "address": REDIS_URL,
                    "socket_connect_timeout": REDIS_CONNECT_TIMEOUT,
                    "socket_timeout": REDIS_SOCKET_TIMEOUT,
                }
                if REDIS_SENTINEL is None
                else sentinel.channels_host(
                    REDIS_SENTINEL,
                    socket_connect_timeout=REDIS_CONNECT_TIMEOUT,
                    socket_timeout=REDIS_SOCKET_TIMEOUT,
                )
            ],
            "prefix": "yaniv:ch",
        },
    }
}

# Celery: JSON only; a task is acknowledged after it ran, and a task whose worker died is
# given back to the queue (tasks here are idempotent: they carry (game_id, seq)).
CELERY_BROKER_URL = REDIS_URL
# kombu's own form for Sentinels: sentinel://host:port;sentinel://host:port, and the master's
# name (and the Sentinels' password and timeouts) among the transport options.
_broker_sentinel_options: dict[str, Any] = {}
if REDIS_SENTINEL is not None:
    CELERY_BROKER_URL, _broker_sentinel_options = sentinel.kombu_broker(
        REDIS_SENTINEL,
        socket_connect_timeout=REDIS_CONNECT_TIMEOUT,
        socket_timeout=REDIS_SOCKET_TIMEOUT,
    )
CELERY_RESULT_BACKEND = None
CELERY_TASK_IGNORE_RESULT = True
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_TIMEZONE = "UTC"
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# When the broker connection drops, give running tasks back (they are idempotent) instead of
# acking them on a dead connection, which kills the worker with kombu's Redis transport.
CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS = True
CELERY_TASK_TIME_LIMIT = 60
CELERY_TASK_SOFT_TIME_LIMIT = 50
# The worker's pool: "threads" (its tasks in threads of one process: no pickling to a child and
# back, a fifth to a half less worker CPU a move; bench/README.md) or "prefork". Celery enforces
# the two limits above in prefork only; a threads worker has a watchdog for them and
# PostgreSQL's own timeouts on its connections instead (core/perf/worker.py).
WORKER_POOL = env.str("WORKER_POOL", default="threads").strip().lower()
if WORKER_POOL not in ("threads", "prefork"):
    raise ImproperlyConfigured(f'WORKER_POOL: {WORKER_POOL!r} ("threads" or "prefork")')
CELERY_WORKER_POOL = WORKER_POOL
# Above the longest countdown (a 60 s turn deadline), or Redis would hand a delayed task to a
# second worker before the first ran it.
# The socket timeouts bound a publish made while serving a request (the next CPU turn, a
# deadline, a rating): without them a paused Redis held the move until it answered. (A worker
# drops the read timeout and waits for Redis: config/celery.py.)
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": 3600,
    "socket_connect_timeout": REDIS_CONNECT_TIMEOUT,
    "socket_timeout": REDIS_SOCKET_TIMEOUT,
    **_broker_sentinel_options,
}
CELERY_BROKER_CONNECTION_TIMEOUT = REDIS_CONNECT_TIMEOUT
# A publish is tried once: every task queued here is also recovered without it (the sweeper
# plays overdue and CPU turns, `games_rate_pending` rates finished games, the beat runs the
# next matchmaking pass), and Celery's default of three retries would wait three more times.
CELERY_TASK_PUBLISH_RETRY = False
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TASK_ALWAYS_EAGER = env.bool("CELERY_TASK_ALWAYS_EAGER", default=False)
# ---- The Celery worker's timeouts in PostgreSQL (core/perf/worker.py) -------------------------
# Kept apart from DATABASES: applied by the worker alone, at its start, to its connections
# (libpq's `options`, sent at login; not behind PgBouncer, where the worker's role carries them:
# docs/operations.md). Past any of them PostgreSQL ends the statement, the lock wait or the idle
# transaction, and the row locks a task held go with its rollback, whatever its Python does
# (the threads pool enforces no task time limit). Seconds; 0 turns one off.
DB_WORKER_STATEMENT_TIMEOUT = env.float("DB_WORKER_STATEMENT_TIMEOUT", default=30.0)
DB_WORKER_LOCK_TIMEOUT = env.float("DB_WORKER_LOCK_TIMEOUT", default=10.0)
DB_WORKER_IDLE_IN_TRANSACTION_TIMEOUT = env.float(
    "DB_WORKER_IDLE_IN_TRANSACTION_TIMEOUT", default=10.0
)
# ---- end of the worker's timeouts -------------------------------------------------------------

# Beat's entries are declared beside the tasks they run (BEAT_SCHEDULE in each app's tasks.py)
# and collected by config/celery.py; what they read from the environment is read here.
# How often beat sweeps overdue turns: the second path that enforces deadlines (games/tasks.py).
YANIV_SWEEP_SECONDS = env.float("YANIV_SWEEP_SECONDS", default=2.0)

# Game settings (docs/api.md, Operations).
YANIV_RANKED_TURN_SECONDS = env.int("YANIV_RANKED_TURN_SECONDS", default=60)
YANIV_CPU_THINK_SECONDS = env.float("YANIV_CPU_THINK_SECONDS", default=0.8)
# The CPU level that plays a seat its player left or is away from (games.engine.cpu.Level).
YANIV_CPU_TAKEOVER_LEVEL = env.str("YANIV_CPU_TAKEOVER_LEVEL", default=Level.HARD.value)
_cpu_levels = [level.value for level in Level]
if YANIV_CPU_TAKEOVER_LEVEL not in _cpu_levels:
    raise ImproperlyConfigured(
        f"YANIV_CPU_TAKEOVER_LEVEL must be {', '.join(_cpu_levels[:-1])} or {_cpu_levels[-1]}, not"
        f" {YANIV_CPU_TAKEOVER_LEVEL!r}"
    )

# Bytes of `Idempotency-Key` answers (games/idempotency.py) a player may have Redis keep per day. A
# kept move answer is 1-3 KB, so the default holds some 400-1,000 moves a day; past it moves
# are still applied, only not kept (a retry is then 409 stale_seq, never applied twice).
IDEMPOTENCY_MAX_BYTES_PER_PLAYER = env.int("IDEMPOTENCY_MAX_BYTES_PER_PLAYER", default=2**20)

# LOG_FORMAT=json: one JSON object a line, with request_id, game_id and player_id (core/logs.py).
LOG_FORMAT = env.str("LOG_FORMAT", default="text")
LOGGING = logs.config(LOG_FORMAT, env.str("LOG_LEVEL", default="INFO"))
# Celery workers keep this LOGGING (JSON lines included) instead of configuring their own.
CELERY_WORKER_HIJACK_ROOT_LOGGER = False
# GET /metrics (ops/views.py): with a token, for `Authorization: Bearer <token>` only; without,
# for loopback clients only. PROMETHEUS_MULTIPROC_DIR: core/metrics.py.
METRICS_TOKEN = env.str("METRICS_TOKEN", default="")
# How often each process publishes the staff page's series to Redis (core/metrics_shared.py);
# 0: only when the page or the minute's snapshot is made in it (the test suite).
METRICS_PUBLISH_SECONDS = env.float("METRICS_PUBLISH_SECONDS", default=10.0)
# A Celery worker's own GET /metrics on this port (ops/worker_metrics.py), for a worker whose
# metrics directory web does not read (a Kubernetes pod); 0: none.
WORKER_METRICS_PORT = env.int("WORKER_METRICS_PORT", default=0)

# Accounts (accounts/): bearer tokens slide their expiry forward with use, at most once per
# ACCOUNTS_TOKEN_TOUCH_SECONDS so that a request is not also a write.
ACCOUNTS_TOKEN_TTL_DAYS = env.int("ACCOUNTS_TOKEN_TTL_DAYS", default=30)
ACCOUNTS_TOKEN_TOUCH_SECONDS = 60
ACCOUNTS_WS_TICKET_SECONDS = 30

# Matchmaking (matchmaking/): a pass every second pairs the queue (its policy is in
# matchmaking/pairing.py); a ticket that waits this long expires.
YANIV_TICKET_EXPIRY_SECONDS = env.int("YANIV_TICKET_EXPIRY_SECONDS", default=600)
# Games started per pass at most, so that a pass's transaction (and its ticket locks) stays
# short after a backlog; the rest are seated by the next passes.
YANIV_MATCHMAKING_TABLES_PER_PASS = env.int("YANIV_MATCHMAKING_TABLES_PER_PASS", default=50)
# After this many seconds a ticket no human table could take is seated with CPU players of the
# nearest ratings, at its largest accepted size (0: never).
YANIV_QUEUE_CPU_FILL_SECONDS = env.float("YANIV_QUEUE_CPU_FILL_SECONDS", default=30)
# The bots' ladder (docs/api.md, The bot ladder): a bots ticket no table of bots could take is
# filled with CPU levels after this many seconds (0: never), and a bot starts at most this many
# ladder games in 24 hours (429 `throttled`, scope `bot_games`).
YANIV_BOT_FILL_SECONDS = env.float("YANIV_BOT_FILL_SECONDS", default=10)
YANIV_BOT_GAMES_PER_DAY = env.int("YANIV_BOT_GAMES_PER_DAY", default=500)

# Ratings (ratings/): a player is provisional while their sigma is above this. Everyone starts
# at 25/3 ≈ 8.33; against established opponents sigma falls to 5.0 after about a dozen rated
# games, whatever the table size, so "provisional" means roughly "fewer than 12 games", and a
# provisional ordinal (mu - 3 sigma) still carries a margin of more than 15 points.
YANIV_PROVISIONAL_SIGMA = env.float("YANIV_PROVISIONAL_SIGMA", default=5.0)
# Ageing (docs/api.md, Ratings): a player's shown sigma widens by this per square-root day
# without a rated game, up to the starting 25/3 (0: ratings never age). At 0.05 a sigma of 3.0
# is 3.04 after 100 days and 3.15 after a year.
YANIV_RATING_TAU_PER_DAY = env.float("YANIV_RATING_TAU_PER_DAY", default=0.05)
# Seasons (docs/api.md, Seasons): how long a season lasts when it opens (staff may move its end
# in the admin), the soft reset of every rated player's sigma when the next one opens
# (`min(25/3, sqrt(sigma^2 + bump^2))`, mu kept; 0: no reset), and how many rated games in a
# season place a player on its leaderboard.
YANIV_SEASON_DAYS = env.int("YANIV_SEASON_DAYS", default=90)
YANIV_SEASON_SIGMA_BUMP = env.float("YANIV_SEASON_SIGMA_BUMP", default=2.0)
YANIV_SEASON_PLACEMENT_GAMES = env.int("YANIV_SEASON_PLACEMENT_GAMES", default=10)
# Arena tournaments (docs/api.md, Tournaments): how often a pass seats the idle participants,
# how long one waits before sitting again with someone of their previous table rather than
# waiting on, and the games' turn limit when the tournament names none.
YANIV_TOURNAMENT_PAIRING_SECONDS = env.float("YANIV_TOURNAMENT_PAIRING_SECONDS", default=3.0)
YANIV_TOURNAMENT_REPEAT_WAIT_SECONDS = env.float(
    "YANIV_TOURNAMENT_REPEAT_WAIT_SECONDS", default=15.0
)
YANIV_TOURNAMENT_TURN_SECONDS = env.int("YANIV_TOURNAMENT_TURN_SECONDS", default=30)

# Fair play (docs/api.md, Fair play; accounts/fair_play.py): offences in ranked games and the
# escalating bans from the ranked queue they earn.
YANIV_QUEUE_BAN_STEPS = env.str("YANIV_QUEUE_BAN_STEPS", default="10m,1h,24h")
YANIV_QUEUE_BAN_WINDOW_DAYS = env.int("YANIV_QUEUE_BAN_WINDOW_DAYS", default=7)
YANIV_QUEUE_BAN_FORGIVE_AFTER_GAMES = env.int("YANIV_QUEUE_BAN_FORGIVE_AFTER_GAMES", default=5)
YANIV_IDLE_OFFENCE_TURNS = env.int("YANIV_IDLE_OFFENCE_TURNS", default=3)
# Rematch of a finished private table: how long an offer waits for every seated human.
YANIV_REMATCH_SECONDS = env.int("YANIV_REMATCH_SECONDS", default=60)
# The leaderboard lists players with this many rated games, one of them this recent.
YANIV_LEADERBOARD_MIN_GAMES = env.int("YANIV_LEADERBOARD_MIN_GAMES", default=5)
YANIV_LEADERBOARD_ACTIVE_DAYS = env.int("YANIV_LEADERBOARD_ACTIVE_DAYS", default=30)
# Public reads (no token): how long a shared cache or a widget may keep an answer.
YANIV_PUBLIC_MAX_AGE_SECONDS = env.int("YANIV_PUBLIC_MAX_AGE_SECONDS", default=10)
# Friends (docs/api.md, Friends, blocks and presence): how many a player may have, and how many
# requests they may send in 24 hours.
YANIV_FRIENDS_MAX = env.int("YANIV_FRIENDS_MAX", default=500)
YANIV_FRIEND_REQUESTS_PER_DAY = env.int("YANIV_FRIEND_REQUESTS_PER_DAY", default=20)
# Challenges (docs/api.md, Challenges): how long one stays open unanswered, and how many a
# player may send in an hour.
YANIV_CHALLENGE_SECONDS = env.int("YANIV_CHALLENGE_SECONDS", default=60)
YANIV_CHALLENGES_PER_HOUR = env.int("YANIV_CHALLENGES_PER_HOUR", default=30)
# Presence (core/presence.py): an open me socket's entry lives this long unless renewed (every
# third of it); a web process that dies leaves its players online at most this long, plus
# beat's sweep interval.
YANIV_PRESENCE_TTL_SECONDS = env.int("YANIV_PRESENCE_TTL_SECONDS", default=60)
# Listening sockets (core/heartbeat.py): the server sends a keep-alive after this many seconds
# without a message, and closes (4408) a socket whose client sent no frame for IDLE seconds.
YANIV_WS_KEEPALIVE_SECONDS = env.float("YANIV_WS_KEEPALIVE_SECONDS", default=20.0)
YANIV_WS_IDLE_SECONDS = env.float("YANIV_WS_IDLE_SECONDS", default=60.0)
# Chat (docs/api.md, Chat): free text needs this many finished games; at most FLOOD_MESSAGES
# messages in FLOOD_SECONDS a player; the word list (one word a line) refused in free text; and
# how long messages (and reports, and ended mutes) are kept.
YANIV_CHAT_MIN_GAMES = env.int("YANIV_CHAT_MIN_GAMES", default=5)
YANIV_CHAT_FLOOD_MESSAGES = env.int("YANIV_CHAT_FLOOD_MESSAGES", default=5)
YANIV_CHAT_FLOOD_SECONDS = env.int("YANIV_CHAT_FLOOD_SECONDS", default=10)
YANIV_CHAT_BLOCKLIST = env.str(
    "YANIV_CHAT_BLOCKLIST", default=str(BASE_DIR / "chat" / "blocklist.txt")
)
YANIV_CHAT_KEEP_DAYS = env.int("YANIV_CHAT_KEEP_DAYS", default=90)
