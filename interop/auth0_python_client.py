"""Drives the authflow mock tenant with auth0-python, the official Auth0 SDK for Python.

The SDK talks to the mock exactly as it talks to a tenant: `domain` is the mock's host:port and
`protocol="http"` (the SDK's own switch for testing). What it exercises:

- `GetToken`: password-realm login, client credentials, authorization code with PKCE and without
  (the code comes from the mock's real HTML login form, driven with `requests` and a cookie
  session), refresh with rotation, passwordless OTP, CIBA (`backchannel_login`);
- `PushedAuthorizationRequests` (PAR) followed by `/authorize?request_uri=…`;
- `Passwordless` email and SMS start (the code is read from the mock's outbox), `Database` signup
  and change_password, `Users.userinfo`, `RevokeToken`, `BackChannelLogin`;
- `TokenVerifier` + `AsymmetricSignatureVerifier` (and the async pair): ID-token signature, iss, aud, exp, iat, nonce,
  max_age/auth_time and organization (org_id and org_name);
- the errors the SDK raises (`Auth0Error` status, error_code, message) for a wrong password, a
  blocked user, a PKCE mismatch, a reused code, a reused refresh token, a wrong OTP, a duplicate
  signup, and every CIBA polling answer;
- the Management API client (`auth0.management`): users get/update and organization invitations
  create/list/get/delete with an m2m token for `<base>api/v2/`.

Usage: python auth0_python_client.py BASE_URL   (exit 0 when every check passes)
"""

import asyncio
import base64
import hashlib
import json
import secrets
import sys
from urllib.parse import parse_qs, urlencode, urlsplit

import requests
from auth0.authentication import Database, GetToken, Passwordless, RevokeToken, Users
from auth0.authentication.async_token_verifier import AsyncAsymmetricSignatureVerifier, AsyncTokenVerifier
from auth0.authentication.back_channel_login import BackChannelLogin
from auth0.authentication.pushed_authorization_requests import PushedAuthorizationRequests
from auth0.authentication.exceptions import Auth0Error, TokenValidationError
from auth0.authentication.token_verifier import AsymmetricSignatureVerifier, TokenVerifier
from auth0.management import Auth0 as ManagementAPI
from auth0.management.core.api_error import ApiError as ManagementError
from common import browse_to_callback, check, summary

BASE = sys.argv[1].rstrip("/") + "/"
DOMAIN = urlsplit(BASE).netloc
HTTP = {"protocol": "http"}
ALICE = ("alice@example.com", "Alice-Passw0rd!")
ALICE_ID = "auth0|alice0001"
NATIVE = "native-client-id"
WEB, WEB_SECRET = "web-client-id", "web-client-secret"
M2M, M2M_SECRET = "m2m-client-id", "m2m-client-secret"
NATIVE_CALLBACK = "https://app.example.com/callback"
WEB_CALLBACK = "https://web.example.com/callback"
DB = "Username-Password-Authentication"
CIBA = "urn:openid:params:grant-type:ciba"


def expect_error(name, call, status, code, message=None):
    """Runs `call`, which must raise Auth0Error with this status, error_code and (if given) message."""
    try:
        call()
    except Auth0Error as error:
        got = (error.status_code, error.error_code, error.message)
        ok = error.status_code == status and error.error_code == code and (message is None or error.message == message)
        check(name, ok, f"got {got}")
        return error
    check(name, False, "no error raised")
    return None


def verifier(client_id):
    return TokenVerifier(
        signature_verifier=AsymmetricSignatureVerifier(BASE + ".well-known/jwks.json"),
        issuer=BASE,
        audience=client_id,
        leeway=60,
    )


def rejected(call):
    try:
        call()
        return False
    except TokenValidationError:
        return True


def login_in_browser(client_id, redirect_uri, credentials=ALICE, **parameters):
    """`/authorize` through the mock's login form in a cookie session; returns the callback's query."""
    query = {"client_id": client_id, "redirect_uri": redirect_uri, "response_type": "code", **parameters}
    location = browse_to_callback(BASE + "authorize?" + urlencode(query), redirect_uri, credentials)
    return {key: values[0] for key, values in parse_qs(urlsplit(location).query).items()}


