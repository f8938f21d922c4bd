import Foundation
import Testing

@testable import AuthFlowCore

@Suite("Secret scrubbing")
struct SecretRegistryTests {
  @Test("Every occurrence of every registered secret is masked")
  func masksEveryOccurrence() {
    let registry = SecretRegistry()
    registry.register("s3cret-token")
    #expect(registry.scrub("a s3cret-token b s3cret-token") == "a *** b ***")
    #expect(registry.scrub("nothing here") == "nothing here")
  }

  @Test("A secret that contains another is masked whole (longest first)")
  func longestFirst() {
    let registry = SecretRegistry()
    registry.register("abcd")
    registry.register("abcdefgh")
    #expect(registry.scrub("x abcdefgh y abcd") == "x *** y ***")
  }

  @Test("Overlapping secrets are masked as one: no part of either shows")
  func overlapping() {
    let registry = SecretRegistry()
    registry.register("first-secret-12")
    registry.register("12-second-secret-longer")
    // The two overlap on "12"; masking the longer first would leave "first-secret-" visible.
    #expect(registry.scrub("<first-secret-12-second-secret-longer>") == "<***>")
    // Secrets side by side stay two masks.
    #expect(registry.scrub("first-secret-1212-second-secret-longer") == "******")
  }

  @Test("A text is scanned once, however many secrets of however many lengths are known")
  func manySecrets() {
    let registry = SecretRegistry()
    for index in 0..<2_000 { registry.register("token-\(index)-" + String(repeating: "x", count: index % 300)) }
    let secret = "token-1999-" + String(repeating: "x", count: 1999 % 300)
    let plain = String(repeating: "plain text, no secret. ", count: 400)
    #expect(registry.scrub(plain + secret + " end") == plain + "*** end")
  }

  @Test("Base64 and base64url forms are found by decoding, padded or not, anywhere in a text")
  func base64Forms() {
    let registry = SecretRegistry()
    let secret = "tok?en>>with/+bytes-0123456789"
    registry.register(secret)
    let base64 = Data(secret.utf8).base64EncodedString()
    let unpadded = base64.replacingOccurrences(of: "=", with: "")
    let url = unpadded.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
    for form in [base64, unpadded, url] {
      #expect(registry.scrub("Basic \(form), then more") == "Basic ***, then more", "\(form)")
      #expect(registry.scrub("x\(form)y") == "x***y", "\(form)")
    }
    // One byte off is not the secret.
    let other = Data("tok?en>>with/+bytes-0123456788".utf8).base64EncodedString()
    #expect(registry.scrub(other) == other)
  }

  @Test("A token is one pattern: its base64 forms take no room, only text forms that differ do")
  func onePatternPerPlainSecret() {
    let registry = SecretRegistry()
    for index in 0..<1_000 { registry.register("token-\(index)-abcdefghijklmnopqrstuvwxyz_ABC") }
    #expect(registry.count == 1_000)
    #expect(registry.patternCount == 1_000)
    registry.register("p@ss w0rd!")
    #expect(registry.patternCount > 1_001)
  }

  @Test("The percent-encoded form of a secret is masked too")
  func percentEncoded() {
    let registry = SecretRegistry()
    registry.register("p@ss w0rd!")
    #expect(registry.scrub("password=p%40ss%20w0rd%21&x=1") == "password=***&x=1")
  }

