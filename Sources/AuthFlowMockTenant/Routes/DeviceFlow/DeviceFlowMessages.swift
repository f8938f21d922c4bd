/// The device flow's token-endpoint errors (RFC 8628 §3.5, with Auth0's documented texts where
/// known).
extension OAuthError {
  /// Auth0's documented answer while the user has not decided.
  static let deviceAuthorizationPending = OAuthError(
    status: .forbidden, code: "authorization_pending", description: "User has yet to authorize device code.")
  /// Auth0's documented answer to polling faster than `interval`.
  static func deviceSlowDown(interval: Int) -> OAuthError {
    OAuthError(
      status: .tooManyRequests, code: "slow_down",
      description: "You are polling faster than the specified interval of \(interval) seconds.")
  }
  /// The device code expired (returned once; Auth0's exact text UNCONFIRMED).
  static let expiredDeviceCode = OAuthError(
    status: .forbidden, code: "expired_token", description: "The device code has expired.")
  /// The user declined on the confirmation page (Auth0's exact text UNCONFIRMED; its docs give
  /// "User cancelled the confirmation prompt or consent page").
  static let deviceAccessDenied = OAuthError(
    status: .forbidden, code: "access_denied", description: "User cancelled the confirmation prompt or consent page.")
  /// Unknown, used, foreign or forgotten device code (Auth0's exact text UNCONFIRMED).
  static let invalidDeviceCode = OAuthError.invalidGrant("Invalid or expired device code.")
}

/// The texts of the `/activate` pages.
enum DeviceFlowMessages {
  static let invalidUserCode = "Invalid or expired code. Please check the code on your device and try again."
  static let missingUserCode = "Enter the code displayed on your device."
  static let tooManyAttempts = "Too many invalid codes. Start again."
  static let unknownActivation = AuthorizeError(
    code: "invalid_request", description: "The activation session is unknown or has expired.")
  static let codeNoLongerPending = AuthorizeError(
    code: "expired_token", description: "The code has expired or was already used. Start again on your device.")
  static let invalidCSRF = AuthorizeError(code: "invalid_request", description: "Invalid CSRF token")
}