def pkce_pair():
    verifier_text = base64.urlsafe_b64encode(secrets.token_bytes(32)).rstrip(b"=").decode()
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier_text.encode()).digest()).rstrip(b"=").decode()
    return verifier_text, challenge


def outbox_code(address):
    messages = requests.get(BASE + "__mock/outbox", params={"to": address}, timeout=10).json()["messages"]
    return messages[-1].get("code") if messages else None


def advance_clock(seconds):
    requests.post(BASE + "__mock/clock/advance", json={"seconds": seconds}, timeout=10).raise_for_status()


def password_login():
    native = GetToken(DOMAIN, NATIVE, **HTTP)
    tokens = native.login(
        username=ALICE[0], password=ALICE[1], realm=DB, scope="openid profile email offline_access"
    )
    claims = verifier(NATIVE).verify(tokens["id_token"])
    check("login (password-realm): ID token verifies", claims["sub"] == ALICE_ID, claims.get("sub"))
    check("login: Bearer token, expires_in, refresh token", tokens.get("token_type") == "Bearer"
          and isinstance(tokens.get("expires_in"), int) and "refresh_token" in tokens)
    no_realm = native.login(username=ALICE[0], password=ALICE[1])
    check("login without realm or scope (nulls in the JSON body)", "access_token" in no_realm)
    expect_error("login: wrong password", lambda: native.login(username=ALICE[0], password="nope", realm=DB),
                 403, "invalid_grant", "Wrong email or password.")
    expect_error("login: blocked user", lambda: native.login(
        username="blocked@example.com", password="Blocked-Passw0rd!", realm=DB), 401, "unauthorized", "user is blocked")
    expect_error("login: unknown connection", lambda: native.login(
        username=ALICE[0], password=ALICE[1], realm="no-such-db"), 400, "invalid_request")
    expect_error("login: grant not enabled on the app", lambda: GetToken(DOMAIN, M2M, M2M_SECRET, **HTTP).login(
        username=ALICE[0], password=ALICE[1], realm=DB), 403, "unauthorized_client")
    web = GetToken(DOMAIN, WEB, client_secret=WEB_SECRET, **HTTP).login(
        username=ALICE[0], password=ALICE[1], realm=DB, scope="openid email")
    check("login with a client secret (web app)", verifier(WEB).verify(web["id_token"])["sub"] == ALICE_ID)
    expect_error("login: wrong client secret", lambda: GetToken(DOMAIN, WEB, client_secret="wrong", **HTTP).login(
        username=ALICE[0], password=ALICE[1], realm=DB), 401, "access_denied", "Unauthorized")
    api = native.login(username=ALICE[0], password=ALICE[1], realm=DB, scope="openid read:messages",
                       audience="https://api.example.com")
    check("login with an API audience: scope granted", "read:messages" in api.get("scope", ""), api.get("scope"))

    async_verifier = AsyncTokenVerifier(
        signature_verifier=AsyncAsymmetricSignatureVerifier(BASE + ".well-known/jwks.json"),
        issuer=BASE, audience=NATIVE, leeway=60)
    async_claims = asyncio.run(async_verifier.verify(tokens["id_token"]))
    check("AsyncTokenVerifier (aiohttp JWKS fetch) verifies the ID token", async_claims.get("sub") == ALICE_ID)
    info = Users(DOMAIN, **HTTP).userinfo(tokens["access_token"])
    check("userinfo: sub and email", info.get("sub") == ALICE_ID and info.get("email") == ALICE[0], info)
    check("userinfo: updated_at ISO string", isinstance(info.get("updated_at"), str) and info["updated_at"].endswith("Z"))
    expect_error("userinfo: bad token", lambda: Users(DOMAIN, **HTTP).userinfo("not-a-token"), 401,
                 "a0.sdk.internal.unknown")
    return tokens


