import AuthFlowCore
import AuthFlowJOSE
import Foundation
import Testing

/// Registration and assertion round trips through the virtual authenticator and the verifier, and
/// every rejection.
@Suite struct WebAuthnTests {
  static let rpID = "login.example.com"
  static let origin = "https://login.example.com"
  let verifier = WebAuthnVerifier(rpID: rpID, requiresUserVerification: true)

  struct Registration {
    var clientDataJSON: [UInt8]
    var attestationObject: [UInt8]
    var credentialID: String
  }

  static func field(_ response: Value, _ name: String) -> [UInt8] {
    Array(Base64URL.decode(response.member("response")?.member(name)?.stringValue ?? "") ?? Data())
  }

  func register(
    _ authenticator: inout VirtualAuthenticator, challenge: String = "Y2hhbGxlbmdl", rpID: String = rpID,
    origin: String = origin
  ) -> Registration {
    let response = authenticator.register(
      rpID: rpID, userHandle: Array("user-1".utf8), userName: "alice@example.com", challenge: challenge,
      origin: origin)
    return Registration(
      clientDataJSON: Self.field(response, "clientDataJSON"),
      attestationObject: Self.field(response, "attestationObject"),
      credentialID: response.member("id")?.stringValue ?? "")
  }

  @Test func responsesHaveTheProtocolShapeInBase64URLWithoutPadding() throws {
    var authenticator = VirtualAuthenticator()
    let created = authenticator.register(
      rpID: Self.rpID, userHandle: [1, 2, 3], userName: "a", challenge: "abc", origin: Self.origin)
    #expect(created.member("type")?.stringValue == "public-key")
    #expect(created.member("authenticatorAttachment")?.stringValue == "platform")
    #expect(created.member("id") == created.member("rawId"))
    #expect(created.member("response")?.objectValue?.keys.sorted() == ["attestationObject", "clientDataJSON"])
    let asserted = try authenticator.assert(rpID: Self.rpID, challenge: "def", origin: Self.origin)
    let fields = asserted.member("response")?.objectValue ?? [:]
    #expect(fields.keys.sorted() == ["authenticatorData", "clientDataJSON", "signature", "userHandle"])
    for value in fields.values {
      let text = value.stringValue ?? "="
      #expect(!text.contains("=") && !text.contains("+") && !text.contains("/"))
    }
    #expect(Self.field(asserted, "userHandle") == [1, 2, 3])
  }

  @Test func registrationThenAssertionRoundTrip() throws {
    var authenticator = VirtualAuthenticator()
    let registration = register(&authenticator)
    let credential = try verifier.verifyRegistration(
      clientDataJSON: registration.clientDataJSON, attestationObject: registration.attestationObject,
      expectedChallenge: "Y2hhbGxlbmdl")
    #expect(Base64URL.encode(credential.credentialID) == registration.credentialID)
    #expect(credential.signCount == 0)
    var stored = credential.signCount
    for round in 1...3 {
      let challenge = "challenge-\(round)"
      let response = try authenticator.assert(rpID: Self.rpID, challenge: challenge, origin: Self.origin)
      stored = try verifier.verifyAssertion(
        clientDataJSON: Self.field(response, "clientDataJSON"),
        authenticatorData: Self.field(response, "authenticatorData"), signature: Self.field(response, "signature"),
        expectedChallenge: challenge, publicKey: credential.publicKey, storedSignCount: stored)
      #expect(stored == UInt32(round))
    }
  }

