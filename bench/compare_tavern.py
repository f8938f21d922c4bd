"""Tavern's side of bench/compare: the test file it runs and the `$ext` functions its stages call.

Tavern sends the requests a YAML test describes, one stage after another, with one requests session
(one cookie jar) per test. What it cannot do by itself, done here and named in docs/benchmarks.md:

- it cannot parse an HTML form: `login_form` takes the login form's action and hidden fields
  (`state`, `_csrf`, `captcha`) out of the page with regular expressions written for the mock's
  page — not a generic form parser;
- it cannot compute a PKCE challenge or random values: each test's verifier, challenge, state and
  nonce are made when the file is written (different in every test);
- it cannot check a JWT's signature against a JWKS: `validate_tokens` does it with PyJWT (RS256,
  iss, aud, exp, iat, nonce), and checks the access token's `aud`.

`write_tests(path, base, flows)` writes the test file; `python compare_tavern.py FILE BASE FLOWS
[EXPECTED_AUDIENCE]` does the same from the command line.
"""

import base64
import hashlib
import html
import re
import secrets
import sys
from urllib.parse import parse_qs, urlsplit

import jwt
import requests
import yaml

CLIENT_ID = "native-client-id"
REDIRECT_URI = "https://app.example.com/callback"
AUDIENCE = "https://api.example.com"
ALICE = ("alice@example.com", "Alice-Passw0rd!")
LEEWAY = 60

_tenant = {}


def _b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _keys(base):
    """The issuer and the JWKS's keys by kid, read once per process (as a client caches them)."""
    if base not in _tenant:
        metadata = requests.get(base + ".well-known/openid-configuration", timeout=30).json()
        jwks = requests.get(metadata["jwks_uri"], timeout=30).json()
        keys = {key["kid"]: jwt.PyJWK(key).key for key in jwks["keys"] if key.get("kty") == "RSA"}
        _tenant[base] = (metadata["issuer"], keys)
    return _tenant[base]


def _field(name, page):
    match = re.search(r'name="' + re.escape(name) + r'" value="([^"]*)"', page)
    assert match, f"the login page has no {name} field"
    return html.unescape(match.group(1))


def login_form(response):
    """Saves the login form's action and hidden fields (regular expressions over the mock's page)."""
    page = response.text
    action = re.search(r'<form method="POST" action="([^"]*)" id="login-form">', page)
    assert action, "the page has no login form"
    return {
        "form_action": html.unescape(action.group(1)),
        "form_state": _field("state", page),
        "form_csrf": _field("_csrf", page),
        "form_captcha": _field("captcha", page),
    }


def callback_code(response, state):
    """Saves the code of the redirect to the callback, after checking it is the callback and its state."""
    location = response.headers["location"]
    assert location.startswith(REDIRECT_URI), f"not the callback: {location}"
    params = parse_qs(urlsplit(location).query)
    assert params.get("state") == [state], "the callback's state is not the one sent"
    assert "code" in params, f"no code at the callback: {params.get('error')}"
    return {"code": params["code"][0]}


def validate_tokens(response, base, nonce, audience=AUDIENCE):
    """The ID token's signature against the JWKS and its claims; the access token's audience."""
    issuer, keys = _keys(base)
    body = response.json()
    id_token = body["id_token"]
    key = keys.get(jwt.get_unverified_header(id_token).get("kid"))
    assert key is not None, "no JWKS key for the ID token's kid"
    claims = jwt.decode(
        id_token,
        key,
        algorithms=["RS256"],
        audience=CLIENT_ID,
        issuer=issuer,
        leeway=LEEWAY,
        options={"require": ["exp", "iat", "iss", "aud", "sub"]},
    )
    assert claims.get("nonce") == nonce, "ID token nonce is not the one sent"
    assert claims.get("email") == ALICE[0], "ID token email is not Alice's"
    access = jwt.decode(body["access_token"], options={"verify_signature": False})
    audiences = access.get("aud")
    assert audience in (audiences if isinstance(audiences, list) else [audiences]), f"access token aud {audiences!r}"


def _test(index, base, origin, expected_audience):
    verifier = _b64url(secrets.token_bytes(32))
    state, nonce = _b64url(secrets.token_bytes(32)), _b64url(secrets.token_bytes(16))
    return {
        "test_name": f"login flow {index}",
        "stages": [
            {
                "name": "authorize",
                "request": {
                    "url": base + "authorize",
                    "method": "GET",
                    "params": {
                        "client_id": CLIENT_ID,
                        "response_type": "code",
                        "redirect_uri": REDIRECT_URI,
                        "scope": "openid profile email",
                        "audience": AUDIENCE,
                        "state": state,
                        "nonce": nonce,
                        "code_challenge": _b64url(hashlib.sha256(verifier.encode()).digest()),
                        "code_challenge_method": "S256",
                    },
                },
                "response": {"status_code": 302, "save": {"headers": {"login_path": "location"}}},
            },
            {
                "name": "login page",
                "request": {"url": origin + "{login_path}", "method": "GET"},
                "response": {
                    "status_code": 200,
                    "save": {"$ext": {"function": "compare_tavern:login_form"}},
                },
            },
            {
                "name": "login form",
                "request": {
                    "url": origin + "{form_action}",
                    "method": "POST",
                    "data": {
                        "state": "{form_state}",
                        "_csrf": "{form_csrf}",
                        "captcha": "{form_captcha}",
                        "username": ALICE[0],
                        "password": ALICE[1],
                        "action": "default",
                    },
                },
                "response": {
                    "status_code": 302,
                    "save": {"$ext": {"function": "compare_tavern:callback_code", "extra_kwargs": {"state": state}}},
                },
            },
            {
                "name": "token",
                "request": {
                    "url": base + "oauth/token",
                    "method": "POST",
                    "data": {
                        "grant_type": "authorization_code",
                        "client_id": CLIENT_ID,
                        "code": "{code}",
                        "code_verifier": verifier,
                        "redirect_uri": REDIRECT_URI,
                    },
                },
                "response": {
                    "status_code": 200,
                    "verify_response_with": {
                        "function": "compare_tavern:validate_tokens",
                        "extra_kwargs": {"base": base, "nonce": nonce, "audience": expected_audience},
                    },
                },
            },
        ],
    }


def write_tests(path, base, flows, expected_audience=AUDIENCE):
    """Writes `flows` Tavern tests of the login flow (one YAML document each) to `path`; the access
    token's `aud` must contain `expected_audience` (another one makes every test fail: the self-check)."""
    parts = urlsplit(base)
    origin = f"{parts.scheme}://{parts.netloc}"
    with open(path, "w", encoding="utf-8") as file:
        yaml.safe_dump_all((_test(index, base, origin, expected_audience) for index in range(flows)), file, sort_keys=False)


if __name__ == "__main__":
    write_tests(sys.argv[1], sys.argv[2].rstrip("/") + "/", int(sys.argv[3]), *sys.argv[4:5])