def refresh_and_revoke(tokens):
    native = GetToken(DOMAIN, NATIVE, **HTTP)
    first = tokens["refresh_token"]
    renewed = native.refresh_token(first)
    check("refresh: new access token", renewed.get("access_token") not in (None, tokens["access_token"]))
    check("refresh: rotated refresh token", renewed.get("refresh_token") not in (None, first))
    check("refresh: ID token verifies", verifier(NATIVE).verify(renewed["id_token"])["sub"] == ALICE_ID)
    down = native.refresh_token(renewed["refresh_token"], scope="openid email")
    check("refresh: down-scoped", down.get("scope") == "openid email", down.get("scope"))
    expect_error("refresh: reused token", lambda: native.refresh_token(first), 403, "invalid_grant",
                 "Unknown or invalid refresh token.")

    again = native.login(username=ALICE[0], password=ALICE[1], realm=DB, scope="openid offline_access")
    result = RevokeToken(DOMAIN, NATIVE, **HTTP).revoke_refresh_token(again["refresh_token"])
    check("revoke: empty 200", result in ("", None, {}), result)
    expect_error("refresh after revoke", lambda: native.refresh_token(again["refresh_token"]), 403, "invalid_grant",
                 "Unknown or invalid refresh token.")
    expect_error("revoke: wrong client secret", lambda: RevokeToken(
        DOMAIN, WEB, client_secret="wrong", **HTTP).revoke_refresh_token("x"), 401, "invalid_client")


def client_credentials():
    m2m = GetToken(DOMAIN, M2M, client_secret=M2M_SECRET, **HTTP)
    token = m2m.client_credentials("https://api.example.com")
    check("client credentials: token for the API", token.get("token_type") == "Bearer"
          and "id_token" not in token and "refresh_token" not in token)
    org = m2m.client_credentials("https://api.example.com", organization="org_acme123")
    payload = json.loads(base64.urlsafe_b64decode(org["access_token"].split(".")[1] + "=="))
    check("client credentials with organization: org_id in the access token", payload.get("org_id") == "org_acme123",
          payload)
    expect_error("client credentials: wrong secret", lambda: GetToken(
        DOMAIN, M2M, client_secret="wrong", **HTTP).client_credentials("https://api.example.com"), 401, "access_denied",
        "Unauthorized")
    expect_error("client credentials: unknown audience", lambda: m2m.client_credentials("https://nope.example.com"),
                 403, "access_denied")
    return m2m.client_credentials(BASE + "api/v2/")


def code_flows():
    native = GetToken(DOMAIN, NATIVE, **HTTP)
    code_verifier, challenge = pkce_pair()
    nonce, state = secrets.token_urlsafe(32), secrets.token_urlsafe(32)
    callback = login_in_browser(NATIVE, NATIVE_CALLBACK, scope="openid profile email offline_access", state=state,
                                nonce=nonce, code_challenge=challenge, code_challenge_method="S256", max_age="300")
    check("authorize: state echoed", callback.get("state") == state)
    tokens = native.authorization_code_pkce(code_verifier, callback["code"], NATIVE_CALLBACK)
    claims = verifier(NATIVE).verify(tokens["id_token"], nonce=nonce, max_age=300)
    check("code + PKCE: ID token verifies with nonce and max_age", "auth_time" in claims)
    check("code + PKCE: refresh token with offline_access", "refresh_token" in tokens)
    check("ID token: wrong nonce rejected by the SDK",
          rejected(lambda: verifier(NATIVE).verify(tokens["id_token"], nonce="other")))
    check("ID token: wrong audience rejected by the SDK",
          rejected(lambda: verifier(WEB).verify(tokens["id_token"])))
    check("ID token: organization expected but absent rejected by the SDK",
          rejected(lambda: verifier(NATIVE).verify(tokens["id_token"], organization="org_acme123")))
    expect_error("code reuse", lambda: native.authorization_code_pkce(code_verifier, callback["code"], NATIVE_CALLBACK),
                 403, "invalid_grant", "Invalid authorization code")

    _, challenge = pkce_pair()
    wrong = login_in_browser(NATIVE, NATIVE_CALLBACK, code_challenge=challenge, code_challenge_method="S256")
    expect_error("PKCE mismatch", lambda: native.authorization_code_pkce(pkce_pair()[0], wrong["code"],
                                                                        NATIVE_CALLBACK),
                 403, "invalid_grant", "Failed to verify code verifier")
    code_verifier, challenge = pkce_pair()
    other = login_in_browser(NATIVE, NATIVE_CALLBACK, code_challenge=challenge, code_challenge_method="S256")
    expect_error("code: redirect_uri mismatch", lambda: native.authorization_code_pkce(
        code_verifier, other["code"], "com.example.app://127.0.0.1/ios/com.example.app/callback"), 403, "invalid_grant")

    # Organization login: org_id and the lowercase org_name in the ID token.
    code_verifier, challenge = pkce_pair()
    nonce = secrets.token_urlsafe(32)
    org = login_in_browser(NATIVE, NATIVE_CALLBACK, organization="org_acme123", nonce=nonce,
                           code_challenge=challenge, code_challenge_method="S256")
    org_tokens = native.authorization_code_pkce(code_verifier, org["code"], NATIVE_CALLBACK)
    org_claims = verifier(NATIVE).verify(org_tokens["id_token"], nonce=nonce, organization="org_acme123")
    check("organization login: org_id verifies", org_claims.get("org_id") == "org_acme123")
    check("organization login: org_name verifies (compared lowercased)",
          verifier(NATIVE).verify(org_tokens["id_token"], organization="ACME").get("org_name") == "acme")
    check("organization: wrong org rejected by the SDK",
          rejected(lambda: verifier(NATIVE).verify(org_tokens["id_token"], organization="org_globex456")))

    # Confidential web app: plain authorization code, client_secret in the body.
    nonce = secrets.token_urlsafe(32)
    web_callback = login_in_browser(WEB, WEB_CALLBACK, scope="openid profile email offline_access", nonce=nonce)
    web = GetToken(DOMAIN, WEB, client_secret=WEB_SECRET, **HTTP)
    web_tokens = web.authorization_code(web_callback["code"], WEB_CALLBACK)
    check("web: code exchanged with client_secret", verifier(WEB).verify(web_tokens["id_token"], nonce=nonce)[
        "sub"] == ALICE_ID)
    check("web: refresh with client_secret", "access_token" in web.refresh_token(web_tokens["refresh_token"]))
    bad = login_in_browser(WEB, WEB_CALLBACK)
    expect_error("web: wrong client secret", lambda: GetToken(DOMAIN, WEB, client_secret="wrong", **HTTP)
                 .authorization_code(bad["code"], WEB_CALLBACK), 401, "access_denied", "Unauthorized")


