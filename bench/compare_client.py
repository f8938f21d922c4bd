"""A plain Python client doing the bench's login flow against the mock: httpx, PyJWT, HTMLParser.

The flow (the one `authflow bench` times and `bench/compare` compares): GET /authorize with PKCE
(S256), state, nonce and `audience: https://api.example.com` -> the Universal Login page, whose
login form is parsed with the standard library's HTMLParser (every hidden field carried over) ->
POST the form with Alice's credentials -> follow the redirects until the client's callback ->
check `state` -> POST /oauth/token with the code and the verifier -> the ID token's RS256
signature verified against the tenant's JWKS and its iss, aud, exp, iat (present, not in the
future) and nonce checked -> the access token's `aud` contains the API.

The discovery document and the JWKS are read once per process, as a client caches them. Each flow
has a fresh cookie jar (a new browser); the connections of one worker are kept alive, as
authflow's pooled client keeps them.

Usage: python compare_client.py BASE_URL FLOWS WORKERS [EXPECTED_AUDIENCE]
(EXPECTED_AUDIENCE, default the audience asked for, is what the access token's `aud` must contain:
bench/compare's self-check passes another one and requires the client to fail.)
Prints `ok N flows` and exits 0 when every flow passed every check, else prints the first failure
and exits 1.
"""

import base64
import hashlib
import os
import secrets
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import parse_qs, urlencode, urljoin, urlsplit

import httpx
import jwt

# The HTML form reader shared with the interop clients (standard library only).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "interop"))
from html_forms import Forms  # noqa: E402

CLIENT_ID = "native-client-id"
REDIRECT_URI = "https://app.example.com/callback"
AUDIENCE = "https://api.example.com"
ALICE = ("alice@example.com", "Alice-Passw0rd!")
MAX_REDIRECTS = 10
TIMEOUT = 30.0
LEEWAY = 60


class FlowFailed(Exception):
    pass


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


class Tenant:
    """Discovery and the JWKS, read once."""

    def __init__(self, base):
        with httpx.Client(timeout=TIMEOUT) as client:
            self.metadata = client.get(base + ".well-known/openid-configuration").raise_for_status().json()
            jwks = client.get(self.metadata["jwks_uri"]).raise_for_status().json()
        self.keys = {key["kid"]: jwt.PyJWK(key).key for key in jwks["keys"] if key.get("kty") == "RSA"}
        self.issuer = self.metadata["issuer"]


def login_flow(tenant, client, expected_audience):
    """One login; raises FlowFailed naming the check that failed."""
    client.cookies.clear()  # a new browser
    verifier = b64url(secrets.token_bytes(32))
    state, nonce = b64url(secrets.token_bytes(32)), b64url(secrets.token_bytes(16))
    query = {
        "client_id": CLIENT_ID,
        "response_type": "code",
        "redirect_uri": REDIRECT_URI,
        "scope": "openid profile email",
        "audience": AUDIENCE,
        "state": state,
        "nonce": nonce,
        "code_challenge": b64url(hashlib.sha256(verifier.encode()).digest()),
        "code_challenge_method": "S256",
    }
    url, method, data = tenant.metadata["authorization_endpoint"] + "?" + urlencode(query), "GET", None
    callback = None
    for _ in range(MAX_REDIRECTS):
        response = client.request(method, url, data=data)
        if response.is_redirect:
            location = urljoin(url, response.headers["location"])
            if location.startswith(REDIRECT_URI):
                callback = location
                break
            url, method, data = location, "GET", None
            continue
        if response.status_code != 200:
            raise FlowFailed(f"{method} {url}: HTTP {response.status_code}")
        parser = Forms()
        parser.feed(response.text)
        form = next((f for f in parser.forms if "password" in f["fields"]), None)
        if form is None:
            raise FlowFailed(f"no login form at {url}")
        fields = dict(form["fields"])
        for name, value in form["buttons"]:
            fields.setdefault(name, value)
        fields["username"], fields["password"] = ALICE
        url, method, data = urljoin(url, form["action"] or url), form["method"].upper(), fields
    if callback is None:
        raise FlowFailed(f"no redirect to the callback within {MAX_REDIRECTS} requests")
    params = parse_qs(urlsplit(callback).query)
    if params.get("state") != [state]:
        raise FlowFailed("the callback's state is not the one sent")
    if "code" not in params:
        raise FlowFailed(f"no code at the callback: {params.get('error')}")
    token = client.post(
        tenant.metadata["token_endpoint"],
        data={
            "grant_type": "authorization_code",
            "client_id": CLIENT_ID,
            "code": params["code"][0],
            "code_verifier": verifier,
            "redirect_uri": REDIRECT_URI,
        },
    )
    if token.status_code != 200:
        raise FlowFailed(f"token endpoint: HTTP {token.status_code} {token.text[:200]}")
    body = token.json()
    id_token = body["id_token"]
    header = jwt.get_unverified_header(id_token)
    key = tenant.keys.get(header.get("kid"))
    if key is None:
        raise FlowFailed(f"no JWKS key for kid {header.get('kid')}")
    try:
        claims = jwt.decode(
            id_token,
            key,
            algorithms=["RS256"],
            audience=CLIENT_ID,
            issuer=tenant.issuer,
            leeway=LEEWAY,
            options={"require": ["exp", "iat", "iss", "aud", "sub"]},
        )
    except jwt.PyJWTError as error:
        raise FlowFailed(f"ID token rejected: {error}") from error
    if claims.get("nonce") != nonce:
        raise FlowFailed("ID token nonce is not the one sent")
    if claims.get("email") != ALICE[0]:
        raise FlowFailed("ID token email is not Alice's")
    access = jwt.decode(body["access_token"], options={"verify_signature": False})
    audiences = access.get("aud")
    if expected_audience not in (audiences if isinstance(audiences, list) else [audiences]):
        raise FlowFailed(f"access token aud {audiences!r} lacks {expected_audience}")


def main():
    base, flows, workers = sys.argv[1].rstrip("/") + "/", int(sys.argv[2]), int(sys.argv[3])
    expected_audience = sys.argv[4] if len(sys.argv) > 4 else AUDIENCE
    if not (1 <= flows <= 100_000 and 1 <= workers <= 64):
        sys.exit("flows must be 1...100000 and workers 1...64")
    tenant = Tenant(base)
    local = threading.local()
    clients = []
    lock = threading.Lock()

    def worker_client():
        if not hasattr(local, "client"):
            local.client = httpx.Client(timeout=TIMEOUT, follow_redirects=False)
            with lock:
                clients.append(local.client)
        return local.client

    started = time.monotonic()
    failures = []
    with ThreadPoolExecutor(max_workers=workers) as pool:
        futures = [pool.submit(lambda: login_flow(tenant, worker_client(), expected_audience)) for _ in range(flows)]
        for future in futures:
            try:
                future.result(timeout=TIMEOUT * 4)
            except Exception as error:  # noqa: BLE001 - every failure is reported
                failures.append(repr(error))
    for client in clients:
        client.close()
    if failures:
        print(f"FAIL {len(failures)} of {flows} flows; first: {failures[0]}")
        sys.exit(1)
    print(f"ok {flows} flows in {time.monotonic() - started:.3f}s")


if __name__ == "__main__":
    main()
