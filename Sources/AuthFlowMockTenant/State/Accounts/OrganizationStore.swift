import AuthFlowCore

/// An organization invitation (Management API `/api/v2/organizations/{id}/invitations`).
struct Invitation: Sendable {
  /// `uinv_…`: the Management API id.
  var id: String
  /// The `invitation` parameter of the link and of `/authorize`.
  var ticketID: String
  var organizationID: String
  var inviterName: String
  var inviteeEmail: String
  /// The application whose login route the link opens; `/authorize` must come from it.
  var clientID: String
  var connectionID: String?
  var invitationURL: String
  var appMetadata: [String: Value]
  var userMetadata: [String: Value]
  var roles: [String]
  /// Seconds since 1970, virtual.
  var createdAt: Double
  var expiresAt: Double

  /// The Management API representation.
  var json: Value {
    var members: [String: Value] = [
      "id": .string(id), "organization_id": .string(organizationID),
      "inviter": .object(["name": .string(inviterName)]), "invitee": .object(["email": .string(inviteeEmail)]),
      "invitation_url": .string(invitationURL), "client_id": .string(clientID), "ticket_id": .string(ticketID),
      "created_at": .string(UserClaims.isoMilliseconds(createdAt)),
      "expires_at": .string(UserClaims.isoMilliseconds(expiresAt)), "app_metadata": .object(appMetadata),
      "user_metadata": .object(userMetadata), "roles": .array(roles.map(Value.string)),
    ]
    if let connectionID { members["connection_id"] = .string(connectionID) }
    return .object(members)
  }
}

/// Organization memberships (seeded from the fixture, grown by accepted invitations) and the
/// pending invitations.
struct OrganizationStore: Sendable {
  /// What `/authorize` finds for an invitation ticket.
  enum TicketLookup: Sendable {
    case valid(Invitation)
    case expired
    case invalid
  }

  private let seed: [String: Set<String>]
  private var members: [String: Set<String>]
  private var invitations: [String: Invitation] = [:]

  /// `fixture` names members by user profile; the store keeps user ids.
  init(fixture: TenantFixture) {
    var seed: [String: Set<String>] = [:]
    for organization in fixture.organizations {
      seed[organization.id] = Set(organization.members.compactMap { fixture.users[$0]?.userID })
    }
    self.seed = seed
    self.members = seed
  }

  func isMember(_ userID: String, of organizationID: String) -> Bool {
    members[organizationID]?.contains(userID) ?? false
  }

  mutating func addMember(_ userID: String, to organizationID: String) {
    members[organizationID, default: []].insert(userID)
  }

  mutating func add(_ invitation: Invitation) {
    invitations[invitation.id] = invitation
  }

  /// The organization's pending invitations, oldest first.
  func invitations(of organizationID: String) -> [Invitation] {
    invitations.values.filter { $0.organizationID == organizationID }.sorted {
      ($0.createdAt, $0.id) < ($1.createdAt, $1.id)
    }
  }

  func invitation(_ id: String, of organizationID: String) -> Invitation? {
    invitations[id].flatMap { $0.organizationID == organizationID ? $0 : nil }
  }

  /// Deletes an invitation; false when there was none.
  mutating func delete(_ id: String, of organizationID: String) -> Bool {
    guard invitation(id, of: organizationID) != nil else { return false }
    invitations[id] = nil
    return true
  }

  /// The invitation with this ticket for this organization and client, if still usable.
  func lookup(ticket: String, organizationID: String, clientID: String, now: Double) -> TicketLookup {
    guard
      let found = invitations.values.first(where: {
        $0.ticketID == ticket && $0.organizationID == organizationID && $0.clientID == clientID
      })
    else { return .invalid }
    return found.expiresAt > now ? .valid(found) : .expired
  }

  /// Accepts an invitation: removes it (single use) and makes `userID` a member. Nil when it is
  /// gone or expired.
  mutating func redeem(
    ticket: String, organizationID: String, clientID: String, userID: String, now: Double
  ) -> Invitation? {
    guard
      case .valid(let invitation) = lookup(ticket: ticket, organizationID: organizationID, clientID: clientID, now: now)
    else { return nil }
    invitations[invitation.id] = nil
    members[organizationID, default: []].insert(userID)
    return invitation
  }

  /// How many memberships (over all organizations) and invitations are held.
  var counts: (members: Int, invitations: Int) { (members.values.reduce(0) { $0 + $1.count }, invitations.count) }
}