def pushed_authorization():
    par = PushedAuthorizationRequests(DOMAIN, WEB, client_secret=WEB_SECRET, **HTTP)
    nonce, state = secrets.token_urlsafe(32), secrets.token_urlsafe(32)
    pushed = par.pushed_authorization_request("code", WEB_CALLBACK, scope="openid profile email", nonce=nonce,
                                              state=state)
    check("PAR: request_uri and expires_in", pushed.get("request_uri", "").startswith(
        "urn:ietf:params:oauth:request_uri:") and isinstance(pushed.get("expires_in"), int), pushed)
    callback = login_in_browser(WEB, WEB_CALLBACK, request_uri=pushed["request_uri"])
    check("PAR: /authorize with request_uri uses the pushed state", callback.get("state") == state)
    tokens = GetToken(DOMAIN, WEB, client_secret=WEB_SECRET, **HTTP).authorization_code(callback["code"], WEB_CALLBACK)
    check("PAR: ID token carries the pushed nonce", verifier(WEB).verify(tokens["id_token"], nonce=nonce)[
        "sub"] == ALICE_ID)
    expect_error("PAR: callback not allowed", lambda: par.pushed_authorization_request(
        "code", "https://evil.example.com/cb"), 400, "invalid_request")
    expect_error("PAR: wrong client secret", lambda: PushedAuthorizationRequests(
        DOMAIN, WEB, client_secret="wrong", **HTTP).pushed_authorization_request("code", WEB_CALLBACK), 401,
        "access_denied")


