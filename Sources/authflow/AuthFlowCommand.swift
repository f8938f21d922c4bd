import ArgumentParser

/// `authflow`: declarative auth-flow scenarios against real and mock tenants.
@main
struct AuthFlowCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "authflow",
    abstract: "Run declarative auth-flow scenarios against an Auth0 tenant, any OpenID Provider, or the built-in mock.",
    discussion: """
      Exit codes: 0 all passed, 1 a scenario failed, 2 invalid input or usage, 3 the tenant could \
      not be reached or misbehaved.
      """,
    version: "0.1.0",
    subcommands: [
      RunCommand.self, ValidateCommand.self, GraphCommand.self, MockCommand.self, SchemaCommand.self, DocsCommand.self,
    ]
  )
}
