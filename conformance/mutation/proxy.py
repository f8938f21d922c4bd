#!/usr/bin/env python3
"""The mutation proxy: a reverse proxy in front of the conformance OpenID Provider that injects one
protocol violation at a time (conformance/mutation/run, README.md).

Unmutated, it is a conforming provider at its own issuer: it forwards every request to the upstream
provider (method, path, query, headers with Host, Origin and Referer rewritten, body), never follows
a redirect, rewrites the upstream origin to its own in the discovery document, Location headers and
HTML/JSON/text bodies, serves its OWN JWKS at the discovery's jwks_uri (an RSA 2048 key made at
start, kid "mutation-proxy") and re-signs every ID token of a token-endpoint JSON response with RS256
and that key, its iss rewritten to the proxy's issuer. An ID token it issued that comes back (an
id_token_hint) is swapped for the upstream's original before it is forwarded.

The active mutation is chosen by a control request: `POST /__mutation/<name>` answers 204 (404 for
an unknown name), `POST /__mutation/none` resets, `GET /__mutation` answers the active name and
`GET /__mutation/list` the known names, one a line. Every mutation is one function below; the
names, violations and the modules that must catch them are in mutations.json.

Bounded: request bodies at most 1 MiB (413 beyond), upstream responses at most 8 MiB (502 beyond),
upstream connect and read timeouts of 10 s (502 on expiry), idle client connections closed after
30 s, at most 256 cached codes and 1024 remembered ID tokens. Binds 127.0.0.1 only.

    proxy.py --port 8120 --upstream http://127.0.0.1:8100 [--issuer-path /o]

Needs jwcrypto (installed in the conformance provider's virtualenv).
"""

import argparse
import base64
import collections
import hashlib
import http.client
import json
import re
import sys
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from jwcrypto import jwk, jws

MAX_REQUEST_BODY = 1 << 20
MAX_RESPONSE_BODY = 8 << 20
UPSTREAM_TIMEOUT = 10
CLIENT_IDLE_TIMEOUT = 30
MAX_CACHED_CODES = 256
MAX_REMEMBERED_TOKENS = 1024
KID = "mutation-proxy"

