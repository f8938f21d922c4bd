"""`manage.py seed`: the users and Applications the conformance profile names (authflow.yaml,
tenant `conformance`). Idempotent: running it again resets them to these values.

Client ids and secrets are fixed test values for a provider that only listens on loopback; each
can be overridden from the environment (the variable names are those authflow.yaml reads).
"""

import os

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from oauth2_provider.models import get_application_model

NATIVE_CALLBACKS = [
    "com.example.app://127.0.0.1/ios/com.example.app/callback",
    "https://app.example.com/callback",
]


def env(name, default):
    return os.environ.get(name) or default


def users():
    return [
        {
            "username": env("AUTHFLOW_CONFORMANCE_ALICE_EMAIL", "alice@example.com"),
            "email": env("AUTHFLOW_CONFORMANCE_ALICE_EMAIL", "alice@example.com"),
            "password": env("AUTHFLOW_CONFORMANCE_ALICE_PASSWORD", "Alice-Passw0rd!"),
            "first_name": "Alice",
            "last_name": "Example",
        },
        {
            "username": "bob@example.com",
            "email": "bob@example.com",
            "password": env("AUTHFLOW_CONFORMANCE_BOB_PASSWORD", "Bob-Passw0rd!"),
            "first_name": "Bob",
            "last_name": "Example",
        },
    ]


def applications():
    Application = get_application_model()
    return [
        {
            "client_id": "native-client-id",
            "name": "Example native app (public, code + PKCE)",
            "client_type": Application.CLIENT_PUBLIC,
            "authorization_grant_type": Application.GRANT_AUTHORIZATION_CODE,
            "redirect_uris": " ".join(NATIVE_CALLBACKS),
            "post_logout_redirect_uris": " ".join(NATIVE_CALLBACKS),
            "client_secret": "",
        },
        {
            "client_id": "web-client-id",
            "name": "Example web app (confidential, code)",
            "client_type": Application.CLIENT_CONFIDENTIAL,
            "authorization_grant_type": Application.GRANT_AUTHORIZATION_CODE,
            "redirect_uris": "https://web.example.com/callback",
            "post_logout_redirect_uris": "https://web.example.com/",
            "client_secret": env("AUTHFLOW_CONFORMANCE_WEB_SECRET", "web-client-secret"),
        },
        {
            # The client of the conformance pack's Implicit OP plan (response_type id_token and
            # id_token token).
            "client_id": "implicit-client-id",
            "name": "Example single-page app (public, implicit)",
            "client_type": Application.CLIENT_PUBLIC,
            "authorization_grant_type": Application.GRANT_IMPLICIT,
            "redirect_uris": "https://spa.example.com/callback",
            "post_logout_redirect_uris": "https://spa.example.com/",
            "client_secret": "",
        },
        {
            # The client of the conformance pack's Hybrid OP plan (response_type code id_token,
            # code token, code id_token token).
            "client_id": "hybrid-client-id",
            "name": "Example web app (confidential, hybrid)",
            "client_type": Application.CLIENT_CONFIDENTIAL,
            "authorization_grant_type": Application.GRANT_OPENID_HYBRID,
            "redirect_uris": "https://hybrid.example.com/callback",
            "post_logout_redirect_uris": "https://hybrid.example.com/",
            "client_secret": env("AUTHFLOW_CONFORMANCE_HYBRID_SECRET", "hybrid-client-secret"),
        },
        {
            "client_id": "password-client-id",
            "name": "Example first-party app (public, password grant)",
            "client_type": Application.CLIENT_PUBLIC,
            "authorization_grant_type": Application.GRANT_PASSWORD,
            "redirect_uris": "",
            "post_logout_redirect_uris": "",
            "client_secret": "",
        },
        {
            "client_id": "m2m-client-id",
            "name": "Example backend (confidential, client credentials)",
            "client_type": Application.CLIENT_CONFIDENTIAL,
            "authorization_grant_type": Application.GRANT_CLIENT_CREDENTIALS,
            "redirect_uris": "",
            "post_logout_redirect_uris": "",
            "client_secret": env("AUTHFLOW_CONFORMANCE_M2M_SECRET", "m2m-client-secret"),
        },
    ]


class Command(BaseCommand):
    help = "Create or reset the conformance users and Applications."

    def handle(self, *args, **options):
        User = get_user_model()
        for spec in users():
            user, _ = User.objects.get_or_create(username=spec["username"])
            user.email = spec["email"]
            user.first_name = spec["first_name"]
            user.last_name = spec["last_name"]
            user.is_active = True
            user.set_password(spec["password"])
            user.save()
        Application = get_application_model()
        for spec in applications():
            Application.objects.update_or_create(
                client_id=spec["client_id"],
                defaults={
                    **spec,
                    "skip_authorization": True,
                    "algorithm": Application.RS256_ALGORITHM,
                },
            )
        self.stdout.write(f"seeded {len(users())} users and {len(applications())} applications")
