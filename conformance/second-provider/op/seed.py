"""Seeds the users and clients of tenant `second-op` (conformance/second-provider/authflow.yaml)."""

from django.contrib.auth.models import User
from oidc_provider.models import Client, ResponseType

for email, password, first in [("alice@example.com", "Alice-Passw0rd!", "Alice"), ("bob@example.com", "Bob-Passw0rd!", "Bob")]:
    if not User.objects.filter(username=email).exists():
        User.objects.create_user(email, email, password, first_name=first, last_name="Example")
code = ResponseType.objects.get(value="code")
# django-oidc-provider always asks a public client's user for consent in the code flow; the pack does
# not drive consent pages, so `native` is confidential here (the profile gives its secret).
# `hs256` signs its ID tokens with HS256 keyed by its client secret (OpenID Connect Core §10.1).
for client_id, secret, redirect, alg in [
    ("native-client-id", "native-client-secret", "com.example.app://127.0.0.1/ios/com.example.app/callback", "RS256"),
    ("web-client-id", "web-client-secret", "https://web.example.com/callback", "RS256"),
    ("hs256-client-id", "hs256-client-secret-of-at-least-32-bytes", "https://web.example.com/callback", "HS256"),
]:
    client = Client.objects.filter(client_id=client_id).first() or Client(client_id=client_id)
    client.name, client.client_secret, client.client_type = client_id, secret, "confidential"
    client.redirect_uris, client.require_consent, client.reuse_consent, client.jwt_alg = [redirect], False, True, alg
    client.post_logout_redirect_uris = ["https://web.example.com/"] if redirect.startswith("https://web.") else []
    client.save()
    client.response_types.add(code)
# `implicit` is the client of the conformance pack's Implicit OP plan (response_type id_token and
# id_token token).
implicit = Client.objects.filter(client_id="implicit-client-id").first() or Client(client_id="implicit-client-id")
implicit.name, implicit.client_secret, implicit.client_type = "implicit-client-id", "implicit-client-secret", "confidential"
implicit.redirect_uris, implicit.require_consent, implicit.reuse_consent = ["https://spa.example.com/callback"], False, True
implicit.jwt_alg, implicit.post_logout_redirect_uris = "RS256", ["https://spa.example.com/"]
implicit.save()
for value in ["id_token", "id_token token"]:
    implicit.response_types.add(ResponseType.objects.get(value=value))
# `hybrid` is the client of the Hybrid OP plan (response_type code id_token, code token, code id_token token).
hybrid = Client.objects.filter(client_id="hybrid-client-id").first() or Client(client_id="hybrid-client-id")
hybrid.name, hybrid.client_secret, hybrid.client_type = "hybrid-client-id", "hybrid-client-secret", "confidential"
hybrid.redirect_uris, hybrid.require_consent, hybrid.reuse_consent = ["https://hybrid.example.com/callback"], False, True
hybrid.jwt_alg, hybrid.post_logout_redirect_uris = "RS256", ["https://hybrid.example.com/"]
hybrid.save()
for value in ["code", "code id_token", "code token", "code id_token token"]:
    hybrid.response_types.add(ResponseType.objects.get(value=value))
print("seeded 2 users and 5 clients")
