/// The one list of field names whose values are secrets wherever they appear: in YAML snippets of
/// diagnostics (``SnippetRedaction``), in the form, JSON and URL parameters of traces, and in
/// tenant responses, whose members of these names become secret values (and so are registered
/// and scrubbed).
public enum SecretFieldNames {
  public static let all: Set<String> = [
    "password", "new_password", "client_secret", "secret", "totp_secret", "client_assertion",
    "code", "code_verifier", "otp", "otp_code", "binding_code", "oob_code", "recovery_code",
    "access_token", "id_token", "refresh_token", "subject_token", "session_transfer_token", "mfa_token",
    "auth_session", "device_code", "auth_req_id", "ticket_id", "invitation_url",
  ]
}