def passwordless():
    native = GetToken(DOMAIN, NATIVE, **HTTP)
    start = Passwordless(DOMAIN, NATIVE, **HTTP)
    email = f"pwless-{secrets.token_hex(4)}@example.com"
    sent = start.email(email, send="code")
    check("passwordless email start: 200 echo", sent.get("email") == email, sent)
    code = outbox_code(email)
    check("passwordless email: code in the outbox", bool(code))
    expect_error("passwordless: wrong code", lambda: native.passwordless_login(
        email, "000000" if code != "000000" else "111111", "email", "openid", None), 403, "invalid_grant",
        "Wrong email or verification code.")
    tokens = native.passwordless_login(email, code, "email", "openid profile email", None)
    claims = verifier(NATIVE).verify(tokens["id_token"])
    check("passwordless email login: ID token for the address", claims.get("email") == email, claims)
    expect_error("passwordless: code is single use", lambda: native.passwordless_login(
        email, code, "email", "openid", None), 403, "invalid_grant", "Wrong email or verification code.")

    phone = "+1555555" + str(secrets.randbelow(9000) + 1000)
    start.sms(phone)
    sms_code = outbox_code(phone)
    check("passwordless sms: code in the outbox", bool(sms_code))
    sms = native.passwordless_login(phone, sms_code, "sms", "openid", None)
    check("passwordless sms login", "id_token" in sms)
    expect_error("passwordless sms: bad number", lambda: start.sms("555-0100"), 400, "bad.phone_number")


def database():
    db = Database(DOMAIN, NATIVE, **HTTP)
    email = f"signup-{secrets.token_hex(4)}@example.com"
    password = "Zebra-" + secrets.token_hex(6) + "!9"
    user = db.signup(email, password, DB, user_metadata={"plan": "free"}, given_name="Sam", family_name="Signup")
    check("signup: email and email_verified false", user.get("email") == email and user.get("email_verified") is False,
          user)
    tokens = GetToken(DOMAIN, NATIVE, **HTTP).login(username=email, password=password, realm=DB,
                                                    scope="openid profile")
    check("signup then login", verifier(NATIVE).verify(tokens["id_token"]).get("given_name") == "Sam")
    expect_error("signup: duplicate", lambda: db.signup(email, password, DB), 400, "user_exists")
    expect_error("signup: weak password", lambda: db.signup(f"weak-{secrets.token_hex(4)}@example.com", "abc", DB),
                 400, "invalid_password")
    text = db.change_password(email, DB)
    check("change_password: confirmation text", text == "We've just sent you an email to reset your password.", text)
    messages = requests.get(BASE + "__mock/outbox", params={"to": email}, timeout=10).json()["messages"]
    check("change_password: reset link in the outbox", any("link" in m for m in messages))


def ciba():
    login_hint = json.dumps({"format": "iss_sub", "iss": BASE, "sub": ALICE_ID})
    start = BackChannelLogin(DOMAIN, WEB, client_secret=WEB_SECRET, **HTTP)
    poll = GetToken(DOMAIN, WEB, client_secret=WEB_SECRET, **HTTP)
    request = start.back_channel_login("Approve sign-in 4811", login_hint, "openid profile email offline_access")
    check("bc-authorize: auth_req_id, expires_in, interval", request.get("auth_req_id") and request.get(
        "expires_in") == 300 and request.get("interval") == 5, request)
    auth_req_id = request["auth_req_id"]
    pending = expect_error("ciba: pending", lambda: poll.backchannel_login(auth_req_id), 400, "authorization_pending",
                           "The end-user authorization is pending")
    fast = expect_error("ciba: polling too fast", lambda: poll.backchannel_login(auth_req_id), 400, "slow_down")
    check("ciba: slow_down carries Retry-After", bool(fast and fast.headers.get("Retry-After")))
    check("ciba: pending has no Retry-After", bool(pending) and "Retry-After" not in pending.headers)
    approve = requests.post(BASE + f"__mock/ciba/{auth_req_id}", json={"approve": True}, timeout=10)
    check("ciba: approved through /__mock/ciba", approve.status_code == 204, approve.status_code)
    tokens = poll.backchannel_login(auth_req_id)
    claims = verifier(WEB).verify(tokens["id_token"])
    check("ciba: tokens for the hinted user", claims["sub"] == ALICE_ID and "refresh_token" in tokens, claims)
    expect_error("ciba: auth_req_id is single use", lambda: poll.backchannel_login(auth_req_id), 400, "invalid_grant")

    denied = start.back_channel_login("Deny this one", login_hint, "openid")["auth_req_id"]
    requests.post(BASE + f"__mock/ciba/{denied}", json={"approve": False}, timeout=10).raise_for_status()
    expect_error("ciba: denied", lambda: poll.backchannel_login(denied), 400, "access_denied",
                 "The end-user denied the authorization request or it has been expired")

    short = start.back_channel_login("Expires soon", login_hint, "openid", requested_expiry=10)
    check("ciba: requested_expiry honoured", short.get("expires_in") == 10, short)
    advance_clock(11)
    try:
        expect_error("ciba: expired on the virtual clock", lambda: poll.backchannel_login(short["auth_req_id"]), 400,
                     "expired_token")
    finally:
        advance_clock(-11)

    rar = [{"type": "payment_initiation", "amount": "42.00"}]
    with_details = start.back_channel_login("Pay 42", login_hint, "openid", authorization_details=rar)
    requests.post(BASE + f"__mock/ciba/{with_details['auth_req_id']}", json={"approve": True}, timeout=10)
    granted = poll.backchannel_login(with_details["auth_req_id"])
    check("ciba: authorization_details returned", granted.get("authorization_details") == rar,
          granted.get("authorization_details"))

    expect_error("bc-authorize: scope without openid", lambda: start.back_channel_login(
        "No openid", login_hint, "profile"), 400, "invalid_scope")
    expect_error("bc-authorize: unknown user", lambda: start.back_channel_login(
        "Who", json.dumps({"format": "iss_sub", "iss": BASE, "sub": "auth0|nobody"}), "openid"), 400, "unknown_user_id")
    expect_error("bc-authorize: bad binding_message", lambda: start.back_channel_login(
        "<script>", login_hint, "openid"), 400, "invalid_binding_message")
    expect_error("bc-authorize: client without the CIBA grant", lambda: BackChannelLogin(
        DOMAIN, NATIVE, **HTTP).back_channel_login("Native", login_hint, "openid"), 403, "unauthorized_client")
    expect_error("bc-authorize: wrong secret", lambda: BackChannelLogin(
        DOMAIN, WEB, client_secret="wrong", **HTTP).back_channel_login("Wrong", login_hint, "openid"), 401,
        "access_denied")


