"""Seeds the verified user and the two OpenID Connect clients (idempotent; conformance/allauth/start)."""

from allauth.account.models import EmailAddress
from allauth.idp.oidc.models import Client
from django.contrib.auth import get_user_model

User = get_user_model()
email, password = "alice@example.com", "Alice-Passw0rd!"
user = User.objects.filter(email__iexact=email).first()
if user is None:
    user = User.objects.create_user("alice", email, password, first_name="Alice", last_name="Example")
elif not user.check_password(password) or not user.is_active:
    # Back to the seeded state when a scenario reset or changed her password.
    user.set_password(password)
    user.is_active = True
    user.save()
EmailAddress.objects.update_or_create(user=user, email=email, defaults={"verified": True, "primary": True})

redirect = "https://app.example.com/callback"
for client_id, kind, secret in [("allauth-public", Client.Type.PUBLIC, None), ("allauth-web", Client.Type.CONFIDENTIAL, "allauth-web-secret")]:
    client = Client.objects.filter(id=client_id).first() or Client(id=client_id)
    client.name, client.type, client.skip_consent = client_id, kind, True
    client.set_scopes(["openid", "profile", "email"])
    client.set_default_scopes(["openid"])
    client.set_grant_types([Client.GrantType.AUTHORIZATION_CODE, Client.GrantType.REFRESH_TOKEN])
    client.set_response_types([Client.ResponseType.CODE])
    client.set_redirect_uris([redirect])
    client.set_post_logout_redirect_uris(["https://app.example.com/"])
    # A public client keeps the random (unknown) secret allauth gives every new client.
    if secret is not None and not client.check_secret(secret):
        client.set_secret(secret)
    client.clean()
    client.save()
print("allauth: seeded 1 user and 2 clients")
