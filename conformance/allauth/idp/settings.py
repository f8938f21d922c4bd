"""django-allauth's OpenID Connect provider (allauth.idp.oidc beside allauth.account) on loopback: a
real third-party OpenID Provider that sends its mail (email verification, login and password reset
codes) over SMTP to $AUTHFLOW_ALLAUTH_SMTP_HOST:$AUTHFLOW_ALLAUTH_SMTP_PORT (conformance/allauth/start).
See conformance/allauth/FLOWS.md for the flows as observed."""

import os
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent
STATE = Path(os.environ["AUTHFLOW_ALLAUTH_STATE"])
PORT = os.environ.get("AUTHFLOW_ALLAUTH_PORT", "8120")


def _flag(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() in {"1", "true", "yes", "on"}


def _read(path: Path) -> str:
    return path.read_text() if path.exists() else ""


SECRET_KEY = _read(STATE / "django-secret").strip() or "setup"
DEBUG = False
ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
INSTALLED_APPS = [
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "allauth",
    "allauth.account",
    "allauth.idp.oidc",
]
MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "allauth.account.middleware.AccountMiddleware",
]
AUTHENTICATION_BACKENDS = ["allauth.account.auth_backends.AuthenticationBackend"]
ROOT_URLCONF = "idp.urls"
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
            ]
        },
    }
]
WSGI_APPLICATION = "idp.wsgi.application"
DATABASES = {
    "default": {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": STATE / "db.sqlite3",
        "OPTIONS": {"timeout": 20, "transaction_mode": "IMMEDIATE", "init_command": "PRAGMA journal_mode=WAL;"},
    }
}
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
USE_TZ = True
DEFAULT_AUTO_FIELD = "django.db.models.AutoField"
LOGIN_URL = "/accounts/login/"
LOGIN_REDIRECT_URL = "/accounts/email/"

# Mail: real SMTP, to authflow's receiver (or any SMTP server) at host:port.
EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
EMAIL_HOST = os.environ.get("AUTHFLOW_ALLAUTH_SMTP_HOST", "127.0.0.1")
EMAIL_PORT = int(os.environ.get("AUTHFLOW_ALLAUTH_SMTP_PORT", "2525"))
EMAIL_HOST_USER = os.environ.get("AUTHFLOW_ALLAUTH_SMTP_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("AUTHFLOW_ALLAUTH_SMTP_PASSWORD", "")
EMAIL_USE_TLS = _flag("AUTHFLOW_ALLAUTH_SMTP_STARTTLS")
EMAIL_TIMEOUT = 10
DEFAULT_FROM_EMAIL = "no-reply@allauth.test"
SERVER_EMAIL = DEFAULT_FROM_EMAIL

# allauth.account: email + password, mandatory verification by code, login by code, reset by code.
ACCOUNT_LOGIN_METHODS = {"email"}
ACCOUNT_SIGNUP_FIELDS = ["email*", "password1*"]
ACCOUNT_EMAIL_VERIFICATION = "mandatory"
ACCOUNT_EMAIL_VERIFICATION_BY_CODE_ENABLED = True
ACCOUNT_LOGIN_BY_CODE_ENABLED = True
ACCOUNT_PASSWORD_RESET_BY_CODE_ENABLED = True
ACCOUNT_UNIQUE_EMAIL = True
# No rate limits: a test suite signs up, logs in and resets many times a minute from 127.0.0.1. The
# per-code attempt limits (3 wrong codes) and code timeouts stay at allauth's defaults.
ACCOUNT_RATE_LIMITS = False

# allauth.idp.oidc: RS256 key made once by conformance/allauth/start.
IDP_OIDC_PRIVATE_KEY = _read(STATE / "oidc-private-key.pem")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "loggers": {"django": {"handlers": ["console"], "level": "WARNING"}, "allauth": {"handlers": ["console"], "level": "WARNING"}},
}
