import AuthFlowCore
import AuthFlowJOSE
import Foundation
import Hummingbird

/// Management API v2 organization invitations: create (and email the invitation link to the
/// invitee's outbox), list, get and delete. A token for `https://{domain}/api/v2/` with the
/// operation's scope is required.
struct ManagementOrganizationRoutes {
  let tenant: MockTenant

  static let createScope = "create:organization_invitations"
  static let readScope = "read:organization_invitations"
  static let deleteScope = "delete:organization_invitations"
  /// Auth0's default invitation lifetime (7 days) and its maximum (30 days), seconds.
  static let defaultTTL = 604_800
  static let maximumTTL = 2_592_000
  static let bodyKeys: Set<String> = [
    "inviter", "invitee", "client_id", "connection_id", "app_metadata", "user_metadata", "ttl_sec", "roles",
    "send_invitation_email",
  ]

  /// The handlers of its operations, by operationId in `Resources/mock-openapi.json` (``MockOperations``).
  var handlers: [String: MockHandler] {
    [
      "managementCreateInvitation": { request, context in
        await respond { try await create(request, context: context, organizationID: context.parameters.get("id")) }
      },
      "managementListInvitations": { request, context in
        await respond {
          let organization = try await authorize(request, organizationID: context.parameters.get("id"), Self.readScope)
          let listing = try ManagementListing(query: RequestParameters.query(of: request))
          let invitations = tenant.read({ $0.organizations.invitations(of: organization.id) })
          return Responses.json(listing.respond(invitations.map(\.json), key: "invitations"))
        }
      },
      "managementGetInvitation": { request, context in
        await respond {
          let organization = try await authorize(request, organizationID: context.parameters.get("id"), Self.readScope)
          guard let id = context.parameters.get("invitation"),
            let invitation = tenant.read({ $0.organizations.invitation(id, of: organization.id) })
          else { throw ManagementError.invitationNotFound }
          let fields = try ManagementListing.Fields(query: RequestParameters.query(of: request))
          return Responses.json(fields?.apply(to: invitation.json) ?? invitation.json)
        }
      },
      "managementDeleteInvitation": { request, context in
        await respond {
          let organization = try await authorize(
            request, organizationID: context.parameters.get("id"), Self.deleteScope)
          guard let id = context.parameters.get("invitation"),
            tenant.transact({ $0.deleteInvitation(id, of: organization.id) })
          else { throw ManagementError.invitationNotFound }
          return Responses.empty(status: .noContent)
        }
      },
    ]
  }

  private func respond(_ body: () async throws -> Response) async -> Response {
    await ManagementError.respond(otherwise: { _ in .malformedBody }, body)
  }

  /// The organization of the path, once the bearer token is checked for `scope`.
  private func authorize(
    _ request: Request, organizationID: String?, _ scope: String
  ) async throws -> OrganizationConfig {
    let token = try BearerToken.management(request, tenant: tenant)
    guard token.managementScopes.contains(scope) else { throw ManagementError.insufficientScope([scope]) }
    let id = organizationID.map { $0.removingPercentEncoding ?? $0 } ?? ""
    guard let organization = tenant.fixture.organizations.first(where: { $0.id == id }) else {
      throw ManagementError.organizationNotFound
    }
    return organization
  }

  private func create(
    _ request: Request, context: BasicRequestContext, organizationID: String?
  ) async throws
    -> Response
  {
    let organization = try await authorize(request, organizationID: organizationID, Self.createScope)
    guard let body = await RequestParameters.body(of: request, context: context) else {
      throw ManagementError.malformedBody
    }
    if let other = body.values.keys.sorted().first(where: { !Self.bodyKeys.contains($0) }) {
      throw ManagementError.additionalProperty(other)
    }
    guard let inviter = body.values["inviter"] else { throw ManagementError.missingProperty("inviter") }
    guard let inviterName = inviter.member("name")?.stringValue, !inviterName.isEmpty else {
      throw ManagementError.invalidProperty("inviter.name", "must be a non-empty string")
    }
    guard let invitee = body.values["invitee"] else { throw ManagementError.missingProperty("invitee") }
    guard let email = invitee.member("email")?.stringValue, email.contains("@") else {
      throw ManagementError.invalidProperty("invitee.email", "must be an email address")
    }
    guard let clientID = body.string("client_id") else { throw ManagementError.missingProperty("client_id") }
    guard let client = tenant.fixture.client(id: clientID) else { throw ManagementError.unknownClient(clientID) }
    guard let loginRoute = client.initiateLoginURI else { throw ManagementError.noLoginRoute }
    let connection = body.string("connection_id")
    if let connection, tenant.fixture.connection(named: connection) == nil {
      throw ManagementError.unknownConnection(connection)
    }
    let ttl = try Self.ttl(body.values["ttl_sec"])
    let now = tenant.clock.seconds
    let ticket = RandomToken.make(bytes: 24)
    let url = FormEncoding.append(
      [("invitation", ticket), ("organization", organization.id), ("organization_name", organization.name)],
      to: loginRoute)
    let invitation = Invitation(
      id: "uinv_" + RandomToken.make(bytes: 12), ticketID: ticket, organizationID: organization.id,
      inviterName: inviterName, inviteeEmail: email, clientID: clientID, connectionID: connection,
      invitationURL: url, appMetadata: try Self.object(body.values["app_metadata"], "app_metadata"),
      userMetadata: try Self.object(body.values["user_metadata"], "user_metadata"),
      roles: try Self.roles(body.values["roles"]), createdAt: now, expiresAt: now + Double(ttl))
    let sendsEmail = body.values["send_invitation_email"]?.boolValue ?? true
    let message = OutboxDraft.link(
      url, to: email, subject: "You've been invited to join \(organization.displayName)",
      body: """
        \(inviterName) has invited you to join \(organization.displayName) on \(client.name).
        Accept the invitation: \(url)
        """)
    tenant.transact { $0.createInvitation(invitation, email: sendsEmail ? message : nil, now: now) }
    return Responses.json(invitation.json, status: .created)
  }

  static func ttl(_ value: Value?) throws -> Int {
    guard let value else { return defaultTTL }
    guard let seconds = value.intValue, (0...maximumTTL).contains(seconds) else {
      throw ManagementError.invalidProperty("ttl_sec", "must be an integer from 0 to \(maximumTTL)")
    }
    return seconds == 0 ? defaultTTL : seconds
  }

  static func object(_ value: Value?, _ name: String) throws -> [String: Value] {
    guard let value else { return [:] }
    guard let members = value.objectValue else { throw ManagementError.invalidProperty(name, "must be an object") }
    return members
  }

  static func roles(_ value: Value?) throws -> [String] {
    guard let value else { return [] }
    guard let items = value.arrayValue, items.allSatisfy({ $0.stringValue != nil }) else {
      throw ManagementError.invalidProperty("roles", "must be an array of strings")
    }
    return items.compactMap(\.stringValue)
  }
}
