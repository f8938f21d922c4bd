"""Settings of the conformance OpenID Provider: django-oauth-toolkit on loopback.

Everything machine-specific comes from the environment that `conformance/start` sets:
AUTHFLOW_CONFORMANCE_STATE (the state directory: database, signing key, Django secret),
AUTHFLOW_CONFORMANCE_PORT (default 8100) and AUTHFLOW_CONFORMANCE_ISSUER (default
http://127.0.0.1:PORT/o). The RSA signing key is made by `conformance/setup`, never committed.
"""

import os
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
STATE_DIR = Path(os.environ.get("AUTHFLOW_CONFORMANCE_STATE", BASE_DIR / ".state")).resolve()
PORT = int(os.environ.get("AUTHFLOW_CONFORMANCE_PORT", "8100"))
ISSUER = os.environ.get("AUTHFLOW_CONFORMANCE_ISSUER", f"http://127.0.0.1:{PORT}/o").rstrip("/")


def _read_state(name):
    path = STATE_DIR / name
    try:
        return path.read_text()
    except FileNotFoundError:
        raise SystemExit(f"{path} is missing: run conformance/setup first") from None


SECRET_KEY = _read_state("django-secret").strip()
DEBUG = False
ALLOWED_HOSTS = ["127.0.0.1", "localhost", "[::1]"]

INSTALLED_APPS = [
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "oauth2_provider",
    "provider",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
]

ROOT_URLCONF = "provider.urls"
WSGI_APPLICATION = "provider.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
            ],
        },
    },
]

# Two gunicorn workers share one SQLite file: WAL, immediate transactions and a lock timeout, or
# concurrent requests fail with "database is locked".
DATABASES = {
    "default": {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": STATE_DIR / "db.sqlite3",
        "OPTIONS": {
            "timeout": 20,
            "transaction_mode": "IMMEDIATE",
            "init_command": "PRAGMA journal_mode=WAL;",
        },
    }
}

# Test users only: MD5 keeps each login form submission fast.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
AUTH_PASSWORD_VALIDATORS = []

LOGIN_URL = "/accounts/login/"
USE_TZ = True
TIME_ZONE = "UTC"
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": "WARNING"},
}

def _pkce_required(client_id):
    """django-oauth-toolkit asks per client when PKCE_REQUIRED is callable."""
    return client_id == "native-client-id"


OAUTH2_PROVIDER = {
    "OIDC_ENABLED": True,
    "OIDC_RSA_PRIVATE_KEY": _read_state("oidc-rsa.pem"),
    "OIDC_ISS_ENDPOINT": ISSUER,
    "OIDC_RP_INITIATED_LOGOUT_ENABLED": True,
    "OIDC_RP_INITIATED_LOGOUT_ALWAYS_PROMPT": False,
    # PKCE is required of the public client only (RFC 9700 §2.1.1: of every public client), as a
    # provider certified for the Basic plan does: its confidential client's modules send none.
    "PKCE_REQUIRED": _pkce_required,
    "ROTATE_REFRESH_TOKEN": True,
    "REFRESH_TOKEN_REUSE_PROTECTION": True,
    "OAUTH2_VALIDATOR_CLASS": "provider.validators.ConformanceValidator",
    # The native client's callback uses the app's custom scheme, as Auth0.swift's does.
    "ALLOWED_REDIRECT_URI_SCHEMES": ["http", "https", "com.example.app"],
    "SCOPES": {
        "openid": "OpenID Connect",
        "profile": "Your name",
        "email": "Your email address",
        "offline_access": "Stay signed in (refresh tokens)",
        "read": "Read access",
        "write": "Write access",
    },
    "DEFAULT_SCOPES": ["openid"],
}