  @Test(
    "The HTML-escaped forms of a secret (each common escaper's quotes) and Go's JSON escapes are masked",
    arguments: [
      "P&#x27;a&quot;s&lt;s&gt;&amp;w0rd", "P&#39;a&#34;s&lt;s&gt;&amp;w0rd", "P&#039;a&quot;s&lt;s&gt;&amp;w0rd",
      #"P'a\"s\u003cs\u003e\u0026w0rd"#,
    ])
  func htmlAndGoJSONForms(form: String) {
    let registry = SecretRegistry()
    registry.register(#"P'a"s<s>&w0rd"#)
    #expect(registry.scrub("<p>You typed: \(form)</p>") == "<p>You typed: ***</p>")
  }

  @Test("Secrets registered after a scrub are masked by the next one")
  func laterRegistrations() {
    let registry = SecretRegistry()
    registry.register("first-secret")
    _ = registry.scrub("first-secret")
    registry.register("second-secret")
    #expect(registry.scrub("first-secret second-secret") == "*** ***")
  }

  @Test("Texts shorter than four characters are not registered; non-ASCII text survives")
  func shortAndUnicode() {
    let registry = SecretRegistry()
    registry.register("abc")
    registry.register("clé-secrète")
    #expect(registry.scrub("abc é clé-secrète ü") == "abc é *** ü")
  }

  @Test("With --show-secrets nothing is masked")
  func reveal() {
    let registry = SecretRegistry(revealSecrets: true)
    registry.register("s3cret-token")
    #expect(registry.scrub("s3cret-token") == "s3cret-token")
  }

  @Test("Secrets inside values are registered, JWTs by their raw text")
  func registersValues() throws {
    let registry = SecretRegistry()
    let token = try #require(JWTValue(raw: "eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.c2ln"))
    registry.register(secretsIn: ["a": .secret("hidden-value"), "b": [.jwt(token)], "c": "public-value"])
    #expect(registry.scrub("hidden-value public-value \(token.raw)") == "*** public-value ***")
  }
}

@Suite("Values")
struct ValueTests {
  @Test("JSON keeps integers and doubles apart and round-trips")
  func json() throws {
    let value = try Value(jsonText: #"{"a":1,"b":1.5,"c":[true,null,"x"]}"#)
    #expect(value.member("a") == .int(1))
    #expect(value.member("b") == .double(1.5))
    #expect(value.jsonText() == #"{"a":1,"b":1.5,"c":[true,null,"x"]}"#)
  }

  @Test("Secrets are redacted in JSON and display unless revealed")
  func redaction() {
    let value: Value = ["password": .secret("hunter22"), "user": "alice"]
    #expect(value.jsonText() == #"{"password":"***","user":"alice"}"#)
    #expect(value.jsonText(revealSecrets: true) == #"{"password":"hunter22","user":"alice"}"#)
    #expect(Value.secret("hunter22").display() == "***")
  }

  @Test("Member access on a secret stays secret; JWT claims are readable")
  func memberAccess() throws {
    let secret = Value.secret(["inner": "x"])
    #expect(secret.member("inner")?.isSecret == true)
    let token = try #require(JWTValue(raw: "eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.c2ln"))
    #expect(Value.jwt(token).lookup(path: ["claims", "sub"]) == .string("x"))
  }

  @Test("Durations", arguments: [("250ms", 0.25), ("90s", 90), ("5m", 300), ("2h", 7200), ("1.5", 1.5)])
  func durations(_ text: String, _ seconds: Double) throws {
    #expect(try #require(DurationText.parse(text)).seconds == seconds)
  }

  @Test("Not durations", arguments: ["", "2x", "-1s", "s"])
  func notDurations(_ text: String) {
    #expect(DurationText.parse(text) == nil)
  }

  @Test("Did-you-mean finds close keys and ignores far ones")
  func suggestions() {
    #expect(Suggestion.closest(to: "expct", in: ["expect", "needs"]) == "expect")
    #expect(Suggestion.closest(to: "zzzzzz", in: ["expect", "needs"]) == nil)
    #expect(Suggestion.editDistance("teh", "the") == 1)
  }
}

@Suite("Secret scrubbing of encoded forms")
struct SecretEncodedFormTests {
  @Test("A secret is scrubbed as a URL and as a form body encode it (kept -._~, space as %20 or +)")
  func urlAndFormEncodings() {
    let registry = SecretRegistry()
    registry.register("pa-ss word!")
    #expect(registry.scrub("q=pa-ss%20word%21&x=1") == "q=***&x=1")
    #expect(registry.scrub("password=pa-ss+word%21") == "password=***")
    #expect(registry.scrub("pa-ss word!") == "***")
  }

  @Test("The diagnostics' and the traces' secret field lists are one list")
  func oneList() {
    #expect(SnippetRedaction.secretKeys == SecretFieldNames.all)
    for name in ["new_password", "otp_code", "auth_session", "invitation_url", "mfa_token"] {
      #expect(SnippetRedaction.mask("\(name): hunter22") == "\(name): ********")
    }
  }
}
