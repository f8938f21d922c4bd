/// `/authorize` errors of organizations, invitations and session transfer. Auth0's exact texts
/// are UNCONFIRMED (PROTOCOL §8, §13); these are the mock's.
extension AuthorizeError {
  static let organizationRequired = AuthorizeError(
    code: "invalid_request", description: "parameter organization is required for this client")
  static let organizationNotAllowed = AuthorizeError(
    code: "invalid_request", description: "parameter organization is not allowed for this client")
  static let invalidInvitation = AuthorizeError(
    code: "invalid_request", description: "The invitation is invalid or has already been used.")
  static let expiredInvitation = AuthorizeError(code: "invalid_request", description: "The invitation has expired.")
}

/// Universal Login messages of the organization prompt and of invitations.
extension LoginMessages {
  static let unknownOrganization = "We can't find this organization. Check the name and try again."
  static let missingOrganization = "Please enter the name of your organization."
  static let invitationEmailMismatch = "This invitation was sent to a different email address."
}
