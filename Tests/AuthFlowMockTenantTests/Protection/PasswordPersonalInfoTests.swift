import AuthFlowCore
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import AuthFlowMockTenant

/// "Disallow Personal Data": `password_no_user_info_error` at signup, on the reset form and in My
/// Account (docs/protocol.md §4.1).
@Suite struct PasswordPersonalInfoTests {
  static let expected: [String: Value] = [
    "name": .string("PasswordNoUserInfoError"), "code": .string("password_no_user_info_error"),
    "description": .string("Password contains user information."),
    "message": .string("Password contains user information."), "statusCode": .int(400),
  ]

  static func signup(
    _ client: any TestClientProtocol, email: String, password: String, extra: [String: Value] = [:]
  ) async throws -> TestResponse {
    var body = DBConnectionTests.signupBody(email: email, password: password)
    body.merge(extra) { _, new in new }
    return try await client.postJSON("/dbconnections/signup", body)
  }

  @Test func theDefaultFixtureTurnsTheRuleOn() {
    #expect(MockHarness.fixture.settings.passwordNoPersonalInfo)
  }

  @Test func signupRefusesPasswordsContainingTheEmailUsernameOrName() async throws {
    let tenant = try MockHarness.tenant()
    try await MockHarness.test(tenant) { client in
      let byEmail = try await Self.signup(client, email: "margaret.h@example.com", password: "Xx-MARGARET-99!")
      #expect(byEmail.status == .badRequest)
      #expect(byEmail.json == Self.expected)
      let byName = try await Self.signup(
        client, email: "m1@example.com", password: "Hamilton-2024-x!",
        extra: ["name": .string("Margaret Hamilton")])
      #expect(byName.json["code"] == .string("password_no_user_info_error"))
      let byUsername = try await Self.signup(
        client, email: "m2@example.com", password: "Zq!apollo11x", extra: ["username": .string("apollo11")])
      #expect(byUsername.json["code"] == .string("password_no_user_info_error"))
      // Nothing was created by the refused signups.
      #expect(
        tenant.read({ $0.users.find("margaret.h@example.com", connection: "Username-Password-Authentication") })
          == nil)
      // Unrelated passwords pass; two-letter name parts are ignored.
      let ok = try await Self.signup(
        client, email: "m3@example.com", password: "Unrelated-Phrase-7!", extra: ["name": .string("Al Bo")])
      #expect(ok.status == .ok)
    }
  }

  @Test func theRuleIsOffWhenTheFixtureTurnsItOff() async throws {
    let tenant = try MockHarness.tenant { $0.settings.passwordNoPersonalInfo = false }
    try await MockHarness.test(tenant) { client in
      let response = try await Self.signup(client, email: "margaret.h@example.com", password: "Xx-MARGARET-99!")
      #expect(response.status == .ok)
    }
  }

  @Test func changingAPasswordRefusesTheUsersOwnData() async throws {
    let tenant = try MockHarness.tenant()
    try await MockHarness.test(tenant) { client in
      let refused = try await PasswordRulesTests.reset(client, tenant: tenant, to: "Brand-New-EXAMPLE-ALICE-1!")
      #expect(refused.status == .badRequest)
      #expect(refused.text.contains("Password contains user information."))
      let accepted = try await PasswordRulesTests.reset(client, tenant: tenant, to: "Brand-New-Phrase-71!")
      #expect(accepted.status == .ok)
    }
  }

  @Test func partsAreEmailLocalPartsAndNameWords() {
    #expect(PersonalInfo.parts(of: "Jean-Luc.Picard@example.com") == ["jean-luc.picard", "jean", "luc", "picard"])
    #expect(PersonalInfo.contains("my-PICARD-pass", anyOf: ["Jean-Luc.Picard@example.com"]))
    #expect(!PersonalInfo.contains("example-domain-9", anyOf: ["jl@example.com"]))
  }
}
