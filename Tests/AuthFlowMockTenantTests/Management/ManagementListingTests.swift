import AuthFlowCore
import Foundation
import HummingbirdTesting
import Testing

@testable import AuthFlowMockTenant

/// Management API list options (page, per_page, include_totals, fields, sort), as auth0-python's
/// generated client sends them: `include_totals=true` and paging until an empty page.
@Suite struct ManagementListingTests {
  @Test func invitationsPageWithTotalsUntilAnEmptyPage() async throws {
    let tenant = try MockHarness.tenant()
    try await MockHarness.test(tenant) { client in
      let token = try await InvitationTests.m2mToken(client)
      for index in 0..<3 {
        tenant.clock.advance(by: 1)
        let created = try await InvitationTests.invite(client, email: "n\(index)@example.com", token: token)
        #expect(created.status == .created)
      }
      func list(_ query: String) async throws -> TestResponse {
        try await ManagementUserTests.call(client, .get, InvitationTests.path + query, bearer: token)
      }
      let bare = try await list("")
      #expect((try Value(json: Data(bare.text.utf8))).arrayValue?.count == 3)
      let first = try await list("?page=0&per_page=2&include_totals=true")
      #expect(first.json["start"] == .int(0))
      #expect(first.json["limit"] == .int(2))
      #expect(first.json["total"] == .int(3))
      #expect(first.json["invitations"]?.arrayValue?.count == 2)
      let second = try await list("?page=1&per_page=2&include_totals=true")
      #expect(second.json["start"] == .int(2))
      #expect(second.json["invitations"]?.arrayValue?.count == 1)
      let past = try await list("?page=2&per_page=2&include_totals=true")
      #expect(past.json["invitations"]?.arrayValue?.isEmpty == true)
      // A page so far out that page × per_page overflows is past the end, not a crash.
      let huge = try await list("?page=\(Int.max)&per_page=100&include_totals=true")
      #expect(huge.status == .ok)
      #expect(huge.json["invitations"]?.arrayValue?.isEmpty == true)

      let emails = try await list("?fields=invitee&include_fields=true&sort=created_at:-1")
      let items = try #require((try Value(json: Data(emails.text.utf8))).arrayValue)
      #expect(items.first?.objectValue?.keys.sorted() == ["invitee"])
      #expect(items.first?.member("invitee")?.member("email") == .string("n2@example.com"))
      let withoutURL = try await list("?fields=invitation_url&include_fields=false")
      #expect((try Value(json: Data(withoutURL.text.utf8))).arrayValue?.first?.member("invitation_url") == nil)

      for bad in ["?per_page=0", "?per_page=101", "?page=-1", "?include_totals=maybe", "?sort=created_at"] {
        ManagementUserTests.expectError(try await list(bad), 400, "invalid_query_string")
      }
    }
  }

  @Test func invitationGetHonoursFields() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      let token = try await InvitationTests.m2mToken(client)
      let created = try await InvitationTests.invite(client, email: "f@example.com", token: token)
      let id = try #require(created.json["id"]?.stringValue)
      let got = try await ManagementUserTests.call(
        client, .get, InvitationTests.path + "/\(id)?fields=id,client_id", bearer: token)
      #expect(got.json.keys.sorted() == ["client_id", "id"])
    }
  }
}