def management(m2m_token):
    api = ManagementAPI(base_url=BASE + "api/v2", token=m2m_token["access_token"])
    user = api.users.get(ALICE_ID)
    check("management: users.get", user.user_id == ALICE_ID and user.email == ALICE[0])
    some = api.users.get(ALICE_ID, fields="email,user_id", include_fields=True)
    check("management: users.get with fields", some.email == ALICE[0] and some.name is None)
    color = secrets.token_hex(3)
    updated = api.users.update(ALICE_ID, user_metadata={"favorite_color": color})
    check("management: users.update merges user_metadata", (updated.user_metadata or {}).get("favorite_color") == color)
    try:
        api.users.get("auth0|nobody")
        check("management: unknown user is 404", False, "no error")
    except ManagementError as error:
        check("management: unknown user is 404", error.status_code == 404, error.status_code)

    invitations = api.organizations.invitations
    created = invitations.create(
        "org_acme123", inviter={"name": "Alice"}, invitee={"email": "new.member@example.com"}, client_id=NATIVE
    )
    check("management: invitation created", created.id.startswith("uinv_") and created.organization_id == "org_acme123")
    listed = [item.id for item in invitations.list("org_acme123")]
    check("management: invitations.list pages through", created.id in listed, listed)
    got = invitations.get("org_acme123", created.id)
    check("management: invitations.get", got.invitee.email == "new.member@example.com")
    invitations.delete("org_acme123", created.id)
    try:
        invitations.get("org_acme123", created.id)
        check("management: deleted invitation is gone", False, "still there")
    except ManagementError as error:
        check("management: deleted invitation is gone (404)", error.status_code == 404, error.status_code)
    try:
        ManagementAPI(base_url=BASE + "api/v2", token="not-a-token").users.get(ALICE_ID)
        check("management: bad token is 401", False, "no error")
    except ManagementError as error:
        check("management: bad token is 401", error.status_code == 401, error.status_code)


def main():
    tokens = password_login()
    refresh_and_revoke(tokens)
    m2m_token = client_credentials()
    code_flows()
    pushed_authorization()
    passwordless()
    database()
    ciba()
    management(m2m_token)
    return summary()


if __name__ == "__main__":
    sys.exit(main())
