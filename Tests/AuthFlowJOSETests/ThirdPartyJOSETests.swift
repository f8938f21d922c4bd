import AuthFlowCore
import AuthFlowJOSE
import AuthFlowTestSupport
import Foundation
import Testing

/// Every JWS algorithm authflow verifies and the mock signs with, checked against a third party:
/// Python's `cryptography` (OpenSSL) signs tokens that authflow must verify, and verifies tokens
/// authflow signs — so that neither side is tested only against its own other half (swift-crypto).
@Suite(.serialized) struct ThirdPartyJOSETests {
  static let algorithms = ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA"]
  static let secret = "a-client-secret-of-at-least-sixty-four-bytes-for-hs512-0123456789abcdef"

  /// Signs `{"sub":"peer"}` with each algorithm (and HS256/384/512 keyed with `secret`); prints a
  /// JSON object: alg -> { token, jwk }.
  static let signScript = #"""
    import base64, hashlib, hmac, json, sys
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import ec, ed25519, padding, rsa
    from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature
    def b64(data): return base64.urlsafe_b64encode(data).rstrip(b"=").decode()
    def num(n, size=None):
        size = size or (n.bit_length() + 7) // 8
        return b64(n.to_bytes(size, "big"))
    HASH = {"256": hashes.SHA256(), "384": hashes.SHA384(), "512": hashes.SHA512()}
    CURVE = {"256": (ec.SECP256R1(), "P-256", 32), "384": (ec.SECP384R1(), "P-384", 48), "512": (ec.SECP521R1(), "P-521", 66)}
    out = {}
    for alg in sys.argv[2:]:
        header = {"alg": alg, "kid": "peer-" + alg}
        signing_input = (b64(json.dumps(header).encode()) + "." + b64(json.dumps({"sub": "peer"}).encode())).encode()
        bits = alg[-3:]
        if alg.startswith("HS"):
            digest = {"256": hashlib.sha256, "384": hashlib.sha384, "512": hashlib.sha512}[bits]
            out[alg] = {"token": signing_input.decode() + "." + b64(hmac.new(sys.argv[1].encode(), signing_input, digest).digest()), "jwk": None}
            continue
        if alg.startswith(("RS", "PS")):
            key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
            pad = padding.PKCS1v15() if alg.startswith("RS") else padding.PSS(mgf=padding.MGF1(HASH[bits]), salt_length=HASH[bits].digest_size)
            signature = key.sign(signing_input, pad, HASH[bits])
            numbers = key.public_key().public_numbers()
            jwk = {"kty": "RSA", "n": num(numbers.n), "e": num(numbers.e)}
        elif alg.startswith("ES"):
            curve, name, size = CURVE[bits]
            key = ec.generate_private_key(curve)
            r, s = decode_dss_signature(key.sign(signing_input, ec.ECDSA(HASH[bits])))
            signature = r.to_bytes(size, "big") + s.to_bytes(size, "big")
            numbers = key.public_key().public_numbers()
            jwk = {"kty": "EC", "crv": name, "x": num(numbers.x, size), "y": num(numbers.y, size)}
        else:
            key = ed25519.Ed25519PrivateKey.generate()
            signature = key.sign(signing_input)
            from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
            jwk = {"kty": "OKP", "crv": "Ed25519", "x": b64(key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw))}
        jwk.update({"kid": "peer-" + alg, "use": "sig", "alg": alg})
        out[alg] = {"token": signing_input.decode() + "." + b64(signature), "jwk": jwk}
    print(json.dumps(out))
    """#

  /// Verifies each line `alg token jwk-json` (or `alg token -` for HS*, keyed with argv[1]);
  /// prints `alg ok` or `alg FAILED reason`.
  static let verifyScript = #"""
    import base64, hashlib, hmac, json, sys
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import ec, ed25519, padding, rsa
    from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
    def unb64(text): return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    def num(text): return int.from_bytes(unb64(text), "big")
    HASH = {"256": hashes.SHA256(), "384": hashes.SHA384(), "512": hashes.SHA512()}
    CURVE = {"P-256": ec.SECP256R1(), "P-384": ec.SECP384R1(), "P-521": ec.SECP521R1()}
    for line in sys.stdin.read().splitlines():
        alg, token, jwk = line.split(" ", 2)
        head, payload, sig = token.split(".")
        data, signature, bits = (head + "." + payload).encode(), unb64(sig), alg[-3:]
        try:
            if json.loads(unb64(head))["alg"] != alg: raise ValueError("header alg")
            if alg.startswith("HS"):
                digest = {"256": hashlib.sha256, "384": hashlib.sha384, "512": hashlib.sha512}[bits]
                if not hmac.compare_digest(hmac.new(sys.argv[1].encode(), data, digest).digest(), signature): raise InvalidSignature()
            else:
                jwk = json.loads(jwk)
                if jwk["kty"] == "RSA":
                    key = rsa.RSAPublicNumbers(num(jwk["e"]), num(jwk["n"])).public_key()
                    pad = padding.PKCS1v15() if alg.startswith("RS") else padding.PSS(mgf=padding.MGF1(HASH[bits]), salt_length=HASH[bits].digest_size)
                    key.verify(signature, data, pad, HASH[bits])
                elif jwk["kty"] == "EC":
                    key = ec.EllipticCurvePublicNumbers(num(jwk["x"]), num(jwk["y"]), CURVE[jwk["crv"]]).public_key()
                    half = len(signature) // 2
                    der = encode_dss_signature(int.from_bytes(signature[:half], "big"), int.from_bytes(signature[half:], "big"))
                    key.verify(der, data, ec.ECDSA(HASH[bits]))
                else:
                    ed25519.Ed25519PublicKey.from_public_bytes(unb64(jwk["x"])).verify(signature, data)
            print(alg, "ok")
        except Exception as error:
            print(alg, "FAILED", type(error).__name__, error)
    """#

  @Test("tokens signed by Python's cryptography (OpenSSL) verify with authflow's JWKS verifier; altered ones do not")
  func peerSignsAuthflowVerifies() throws {
    let run = Python.run(Self.signScript, arguments: [Self.secret] + Self.algorithms + ["HS256", "HS384", "HS512"])
    try #require(run.status == 0, "\(run.output)")
    let signed = try #require(try Value(jsonText: run.output).objectValue)
    #expect(signed.count == Self.algorithms.count + 3)
    for (alg, entry) in signed.sorted(by: { $0.key < $1.key }) {
      let token = try #require(entry.member("token")?.stringValue)
      let jwks: Value = ["keys": .array(entry.member("jwk").flatMap { $0.isNull ? nil : [$0] } ?? [])]
      let keys = try #require(VerificationKeys(document: jwks), "\(alg): the peer's JWKS")
      #expect(throws: Never.self, "\(alg)") { try keys.verify(token, secret: Self.secret) }
      // One signature byte changed: refused.
      var parts = token.split(separator: ".").map(String.init)
      parts[2] = String(parts[2].dropLast()) + (parts[2].last == "A" ? "B" : "A")
      #expect(throws: JWSError.self, "\(alg): an altered signature") {
        try keys.verify(parts.joined(separator: "."), secret: Self.secret)
      }
    }
  }

  @Test("tokens authflow signs (as the mock does) verify with Python's cryptography (OpenSSL)")
  func authflowSignsPeerVerifies() throws {
    var lines: [String] = []
    for name in Self.algorithms + ["HS256", "HS384", "HS512"] {
      let algorithm = try #require(JWSAlgorithm(rawValue: name))
      let key =
        algorithm.isSymmetric
        ? SigningKey(hmacSecret: Data(Self.secret.utf8), algorithm: algorithm, kid: nil)
        : try SigningKey.generate(algorithm, kid: "authflow-" + name)
      let token = try key.sign(claims: ["sub": "authflow"])
      let jwk = try key.publicJWK.map { String(decoding: try JSONEncoder().encode($0), as: UTF8.self) } ?? "-"
      lines.append("\(name) \(token) \(jwk)")
    }
    let input = FileManager.default.temporaryDirectory.appendingPathComponent("jose-\(UUID().uuidString)")
    try lines.joined(separator: "\n").write(to: input, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: input) }
    let script = "import sys; sys.stdin = open(sys.argv[2])\n" + Self.verifyScript
    let run = Python.run(script, arguments: [Self.secret, input.path])
    #expect(run.status == 0, "\(run.output)")
    let verdicts = run.output.split(separator: "\n").map(String.init)
    #expect(verdicts.count == lines.count, "\(run.output)")
    for verdict in verdicts { #expect(verdict.hasSuffix(" ok"), "\(verdict)") }
  }
}