  @Test func registrationRejectsWrongChallengeRPTypeOriginAndFormat() throws {
    var authenticator = VirtualAuthenticator()
    let good = register(&authenticator)
    #expect(throws: WebAuthnError.challengeMismatch) {
      try verifier.verifyRegistration(
        clientDataJSON: good.clientDataJSON, attestationObject: good.attestationObject, expectedChallenge: "other")
    }
    let otherRP = register(&authenticator, rpID: "evil.example.com")
    #expect(throws: WebAuthnError.rpIDMismatch) {
      try verifier.verifyRegistration(
        clientDataJSON: otherRP.clientDataJSON, attestationObject: otherRP.attestationObject,
        expectedChallenge: "Y2hhbGxlbmdl")
    }
    let otherOrigin = register(&authenticator, origin: "https://evil.example.com")
    #expect(throws: WebAuthnError.originNotAllowed("https://evil.example.com")) {
      try verifier.verifyRegistration(
        clientDataJSON: otherOrigin.clientDataJSON, attestationObject: otherOrigin.attestationObject,
        expectedChallenge: "Y2hhbGxlbmdl")
    }
    let getType = ClientData(type: ClientData.get, challenge: "Y2hhbGxlbmdl", origin: Self.origin).json
    #expect(throws: WebAuthnError.wrongType(expected: "webauthn.create", found: "webauthn.get")) {
      try verifier.verifyRegistration(
        clientDataJSON: getType, attestationObject: good.attestationObject, expectedChallenge: "Y2hhbGxlbmdl")
    }
    var attestation = try CBORDecoder.decode(good.attestationObject).mapValue ?? [:]
    attestation[.text("fmt")] = .text("packed")
    #expect(throws: WebAuthnError.unsupportedAttestationFormat("packed")) {
      try verifier.verifyRegistration(
        clientDataJSON: good.clientDataJSON, attestationObject: CBOR.map(attestation).encoded,
        expectedChallenge: "Y2hhbGxlbmdl")
    }
    #expect(throws: WebAuthnError.malformedAttestation) {
      try verifier.verifyRegistration(
        clientDataJSON: good.clientDataJSON, attestationObject: [0xa0, 0xff], expectedChallenge: "Y2hhbGxlbmdl")
    }
    #expect(throws: WebAuthnError.malformedClientData) {
      try verifier.verifyRegistration(
        clientDataJSON: Array("not json".utf8), attestationObject: good.attestationObject,
        expectedChallenge: "Y2hhbGxlbmdl")
    }
  }

  @Test func userVerificationIsRequiredWhenThePolicySaysSo() throws {
    var authenticator = VirtualAuthenticator(verifiesUser: false)
    let registration = register(&authenticator)
    #expect(throws: WebAuthnError.userNotVerified) {
      try verifier.verifyRegistration(
        clientDataJSON: registration.clientDataJSON, attestationObject: registration.attestationObject,
        expectedChallenge: "Y2hhbGxlbmdl")
    }
    let lenient = WebAuthnVerifier(rpID: Self.rpID)
    _ = try lenient.verifyRegistration(
      clientDataJSON: registration.clientDataJSON, attestationObject: registration.attestationObject,
      expectedChallenge: "Y2hhbGxlbmdl")
  }

  @Test func assertionRejectsBadSignatureReplayedCounterWrongTypeChallengeAndRP() throws {
    var authenticator = VirtualAuthenticator()
    let registration = register(&authenticator)
    let credential = try verifier.verifyRegistration(
      clientDataJSON: registration.clientDataJSON, attestationObject: registration.attestationObject,
      expectedChallenge: "Y2hhbGxlbmdl")
    let response = try authenticator.assert(rpID: Self.rpID, challenge: "c1", origin: Self.origin)
    let clientData = Self.field(response, "clientDataJSON")
    let authData = Self.field(response, "authenticatorData")
    var signature = Self.field(response, "signature")
    func verify(
      clientData: [UInt8] = clientData, authData: [UInt8] = authData, signature: [UInt8], challenge: String = "c1",
      stored: UInt32 = 0
    ) throws -> UInt32 {
      try verifier.verifyAssertion(
        clientDataJSON: clientData, authenticatorData: authData, signature: signature, expectedChallenge: challenge,
        publicKey: credential.publicKey, storedSignCount: stored)
    }
    #expect(try verify(signature: signature) == 1)
    #expect(throws: WebAuthnError.signCountNotIncreased(stored: 1, received: 1)) {
      try verify(signature: signature, stored: 1)
    }
    #expect(throws: WebAuthnError.challengeMismatch) { try verify(signature: signature, challenge: "c2") }
    let createType = ClientData(type: ClientData.create, challenge: "c1", origin: Self.origin).json
    #expect(throws: WebAuthnError.wrongType(expected: "webauthn.get", found: "webauthn.create")) {
      try verify(clientData: createType, signature: signature)
    }
    var otherRP = authData
    otherRP[0] ^= 0xff
    #expect(throws: WebAuthnError.rpIDMismatch) { try verify(authData: otherRP, signature: signature) }
    // A counter raised without re-signing invalidates the signature.
    var raised = authData
    raised[36] = 9
    #expect(throws: WebAuthnError.badSignature) { try verify(authData: raised, signature: signature) }
    signature[signature.count - 1] ^= 0x01
    #expect(throws: WebAuthnError.badSignature) { try verify(signature: signature) }
    #expect(throws: WebAuthnError.badSignature) { try verify(signature: [0x30, 0x00]) }
  }

  @Test func anotherCredentialsKeyDoesNotVerify() throws {
    var first = VirtualAuthenticator()
    var second = VirtualAuthenticator()
    let registration = register(&first)
    _ = register(&second)
    let credential = try verifier.verifyRegistration(
      clientDataJSON: registration.clientDataJSON, attestationObject: registration.attestationObject,
      expectedChallenge: "Y2hhbGxlbmdl")
    let response = try second.assert(rpID: Self.rpID, challenge: "c", origin: Self.origin)
    #expect(throws: WebAuthnError.badSignature) {
      try verifier.verifyAssertion(
        clientDataJSON: Self.field(response, "clientDataJSON"),
        authenticatorData: Self.field(response, "authenticatorData"), signature: Self.field(response, "signature"),
        expectedChallenge: "c", publicKey: credential.publicKey, storedSignCount: 0)
    }
    #expect(throws: VirtualAuthenticator.Failure.noCredential(rpID: "other.example.com")) {
      try first.assert(rpID: "other.example.com", challenge: "c", origin: Self.origin)
    }
  }

  @Test func authenticatorDataRoundTripsAndRejectsTruncation() throws {
    var authenticator = VirtualAuthenticator()
    let registration = register(&authenticator)
    let attestation = try CBORDecoder.decode(registration.attestationObject)
    let bytes = attestation["authData"]?.bytesValue ?? []
    let parsed = try #require(AuthenticatorData(bytes: bytes))
    #expect(parsed.bytes == bytes)
    #expect(parsed.flags.contains([.userPresent, .userVerified, .attestedCredentialData]))
    #expect(parsed.attestedCredential?.publicKey.cbor[label: 3] == .int(-7))
    for length in [0, 36, 54, bytes.count - 1] {
      #expect(AuthenticatorData(bytes: Array(bytes.prefix(length))) == nil, "length \(length)")
    }
  }
}
