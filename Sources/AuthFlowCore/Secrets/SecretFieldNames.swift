/// The one list of field names whose values are secrets wherever they appear: in YAML snippets of
/// diagnostics (``SnippetRedaction``), in the form, JSON and URL parameters of traces, and in
/// tenant responses, whose members of these names become secret values (and so are registered
/// and scrubbed). It is the safety net for what no declaration covers (an open result's members,
/// a response body); a step result's own fields say whether they are secret in their action's
/// declaration (`ResultField.secret`), which the runtime applies whatever the field's name.
public enum SecretFieldNames {
  public static let all: Set<String> = [
    "password", "new_password", "client_secret", "secret", "totp_secret", "client_assertion",
    "code", "code_verifier", "otp", "otp_code", "binding_code", "oob_code", "recovery_code",
    "access_token", "id_token", "refresh_token", "subject_token", "session_transfer_token", "mfa_token",
    "auth_session", "device_code", "auth_req_id", "ticket_id", "invitation_url",
    "token", "ticket", "invitation", "session_token", "login_ticket",
  ]

  /// Members of an error object (`{"error": …}`, Auth0's legacy `{"name","code","description",
  /// "statusCode"}`, `{"error": {"code", "message"}}`): their presence makes `code` an error code.
  static let errorMembers: Set<String> = ["error", "error_description", "description", "message", "statusCode", "name"]

  /// Whether the member `name` of an object with the member names `siblings` holds a secret.
  /// `code` is a secret (an authorization or one-time code) except in an error object, where it is
  /// the error's code (`requires_verification`, `invalid_grant`): evidence, never masked.
  public static func isSecretMember(_ name: String, siblings: some Collection<String>) -> Bool {
    let lowered = name.lowercased()
    guard all.contains(lowered) else { return false }
    if lowered == "code" { return !siblings.contains { errorMembers.contains($0) } }
    return true
  }
}
