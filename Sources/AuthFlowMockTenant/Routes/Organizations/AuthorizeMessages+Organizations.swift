/// `/authorize` errors of organizations, invitations and session transfer. Auth0's exact texts
/// are UNCONFIRMED (docs/protocol.md §8, §13); these are the mock's.
extension AuthorizeError {
  static let organizationRequired = AuthorizeError(
    code: "invalid_request", description: "parameter organization is required for this client")
  static let organizationNotAllowed = AuthorizeError(
    code: "invalid_request", description: "parameter organization is not allowed for this client")
  static let invalidInvitation = AuthorizeError(
    code: "invalid_request", description: "The invitation is invalid or has already been used.")
  static let expiredInvitation = AuthorizeError(code: "invalid_request", description: "The invitation has expired.")
  /// The login's connection (or `/authorize`'s `connection`) is not among the organization's.
  static let connectionNotEnabledForOrganization = AuthorizeError(
    code: "invalid_request", description: "the connection is not enabled for the organization")
  /// `post_login_prompt` with a user who belongs to no organization.
  static let noOrganizationMembership = AuthorizeError(
    code: "access_denied", description: "user is not a member of any organization")
  /// `post_login_prompt` with `prompt=none`: the selection page cannot be shown.
  static let organizationSelectionRequired = AuthorizeError(
    code: "interaction_required", description: "the user must select an organization")
}

/// Universal Login messages of the organization prompt and of invitations.
extension LoginMessages {
  static let unknownOrganization = "We can't find this organization. Check the name and try again."
  static let missingOrganization = "Please enter the name of your organization."
  static let invitationEmailMismatch = "This invitation was sent to a different email address."
  static let notYourOrganization = "You are not a member of this organization. Pick one from the list."
}
