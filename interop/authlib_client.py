"""Drives the authflow mock tenant with Authlib, a general OAuth 2.0 / OpenID Connect client library.

Everything comes from the discovery document. The flows: authorization code + PKCE (S256) through the
mock's own HTML login form (parsed with the standard library's HTMLParser), for the public native
client and for the confidential web client (client_secret_basic, the library's default); ID-token
validation with the JWKS (signature, iss, aud, exp, nonce); userinfo; refresh with rotation;
revocation; client credentials; the device authorization grant (RFC 8628: the discovered
device_authorization_endpoint, authorization_pending, the /activate pages, the tokens, a used device
code refused); the advertised registration_endpoint answering an OAuth error while registration is
off; and the security rules a client can observe: a reused code, a wrong PKCE verifier, a reused
refresh token, a wrong client secret.

Usage: python authlib_client.py BASE_URL   (exit 0 when every check passes)
"""

import secrets
import sys
import time
from urllib.parse import urljoin

import requests
from authlib.integrations.base_client.errors import OAuthError
from authlib.integrations.requests_client import OAuth2Session
from authlib.jose import JsonWebKey, jwt
from authlib.oauth2.rfc6749.errors import OAuth2Error as ProtocolError
from common import Forms, browse_to_callback, check, summary

# An error response from the token endpoint, as the library raises it.
OAuth2Error = (OAuthError, ProtocolError)

BASE = sys.argv[1].rstrip("/") + "/"
ALICE = ("alice@example.com", "Alice-Passw0rd!")
def activate_device(verification_uri, user_code, credentials):
    """The user's side of the device flow: enter the code, press Confirm, log in; the last page's text."""
    browser = requests.Session()
    url, method, data = verification_uri, "GET", None
    for _ in range(10):
        response = browser.request(method, url, data=data, timeout=10)
        parser = Forms()
        parser.feed(response.text)
        if not parser.forms:
            return response.text
        form = parser.forms[0]
        fields = dict(form["fields"])
        if "user_code" in fields:
            fields["user_code"] = user_code
        elif "password" in fields:
            fields["username"], fields["password"] = credentials
        elif ("action", "confirm") in form.get("buttons", []):
            fields["action"] = "confirm"
        else:
            raise RuntimeError(f"unexpected form at {response.url}: {form}")
        url, method, data = urljoin(response.url, form["action"] or response.url), form["method"].upper(), fields
    raise RuntimeError("too many pages")


def device_flow(metadata):
    """RFC 8628 with the discovered endpoints; Authlib's session polls the token endpoint."""
    device_grant = "urn:ietf:params:oauth:grant-type:device_code"
    endpoint = metadata.get("device_authorization_endpoint")
    check("discovery: device_authorization_endpoint", bool(endpoint))
    answer = requests.post(endpoint, data={"client_id": "native-client-id", "scope": "openid email"}, timeout=10)
    grant = answer.json()
    check(
        "device: code, user code, verification URIs",
        answer.status_code == 200 and {"device_code", "user_code", "verification_uri_complete"} <= grant.keys(),
        answer.text,
    )
    device = OAuth2Session("native-client-id", token_endpoint_auth_method="none")
    try:
        device.fetch_token(metadata["token_endpoint"], grant_type=device_grant, device_code=grant["device_code"])
        check("device: authorization_pending before the user confirms", False, "tokens before confirmation")
    except OAuth2Error as error:
        check("device: authorization_pending before the user confirms", error.error == "authorization_pending", error.error)
    page = activate_device(grant["verification_uri_complete"], grant["user_code"], ALICE)
    check("device: the activation pages end approved", 'data-outcome="approved"' in page, page[:200])
    time.sleep(grant.get("interval", 5))
    token = device.fetch_token(metadata["token_endpoint"], grant_type=device_grant, device_code=grant["device_code"])
    keys = JsonWebKey.import_key_set(requests.get(metadata["jwks_uri"], timeout=10).json())
    claims = jwt.decode(token["id_token"], keys, claims_options={"aud": {"essential": True, "value": "native-client-id"}})
    claims.validate(leeway=60)
    check("device: tokens for the user who confirmed", claims.get("email") == ALICE[0], claims.get("email"))
    try:
        device.fetch_token(metadata["token_endpoint"], grant_type=device_grant, device_code=grant["device_code"])
        check("device: a used device code is refused", False, "second exchange succeeded")
    except OAuth2Error as error:
        check("device: a used device code is refused with invalid_grant", error.error == "invalid_grant", error.error)


def validate_id_token(token, metadata, client_id, nonce):
    keys = JsonWebKey.import_key_set(requests.get(metadata["jwks_uri"], timeout=10).json())
    claims = jwt.decode(
        token,
        keys,
        claims_options={
            "iss": {"essential": True, "value": metadata["issuer"]},
            "aud": {"essential": True, "value": client_id},
            "nonce": {"essential": True, "value": nonce},
            "exp": {"essential": True},
        },
    )
    claims.validate(leeway=60)
    return claims


def code_flow(metadata, client_id, client_secret, redirect_uri, auth_method):
    client = OAuth2Session(
        client_id,
        client_secret,
        scope="openid profile email offline_access",
        redirect_uri=redirect_uri,
        code_challenge_method="S256",
        token_endpoint_auth_method=auth_method,
    )
    verifier, nonce = secrets.token_urlsafe(48), secrets.token_urlsafe(16)
    url, state = client.create_authorization_url(
        metadata["authorization_endpoint"], code_verifier=verifier, nonce=nonce
    )
    callback = browse_to_callback(url, redirect_uri, ALICE)
    token = client.fetch_token(
        metadata["token_endpoint"], authorization_response=callback, code_verifier=verifier, state=state
    )
    return client, token, callback, verifier, nonce


