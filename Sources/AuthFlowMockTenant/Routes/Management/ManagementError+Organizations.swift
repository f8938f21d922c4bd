import Hummingbird

/// Management API errors of organization invitations. Texts UNCONFIRMED; the envelope is docs/protocol.md §7's.
extension ManagementError {
  static let organizationNotFound = ManagementError(
    status: .notFound, message: "No organization found by that id.", errorCode: "inexistent_organization")
  static let invitationNotFound = ManagementError(
    status: .notFound, message: "The invitation does not exist.", errorCode: "inexistent_invitation")
  static func missingProperty(_ name: String) -> ManagementError {
    ManagementError(
      status: .badRequest, message: "Payload validation error: 'Missing required property: \(name)'",
      errorCode: "invalid_body")
  }
  static func invalidProperty(_ name: String, _ why: String) -> ManagementError {
    ManagementError(
      status: .badRequest, message: "Payload validation error: '\(name) \(why)'", errorCode: "invalid_body")
  }
  static func unknownClient(_ id: String) -> ManagementError {
    ManagementError(status: .badRequest, message: "The client \(id) does not exist.", errorCode: "invalid_body")
  }
  static let noLoginRoute = ManagementError(
    status: .badRequest,
    message: "The client must have an Application Login URI (initiate_login_uri) to send invitations.",
    errorCode: "invalid_body")
  static func unknownConnection(_ id: String) -> ManagementError {
    ManagementError(status: .badRequest, message: "The connection \(id) does not exist.", errorCode: "invalid_body")
  }
}
