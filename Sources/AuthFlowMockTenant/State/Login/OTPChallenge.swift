/// A passwordless challenge on a database connection (`/otp/challenge`, docs/protocol.md §4.4), redeemed
/// at `/oauth/token` with the passwordless/otp grant and `auth_session` + `otp`.
struct OTPChallenge: Sendable {
  var clientID: String
  var connection: String
  /// The email or E.164 phone number.
  var identifier: String
  var isPhone: Bool
  var allowSignup: Bool
  /// The code sent, or nil when nothing was sent (unknown user without `allow_signup`): no `otp`
  /// can then succeed, yet the answer looked the same.
  var code: String?
  var failures = 0
}