def main():
    metadata = requests.get(BASE + ".well-known/openid-configuration", timeout=10).json()
    check("discovery: issuer is the base URL", metadata["issuer"] == BASE, metadata.get("issuer"))
    check("discovery: S256 supported", "S256" in metadata.get("code_challenge_methods_supported", []))

    # Public native client, PKCE, no client authentication.
    redirect = "https://app.example.com/callback"
    client, token, callback, verifier, nonce = code_flow(metadata, "native-client-id", None, redirect, "none")
    claims = validate_id_token(token["id_token"], metadata, "native-client-id", nonce)
    check("native: ID token validates (signature, iss, aud, exp, nonce)", claims["sub"].startswith("auth0|"))
    check("native: refresh token issued with offline_access", "refresh_token" in token)

    info = client.get(metadata["userinfo_endpoint"], timeout=10)
    check("userinfo: 200 with sub and email", info.status_code == 200 and info.json().get("email") == ALICE[0])

    # The same code again, and a code with the wrong verifier: invalid_grant.
    try:
        client.fetch_token(metadata["token_endpoint"], authorization_response=callback, code_verifier=verifier)
        check("code reuse rejected", False, "second exchange succeeded")
    except OAuth2Error as error:
        check("code reuse rejected with invalid_grant", error.error == "invalid_grant", error.error)
    other, _, other_callback, _, _ = code_flow(metadata, "native-client-id", None, redirect, "none")
    fresh, state = other.create_authorization_url(
        metadata["authorization_endpoint"], code_verifier=secrets.token_urlsafe(48), nonce="n"
    )
    callback_wrong = browse_to_callback(fresh, redirect, ALICE)
    try:
        other.fetch_token(
            metadata["token_endpoint"],
            authorization_response=callback_wrong,
            code_verifier=secrets.token_urlsafe(48),
            state=state,
        )
        check("PKCE mismatch rejected", False, "exchange with a wrong verifier succeeded")
    except OAuth2Error as error:
        check("PKCE mismatch rejected with invalid_grant", error.error == "invalid_grant", error.error)

    # The replayed code revoked what its first exchange issued (RFC 6749 §4.1.2; the OpenID
    # conformance suite's code-reuse test): that refresh token is refused.
    try:
        client.refresh_token(metadata["token_endpoint"], refresh_token=token["refresh_token"])
        check("code replay revoked the refresh token it issued", False, "the refresh token still works")
    except OAuth2Error as error:
        check("code replay revoked the refresh token it issued", error.error == "invalid_grant", error.error)

    # Refresh with rotation on a fresh login; the old refresh token is then refused.
    client, token, _, _, _ = code_flow(metadata, "native-client-id", None, redirect, "none")
    first_refresh = token["refresh_token"]
    renewed = client.refresh_token(metadata["token_endpoint"], refresh_token=first_refresh)
    check("refresh: new access token", renewed["access_token"] != token["access_token"])
    check("refresh: rotated", renewed.get("refresh_token") not in (None, first_refresh))
    try:
        client.refresh_token(metadata["token_endpoint"], refresh_token=first_refresh)
        check("refresh reuse rejected", False, "reused refresh token accepted")
    except OAuth2Error as error:
        check("refresh reuse rejected with invalid_grant", error.error == "invalid_grant", error.error)

    # Revocation (RFC 7009): the revoked refresh token no longer works.
    _, token2, _, _, _ = code_flow(metadata, "native-client-id", None, redirect, "none")
    revoke = client.revoke_token(metadata["revocation_endpoint"], token=token2["refresh_token"])
    check("revoke: 200", revoke.status_code == 200, revoke.status_code)
    try:
        client.refresh_token(metadata["token_endpoint"], refresh_token=token2["refresh_token"])
        check("revoked refresh token rejected", False, "accepted")
    except OAuth2Error as error:
        check("revoked refresh token rejected with invalid_grant", error.error == "invalid_grant", error.error)

    # Confidential web client with client_secret_basic (the library's default), and a wrong secret.
    web_redirect = "https://web.example.com/callback"
    _, web_token, _, _, web_nonce = code_flow(
        metadata, "web-client-id", "web-client-secret", web_redirect, "client_secret_basic"
    )
    validate_id_token(web_token["id_token"], metadata, "web-client-id", web_nonce)
    check("web: code exchanged with client_secret_basic", "access_token" in web_token)
    try:
        code_flow(metadata, "web-client-id", "not-the-secret", web_redirect, "client_secret_post")
        check("wrong client secret rejected", False, "accepted")
    except OAuth2Error as error:
        # RFC 6749 says invalid_client; Auth0 answers access_denied "Unauthorized" (docs/protocol.md §3.7), as the mock does.
        check(
            "wrong client secret rejected with invalid_client or access_denied",
            error.error in ("invalid_client", "access_denied"),
            error.error,
        )

    # Client credentials for an API.
    m2m = OAuth2Session("m2m-client-id", "m2m-client-secret", token_endpoint_auth_method="client_secret_post")
    machine = m2m.fetch_token(
        metadata["token_endpoint"], grant_type="client_credentials", audience="https://api.example.com"
    )
    check("client credentials: access token for the API", machine.get("token_type") == "Bearer")

    # The device flow, and the advertised registration endpoint (off, as on Auth0 by default).
    device_flow(metadata)
    registration = requests.post(
        metadata["registration_endpoint"], json={"redirect_uris": ["https://rp.example.com/cb"]}, timeout=10
    )
    check(
        "registration: an OAuth error while registration is off",
        registration.status_code in (400, 401, 403) and "error" in registration.json(),
        registration.text,
    )

    return summary()


if __name__ == "__main__":
    sys.exit(main())
