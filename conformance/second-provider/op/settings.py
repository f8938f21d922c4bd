"""django-oidc-provider (juanifioren's OpenID Connect provider for Django) on loopback: the second,
different OpenID Provider the conformance pack is checked against (conformance/second-provider/run)."""

import os
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent
STATE = Path(os.environ["AUTHFLOW_SECOND_OP_STATE"])
PORT = os.environ.get("AUTHFLOW_SECOND_OP_PORT", "8110")

SECRET_KEY = (STATE / "django-secret").read_text().strip() if (STATE / "django-secret").exists() else "setup"
DEBUG = False
ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
INSTALLED_APPS = [
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "oidc_provider",
]
MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
]
ROOT_URLCONF = "op.urls"
TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {"context_processors": ["django.template.context_processors.request"]},
    }
]
WSGI_APPLICATION = "op.wsgi.application"
DATABASES = {
    "default": {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": STATE / "db.sqlite3",
        "OPTIONS": {"timeout": 20, "transaction_mode": "IMMEDIATE", "init_command": "PRAGMA journal_mode=WAL;"},
    }
}
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
USE_TZ = True
LOGIN_URL = "/accounts/login/"
SITE_URL = f"http://127.0.0.1:{PORT}"
OIDC_USERINFO = "op.userinfo.userinfo"
DEFAULT_AUTO_FIELD = "django.db.models.AutoField"