HOP_BY_HOP = {
    "connection", "keep-alive", "proxy-authenticate", "proxy-authorization", "proxy-connection",
    "te", "trailer", "trailers", "transfer-encoding", "upgrade",
}
TEXTUAL = re.compile(r"(?i)^\s*(text/|application/(json|[\w.+-]*\+json|javascript|xml|[\w.+-]*\+xml|x-www-form-urlencoded))")


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def b64url_decode(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Bounded(collections.OrderedDict):
    """An insertion-ordered map that forgets its oldest entries beyond `limit`."""

    def __init__(self, limit):
        super().__init__()
        self.limit = limit

    def __setitem__(self, key, value):
        super().__setitem__(key, value)
        self.move_to_end(key)
        while len(self) > self.limit:
            self.popitem(last=False)


class Exchange:
    """One request and, once forwarded, its response: what the mutation hooks see and change."""

    def __init__(self, method, path, query, headers, body):
        self.method = method
        self.path = path
        self.query = query            # raw query string, without '?'
        self.headers = headers        # list of (name, value), request headers
        self.body = body              # bytes
        self.status = None
        self.reason = ""
        self.response_headers = []    # list of (name, value)
        self.response_body = b""

    # Request helpers
    def form(self):
        try:
            return dict(urllib.parse.parse_qsl(self.body.decode("utf-8"), keep_blank_values=True))
        except UnicodeDecodeError:
            return {}

    def query_params(self):
        return dict(urllib.parse.parse_qsl(self.query, keep_blank_values=True))

    # Response helpers
    def header(self, name):
        for key, value in self.response_headers:
            if key.lower() == name.lower():
                return value
        return None

    def set_header(self, name, value):
        self.response_headers = [(k, v) for k, v in self.response_headers if k.lower() != name.lower()]
        if value is not None:
            self.response_headers.append((name, value))

    def json(self):
        try:
            value = json.loads(self.response_body)
        except ValueError:
            return None
        return value if isinstance(value, dict) else None

    def set_json(self, value):
        self.response_body = json.dumps(value).encode("utf-8")


class Proxy:
    def __init__(self, upstream, port, issuer_path):
        parsed = urllib.parse.urlsplit(upstream)
        if parsed.scheme != "http" or not parsed.hostname:
            raise SystemExit(f"proxy: the upstream must be an http:// origin, not {upstream!r}")
        self.upstream_host = parsed.hostname
        self.upstream_port = parsed.port or 80
        self.upstream_origin = f"http://{parsed.netloc}"
        self.origin = f"http://127.0.0.1:{port}"
        self.issuer = self.origin + issuer_path.rstrip("/")
        self.upstream_issuer = self.upstream_origin + issuer_path.rstrip("/")
        self.key = jwk.JWK.generate(kty="RSA", size=2048, kid=KID, alg="RS256", use="sig")
        # A second key of the same kid, for jwks-duplicate-kid.
        self.twin = jwk.JWK.generate(kty="RSA", size=2048, kid=KID, alg="RS256", use="sig")
        self.lock = threading.Lock()
        self.mutation = "none"
        self.codes = Bounded(MAX_CACHED_CODES)        # code -> cached token response (code-reuse-allowed)
        self.short_codes = Bounded(MAX_CACHED_CODES)  # short alias -> real code (authz-code-short)
        self.tokens = Bounded(MAX_REMEMBERED_TOKENS)  # re-signed ID token -> upstream original
        self.prompt_none_codes = Bounded(MAX_CACHED_CODES)  # codes of prompt=none (prompt-none-sub-changed)
        self.counter = 0
        self.paths = {
            "discovery": issuer_path.rstrip("/") + "/.well-known/openid-configuration",
            "jwks": issuer_path.rstrip("/") + "/.well-known/jwks.json",
            "authorize": issuer_path.rstrip("/") + "/authorize/",
            "token": issuer_path.rstrip("/") + "/token/",
            "userinfo": issuer_path.rstrip("/") + "/userinfo/",
        }

    # ---- discovery of the upstream's endpoint paths -------------------------------------------
    def learn_paths(self, wait_seconds):
        deadline = time.monotonic() + wait_seconds
        last = None
        while time.monotonic() < deadline:
            try:
                exchange = Exchange("GET", self.paths["discovery"], "", [("Accept", "application/json")], b"")
                self.forward(exchange)
                document = exchange.json() if exchange.status == 200 else None
                if document:
                    for name, member in (("jwks", "jwks_uri"), ("authorize", "authorization_endpoint"),
                                         ("token", "token_endpoint"), ("userinfo", "userinfo_endpoint")):
                        url = document.get(member)
                        if isinstance(url, str) and url.startswith(self.upstream_origin):
                            self.paths[name] = urllib.parse.urlsplit(url).path
                    return
                last = f"status {exchange.status}"
            except (OSError, http.client.HTTPException) as error:
                last = str(error)
            time.sleep(0.3)
        raise SystemExit(f"proxy: the upstream discovery document did not answer within {wait_seconds}s ({last})")

    # ---- forwarding -----------------------------------------------------------------------------
    def forward(self, exchange):
        headers = {}
        for name, value in exchange.headers:
            lower = name.lower()
            if lower in HOP_BY_HOP or lower in ("host", "content-length", "accept-encoding"):
                continue
            if lower in ("origin", "referer"):
                value = value.replace(self.origin, self.upstream_origin)
            headers[name] = value
        headers["Host"] = f"{self.upstream_host}:{self.upstream_port}"
        headers["Accept-Encoding"] = "identity"
        if exchange.body or exchange.method in ("POST", "PUT", "PATCH"):
            headers["Content-Length"] = str(len(exchange.body))
        target = exchange.path + ("?" + exchange.query if exchange.query else "")
        connection = http.client.HTTPConnection(self.upstream_host, self.upstream_port, timeout=UPSTREAM_TIMEOUT)
        try:
            connection.request(exchange.method, target, body=exchange.body or None, headers=headers)
            response = connection.getresponse()
            # http.client decodes chunked bodies and honours Content-Length.
            body = b"" if exchange.method == "HEAD" else response.read(MAX_RESPONSE_BODY + 1)
            if len(body) > MAX_RESPONSE_BODY:
                raise http.client.HTTPException(f"the upstream response is larger than {MAX_RESPONSE_BODY} bytes")
            exchange.status = response.status
            exchange.reason = response.reason
            connection_tokens = {t.strip().lower() for t in (response.getheader("Connection") or "").split(",")}
            exchange.response_headers = [
                (k, v) for k, v in response.getheaders()
                if k.lower() not in HOP_BY_HOP and k.lower() not in connection_tokens and k.lower() != "content-length"
            ]
            exchange.response_body = body
        finally:
            connection.close()

    def rewrite_text(self, text):
        upstream, mine = self.upstream_origin, self.origin
        for a, b in ((upstream, mine),
                     (upstream.replace("/", "\\/"), mine.replace("/", "\\/")),
                     (urllib.parse.quote(upstream, safe=""), urllib.parse.quote(mine, safe="")),
                     (urllib.parse.quote(upstream, safe="").lower(), urllib.parse.quote(mine, safe=""))):
            text = text.replace(a, b)
        return text

    def rewrite_origins(self, exchange):
        location = exchange.header("Location")
        if location is not None:
            exchange.set_header("Location", self.rewrite_text(location))
        content_type = exchange.header("Content-Type") or ""
        if exchange.response_body and TEXTUAL.match(content_type):
            charset = re.search(r"(?i)charset=([\w-]+)", content_type)
            try:
                text = exchange.response_body.decode(charset.group(1) if charset else "utf-8")
                exchange.response_body = self.rewrite_text(text).encode(charset.group(1) if charset else "utf-8")
            except (LookupError, UnicodeError):
                pass

    def restore_id_tokens(self, text):
        """Swaps ID tokens this proxy issued (e.g. an id_token_hint) for the upstream's originals."""
        with self.lock:
            known = list(self.tokens.items())
        for mine, original in known:
            if mine in text:
                text = text.replace(mine, original)
        return text

    # ---- the JWT work ---------------------------------------------------------------------------
    def sign(self, header, claims, kid=KID):
        protected = {k: v for k, v in header.items() if k not in ("alg", "kid", "jku", "x5u", "x5c", "x5t", "x5t#S256")}
        protected["alg"] = "RS256"
        if kid is not None:
            protected["kid"] = kid
        token = jws.JWS(json.dumps(claims, separators=(",", ":")).encode("utf-8"))
        token.add_signature(self.key, alg="RS256", protected=json.dumps(protected, separators=(",", ":")))
        return token.serialize(compact=True)

    def jwks(self, mutation):
        key = json.loads(self.key.export_public())
        if mutation == "jwks-private-d":
            key["d"] = json.loads(self.key.export_private())["d"]
        if mutation in ("jwks-kid-removed", "jwks-and-idtoken-kid-removed"):
            key.pop("kid", None)
        keys = [key]
        if mutation == "jwks-duplicate-kid":
            keys.append(json.loads(self.twin.export_public()))
        return {"keys": keys}

    def resign(self, original, mutation, grant_type, access_token):
        parts = original.split(".")
        if len(parts) != 3:
            return original
        try:
            header = json.loads(b64url_decode(parts[0]))
            claims = json.loads(b64url_decode(parts[1]))
        except (ValueError, TypeError):
            return original
        if not isinstance(header, dict) or not isinstance(claims, dict):
            return original
        if claims.get("iss") == self.upstream_issuer:
            claims["iss"] = self.issuer
        now = int(time.time())
        mutate_claims = ID_TOKEN_MUTATIONS.get(mutation)
        if mutate_claims is not None:
            mutate_claims(claims, now, access_token)
        if (mutation == "refresh-idtoken-sub-changed" and grant_type == "refresh_token") or \
                (mutation == "prompt-none-sub-changed" and grant_type == "prompt=none"):
            claims["sub"] = str(claims.get("sub", "")) + "-someone-else"
        if mutation == "idtoken-alg-none":
            token = b64url(json.dumps({"alg": "none", "typ": "JWT"}).encode()) + "." + \
                b64url(json.dumps(claims, separators=(",", ":")).encode()) + "."
        else:
            kid = {"idtoken-kid-unknown": "no-such-key", "jwks-and-idtoken-kid-removed": None}.get(mutation, KID)
            token = self.sign(header, claims, kid)
            if mutation == "idtoken-signature-corrupted":
                head, payload, signature = token.split(".")
                raw = bytearray(b64url_decode(signature))
                for i in range(0, len(raw), 7):
                    raw[i] ^= 0xFF
                token = f"{head}.{payload}.{b64url(bytes(raw))}"
        with self.lock:
            self.tokens[token] = original
        return token

    # ---- the hooks ------------------------------------------------------------------------------
    def before(self, exchange, mutation):
        """Runs before forwarding; returns True when the exchange was answered without upstream."""
        if exchange.query:
            exchange.query = self.restore_id_tokens(exchange.query)
        if exchange.body and b"." in exchange.body:
            try:
                exchange.body = self.restore_id_tokens(exchange.body.decode("utf-8")).encode("utf-8")
            except UnicodeDecodeError:
                pass
        if exchange.path == self.paths["jwks"] and exchange.method in ("GET", "HEAD"):
            exchange.status, exchange.reason = 200, "OK"
            exchange.response_headers = [("Content-Type", "application/json"), ("Cache-Control", "no-store")]
            exchange.response_body = json.dumps(self.jwks(mutation)).encode("utf-8")
            return True
        if exchange.path == self.paths["authorize"] and exchange.method == "GET":
            return self.before_authorize(exchange, mutation)
        if exchange.path == self.paths["userinfo"] and exchange.method == "POST":
            has_bearer = any(k.lower() == "authorization" for k, _ in exchange.headers)
            if mutation == "userinfo-post-refused":
                self.answer(exchange, 405, {"error": "invalid_request", "error_description": "use GET"},
                            [("Allow", "GET")])
                return True
            if mutation == "userinfo-body-token-refused" and not has_bearer and "access_token" in exchange.form():
                self.answer(exchange, 401, {"error": "invalid_request", "error_description": "no Bearer header"},
                            [("WWW-Authenticate", 'Bearer error="invalid_request"')])
                return True
        if exchange.path == self.paths["token"] and exchange.method == "POST":
            form = exchange.form()
            code = form.get("code")
            if mutation == "authz-code-short" and code is not None:
                with self.lock:
                    real = self.short_codes.get(code)
                if real is not None:
                    form["code"] = real
                    exchange.body = urllib.parse.urlencode(form).encode("ascii")
                    code = real
            if mutation == "code-reuse-allowed" and form.get("grant_type") == "authorization_code" and code:
                with self.lock:
                    cached = self.codes.get(code)
                if cached is not None:
                    exchange.status, exchange.reason, exchange.response_headers, exchange.response_body = cached
                    return True
        return False

    @staticmethod
    def answer(exchange, status, body, headers=()):
        exchange.status, exchange.reason = status, http.client.responses.get(status, "")
        exchange.response_headers = [("Content-Type", "application/json"), ("Cache-Control", "no-store")] + list(headers)
        exchange.set_json(body)

    def before_authorize(self, exchange, mutation):
        params = urllib.parse.parse_qsl(exchange.query, keep_blank_values=True)
        names = [k for k, _ in params]
        if mutation == "authz-prompt-none-ignored":
            params = [(k, v) for k, v in params if not (k == "prompt" and v == "none")]
        elif mutation == "authz-prompt-login-ignored":
            params = [(k, v) for k, v in params if not (k == "prompt" and v == "login")]
        elif mutation == "authz-response-type-defaulted" and "response_type" not in names:
            params.append(("response_type", "code"))
        elif mutation == "authz-unknown-parameter-refused":
            unknown = [k for k in names if k not in AUTHORIZATION_PARAMETERS]
            redirect_uri = dict(params).get("redirect_uri")
            if unknown and redirect_uri:
                answer = [("error", "invalid_request"), ("error_description", f"unknown parameter {unknown[0]}")]
                answer += [(k, v) for k, v in params if k == "state"]
                separator = "&" if "?" in redirect_uri else "?"
                exchange.status, exchange.reason = 302, "Found"
                exchange.response_headers = [("Location", redirect_uri + separator + urllib.parse.urlencode(answer)),
                                             ("Content-Type", "text/html; charset=utf-8")]
                exchange.response_body = b""
                return True
        else:
            return False
        exchange.query = urllib.parse.urlencode(params)
        return False

    def after(self, exchange, mutation):
        path = exchange.path
        if path == self.paths["discovery"]:
            self.after_discovery(exchange, mutation)
        elif path == self.paths["token"] and exchange.method == "POST":
            self.after_token(exchange, mutation)
        elif path == self.paths["userinfo"]:
            self.after_userinfo(exchange, mutation)
        elif path == self.paths["authorize"] or path.startswith(self.paths["authorize"]):
            self.after_authorize(exchange, mutation)

    def after_discovery(self, exchange, mutation):
        document = exchange.json()
        if exchange.status != 200 or document is None:
            return
        document["jwks_uri"] = self.origin + self.paths["jwks"]
        if mutation == "discovery-userinfo-endpoint-removed":
            document.pop("userinfo_endpoint", None)
        elif mutation == "discovery-auth-methods-post-only":
            document["token_endpoint_auth_methods_supported"] = ["client_secret_post"]
        elif mutation == "discovery-alg-es256-only":
            document["id_token_signing_alg_values_supported"] = ["ES256"]
        elif mutation == "discovery-issuer-trailing-slash":
            document["issuer"] = self.issuer + "/"
        exchange.set_json(document)

    def after_token(self, exchange, mutation):
        request = exchange.form()
        grant_type = request.get("grant_type")
        body = exchange.json()
        if body is None:
            return
        if exchange.status == 200:
            if isinstance(body.get("id_token"), str):
                with self.lock:
                    prompt_none = self.prompt_none_codes.get(request.get("code", "")) is not None
                if mutation == "prompt-none-sub-changed" and prompt_none and grant_type == "authorization_code":
                    grant_type = "prompt=none"
                body["id_token"] = self.resign(body["id_token"], mutation, grant_type, body.get("access_token"))
            if mutation == "idtoken-missing":
                body.pop("id_token", None)
            elif mutation == "token-type-removed":
                body.pop("token_type", None)
            elif mutation == "expires-in-string" and "expires_in" in body:
                body["expires_in"] = str(body["expires_in"])
            elif mutation == "expires-in-removed":
                body.pop("expires_in", None)
            elif mutation == "refresh-expires-in-string" and grant_type == "refresh_token" and "expires_in" in body:
                body["expires_in"] = str(body["expires_in"])
            elif mutation == "refresh-content-type-text" and grant_type == "refresh_token":
                exchange.set_header("Content-Type", "text/plain; charset=utf-8")
            elif mutation == "refresh-no-store-removed" and grant_type == "refresh_token":
                exchange.set_header("Cache-Control", None)
                exchange.set_header("Pragma", None)
            exchange.set_json(body)
            if mutation == "code-reuse-allowed" and grant_type == "authorization_code" and request.get("code"):
                with self.lock:
                    self.codes[request["code"]] = (exchange.status, exchange.reason,
                                                   list(exchange.response_headers), exchange.response_body)
        elif "error" in body:
            if mutation == "token-error-401" and body.get("error") == "invalid_grant" and exchange.status == 400:
                exchange.status, exchange.reason = 401, "Unauthorized"
            elif mutation == "token-error-description-quote":
                body["error_description"] = 'the code is "used"'
                exchange.set_json(body)
            elif mutation == "token-error-content-type-html":
                exchange.set_header("Content-Type", "text/html; charset=utf-8")

    def after_userinfo(self, exchange, mutation):
        if exchange.status != 200:
            return
        if mutation == "userinfo-content-type-text":
            exchange.set_header("Content-Type", "text/plain; charset=utf-8")
            return
        if mutation == "userinfo-401":
            exchange.status, exchange.reason = 401, "Unauthorized"
            exchange.set_header("WWW-Authenticate", 'Bearer error="invalid_token"')
            exchange.set_header("Content-Type", "application/json")
            exchange.set_json({"error": "invalid_token"})
            return
        body = exchange.json()
        if body is None:
            return
        if mutation == "userinfo-sub-differs":
            body["sub"] = str(body.get("sub", "")) + "-someone-else"
        elif mutation == "userinfo-email-verified-string":
            body["email_verified"] = "true"
        else:
            return
        exchange.set_json(body)

    def after_authorize(self, exchange, mutation):
        location = exchange.header("Location")
        if mutation == "redirect-unregistered-uri" and exchange.status == 400:
            params = exchange.query_params()
            redirect_uri = params.get("redirect_uri")
            if redirect_uri:
                answer = {"error": "invalid_request", "error_description": "redirect_uri mismatch"}
                if "state" in params:
                    answer["state"] = params["state"]
                separator = "&" if "?" in redirect_uri else "?"
                exchange.status, exchange.reason = 302, "Found"
                exchange.set_header("Location", redirect_uri + separator + urllib.parse.urlencode(answer))
                exchange.set_header("Content-Type", "text/html; charset=utf-8")
                exchange.response_body = b""
            return
        if location is None or exchange.status not in (301, 302, 303, 307, 308):
            return
        if location.startswith("/") or location.startswith(self.origin):
            return  # to the login page, not to the client
        base, _, rest = location.partition("?")
        query, hash_mark, fragment = rest.partition("#")
        params = urllib.parse.parse_qsl(query, keep_blank_values=True)
        names = [k for k, _ in params]
        error = "error" in names
        if mutation == "authz-state-removed":
            params = [(k, v) for k, v in params if k != "state"]
        elif mutation == "authz-iss-wrong":
            params = [(k, v) for k, v in params if k != "iss"] + [("iss", "https://evil.example")]
        elif mutation == "authz-error-changed" and error:
            params = [(k, "invalid_request" if k == "error" else v) for k, v in params]
        elif mutation == "authz-code-beside-error" and error:
            params.append(("code", "x"))
        elif mutation == "prompt-none-sub-changed" and "code" in names:
            if exchange.query_params().get("prompt") == "none":
                with self.lock:
                    self.prompt_none_codes[dict(params)["code"]] = True
            return
        elif mutation == "authz-code-short" and "code" in names:
            with self.lock:
                self.counter += 1
                alias = f"c{self.counter}"
                self.short_codes[alias] = dict(params)["code"]
            params = [(k, alias if k == "code" else v) for k, v in params]
        else:
            return
        query = urllib.parse.urlencode(params)
        exchange.set_header("Location", base + ("?" + query if query else "") + hash_mark + fragment)

    # ---- control --------------------------------------------------------------------------------
    def set_mutation(self, name):
        if name != "none" and name not in MUTATIONS:
            return False
        with self.lock:
            self.mutation = name
            self.codes.clear()
            self.short_codes.clear()
            self.prompt_none_codes.clear()
        return True


# ---- the ID-token claim mutations (claims, now, access_token) ----------------------------------

def _at_hash_wrong(claims, now, access_token):
    claims["at_hash"] = b64url(hashlib.sha256(b"not the access token").digest()[:16])


def _nonce_changed(claims, now, access_token):
    claims["nonce"] = str(claims.get("nonce", "")) + "-changed"


def _exp_past(claims, now, access_token):
    claims["iat"] = now - 120
    claims["exp"] = now - 90


def _iat_future(claims, now, access_token):
    claims["iat"] = now + 600
    claims["exp"] = now + 3600


def _iat_stale(claims, now, access_token):
    claims["iat"] = now - 3600
    claims["exp"] = now + 3600


ID_TOKEN_MUTATIONS = {
    "idtoken-iss-wrong": lambda c, n, a: c.__setitem__("iss", "https://evil.example/o"),
    "idtoken-aud-wrong": lambda c, n, a: c.__setitem__("aud", "another-client-id"),
    "idtoken-exp-past": _exp_past,
    "idtoken-iat-future": _iat_future,
    "idtoken-iat-stale": _iat_stale,
    "idtoken-nonce-changed": _nonce_changed,
    "idtoken-sub-too-long": lambda c, n, a: c.__setitem__("sub", "s" * 300),
    "idtoken-at-hash-wrong": _at_hash_wrong,
    "idtoken-acr-empty": lambda c, n, a: c.__setitem__("acr", ""),
    "idtoken-auth-time-future": lambda c, n, a: c.__setitem__("auth_time", n + 3600),
    "idtoken-auth-time-removed": lambda c, n, a: c.pop("auth_time", None),
    "idtoken-name-added": lambda c, n, a: c.setdefault("name", "Alice Example"),
    "idtoken-email-verified-string": lambda c, n, a: c.__setitem__("email_verified", "true"),
}

# Every name the control endpoint accepts (mutations.json describes each).
MUTATIONS = set(ID_TOKEN_MUTATIONS) | {
    "idtoken-signature-corrupted", "idtoken-alg-none", "idtoken-kid-unknown", "idtoken-missing",
    "token-type-removed", "expires-in-string", "expires-in-removed", "refresh-no-store-removed",
    "code-reuse-allowed", "token-error-401", "token-error-description-quote",
    "authz-state-removed", "authz-iss-wrong", "authz-error-changed", "authz-code-beside-error",
    "authz-code-short", "redirect-unregistered-uri",
    "userinfo-content-type-text", "userinfo-sub-differs", "userinfo-email-verified-string", "userinfo-401",
    "discovery-userinfo-endpoint-removed", "discovery-auth-methods-post-only", "discovery-alg-es256-only",
    "jwks-private-d", "jwks-kid-removed", "jwks-and-idtoken-kid-removed", "jwks-duplicate-kid",
    "refresh-idtoken-sub-changed", "refresh-expires-in-string", "refresh-content-type-text",
    "token-error-content-type-html", "discovery-issuer-trailing-slash",
    "authz-prompt-none-ignored", "authz-prompt-login-ignored", "authz-response-type-defaulted",
    "authz-unknown-parameter-refused", "prompt-none-sub-changed",
    "userinfo-post-refused", "userinfo-body-token-refused",
}

# The authorization request parameters of OpenID Connect Core §3.1.2.1, RFC 6749 §4.1.1, RFC 7636
# and RFC 9101 (authz-unknown-parameter-refused refuses any other).
AUTHORIZATION_PARAMETERS = {
    "response_type", "client_id", "redirect_uri", "scope", "state", "response_mode", "nonce", "display",
    "prompt", "max_age", "ui_locales", "id_token_hint", "login_hint", "acr_values", "claims_locales",
    "claims", "registration", "request", "request_uri", "code_challenge", "code_challenge_method",
}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    timeout = CLIENT_IDLE_TIMEOUT
    server_version = "authflow-mutation-proxy"
    proxy = None  # set in main()

    def log_message(self, format, *args):
        sys.stderr.write(f"proxy [{self.proxy.mutation}] {format % args}\n")

    def send_plain(self, status, text, close=False):
        body = text.encode("utf-8")
        self.send_response(status)
        if body:
            self.send_header("Content-Type", "text/plain; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        if close:
            self.send_header("Connection", "close")
            self.close_connection = True
        self.end_headers()
        if body and self.command != "HEAD":
            self.wfile.write(body)

    def read_body(self):
        """The request body (Content-Length or chunked), or None when it is over the limit."""
        if "chunked" in (self.headers.get("Transfer-Encoding") or "").lower():
            body = bytearray()
            for _ in range(MAX_REQUEST_BODY + 1):  # bounded: each chunk adds at least one byte
                line = self.rfile.readline(1024)
                size = int(line.split(b";")[0].strip() or b"0", 16)
                if size == 0:
                    for _ in range(64):  # trailers, bounded
                        if self.rfile.readline(8192) in (b"\r\n", b"\n", b""):
                            break
                    return bytes(body)
                if len(body) + size > MAX_REQUEST_BODY:
                    return None
                body += self.rfile.read(size)
                self.rfile.readline(8)
            return None
        length = int(self.headers.get("Content-Length") or 0)
        if length < 0 or length > MAX_REQUEST_BODY:
            return None
        return self.rfile.read(length) if length else b""

    def handle_any(self):
        proxy = self.proxy
        split = urllib.parse.urlsplit(self.path)
        path, query = split.path, split.query
        if path == "/__mutation" or path.startswith("/__mutation/"):
            return self.control(path)
        try:
            body = self.read_body()
        except ValueError:
            return self.send_plain(400, "proxy: malformed request body framing\n", close=True)
        if body is None:
            return self.send_plain(413, f"proxy: request body over {MAX_REQUEST_BODY} bytes\n", close=True)
        exchange = Exchange(self.command, path, query, list(self.headers.items()), body)
        with proxy.lock:
            mutation = proxy.mutation
        try:
            if not proxy.before(exchange, mutation):
                proxy.forward(exchange)
                proxy.rewrite_origins(exchange)
                proxy.after(exchange, mutation)
        except (OSError, http.client.HTTPException) as error:
            return self.send_plain(502, f"proxy: upstream failed: {error}\n")
        # send_response_only: the upstream's own Server and Date headers are passed on, not doubled.
        self.log_request(exchange.status)
        self.send_response_only(exchange.status, exchange.reason)
        names = {name.lower() for name, _ in exchange.response_headers}
        if "date" not in names:
            self.send_header("Date", self.date_time_string())
        for name, value in exchange.response_headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(exchange.response_body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(exchange.response_body)

    def control(self, path):
        name = path[len("/__mutation/"):] if path.startswith("/__mutation/") else ""
        if self.command == "GET" and name == "":
            return self.send_plain(200, self.proxy.mutation + "\n")
        if self.command == "GET" and name == "list":
            return self.send_plain(200, "".join(n + "\n" for n in sorted(MUTATIONS)))
        if self.command == "POST" and name:
            self.read_body()
            if self.proxy.set_mutation(name):
                self.log_message("mutation set: %s", name)
                return self.send_plain(204, "")
            return self.send_plain(404, f"proxy: no mutation named {name!r}\n")
        return self.send_plain(405, "proxy: POST /__mutation/<name> or GET /__mutation\n")

    do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = do_OPTIONS = do_HEAD = handle_any


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, default=8120)
    parser.add_argument("--upstream", default="http://127.0.0.1:8100")
    parser.add_argument("--issuer-path", default="/o")
    parser.add_argument("--wait", type=float, default=20, help="seconds to wait for the upstream at start")
    args = parser.parse_args()
    proxy = Proxy(args.upstream, args.port, args.issuer_path)
    proxy.learn_paths(args.wait)
    Handler.proxy = proxy
    try:
        server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    except OSError as error:
        raise SystemExit(f"proxy: cannot listen on 127.0.0.1:{args.port}: {error}")
    server.daemon_threads = True
    print(f"proxy: {proxy.issuer} -> {proxy.upstream_issuer} (paths {proxy.paths})", file=sys.stderr, flush=True)
    try:
        server.serve_forever(poll_interval=0.5)
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


if __name__ == "__main__":
    main()
