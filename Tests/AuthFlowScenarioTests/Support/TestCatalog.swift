import AuthFlowScenario

extension ActionCatalog {
  /// A small catalog in the shape the runtime's registry supplies, for parser and schema tests.
  static let test = ActionCatalog([
    ActionSignature(
      name: "http", summary: "Sends an HTTP request.",
      parameters: [
        ParameterSignature("url", .string, required: true, summary: "the URL"),
        ParameterSignature("method", .oneOf(["GET", "POST", "PUT", "PATCH", "DELETE"])),
        ParameterSignature("headers", .map),
        ParameterSignature("body", .any),
        ParameterSignature("form", .map),
        ParameterSignature("follow_redirects", .bool),
      ]),
    ActionSignature(
      name: "wait", summary: "Waits.",
      parameters: [ParameterSignature("duration", .duration, required: true, summary: "how long")],
      scalarForm: ParameterSignature("duration", .duration)),
    ActionSignature(
      name: "assert", summary: "Fails unless a condition holds.",
      parameters: [ParameterSignature("that", .any, required: true), ParameterSignature("message", .string)],
      scalarForm: ParameterSignature("that", .any)),
    ActionSignature(name: "set", summary: "Sets vars.", acceptsAnyParameters: true),
    ActionSignature(
      name: "web_auth", summary: "Logs in through Universal Login.",
      parameters: [
        ParameterSignature("connection", .string),
        ParameterSignature("audience", .string),
        ParameterSignature("scope", .string),
        ParameterSignature("organization", .string),
        ParameterSignature("max_age", .int),
        ParameterSignature("parameters", .map),
        ParameterSignature(
          "login", .object([ParameterSignature("email", .string), ParameterSignature("password", .string)])),
        ParameterSignature("stop_at", .oneOf(["login", "signup", "mfa", "consent", "callback"])),
        ParameterSignature("browser", .string),
        ParameterSignature("prompts", .array(of: .string)),
      ]),
    ActionSignature(
      name: "renew", summary: "Renews credentials with a refresh token.",
      parameters: [
        ParameterSignature("refresh_token", .string, required: true, summary: "the refresh token to use"),
        ParameterSignature("scope", .string),
      ]),
    ActionSignature(name: "logout", summary: "Clears the session."),
  ])
}
