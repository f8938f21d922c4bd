import AuthFlowCore
import AuthFlowRuntime
import AuthFlowScenario
import Foundation
import Testing

/// Parameters are declared once (`static let scope = Parameter<String>("scope", …)`): the
/// declaration goes into the signature and is what the action reads with, so the two cannot drift.
@Suite("Typed action parameters")
struct TypedParameterTests {
  /// `static let NAME = Parameter<TYPE>("KEY"` in an action's source.
  static var declaration: Regex<(Substring, Substring, Substring)> {
    #/static let (\w+) = Parameter<[^=]+>\(\s*"([a-z_]+)"/#
  }
  /// A read by a string key, which the typed declarations replace.
  static var readByName: Regex<(Substring, Substring, Substring, Substring?)> {
    #/(input|Parameters\(parameters\))(\.(requiredString|string|bool|int|object|duration|stringMap)\(|\[)"[a-z_]+"/#
  }

  static func source(of action: any Action.Type) -> (path: String, text: String)? {
    let typeName = String(describing: action)
    return ActionSelfDescriptionTests.sourceFiles.first { $0.path.hasSuffix("/\(typeName).swift") }
  }

  @Test("Every parameter an action declares is in its signature", arguments: ActionSelfDescriptionTests.actionNames)
  func declaredParametersAreInTheSignature(_ name: String) throws {
    let action = try #require(ActionRegistry.action(named: name))
    let file = try #require(Self.source(of: action))
    let signature = action.signature
    let names = Set(signature.parameters.map(\.name) + [signature.scalarForm?.name].compactMap { $0 })
    for match in file.text.matches(of: Self.declaration) {
      let key = String(match.output.2)
      #expect(names.contains(key), "\(name) declares '\(key)' (\(match.output.1)) but its signature lacks it")
    }
  }

  @Test("Shared declarations are in the signatures of the actions that use them")
  func sharedDeclarationsAreUsed() throws {
    let shared = ActionSelfDescriptionTests.sourceFiles.filter {
      $0.path.hasSuffix("/PasskeyExchange.swift") || $0.path.hasSuffix("/IDTokenOptIn.swift")
    }
    #expect(shared.count == 2)
    let all = Set(ActionRegistry.all.flatMap { $0.signature.parameters.map(\.name) })
    for file in shared {
      for match in file.text.matches(of: Self.declaration) {
        #expect(all.contains(String(match.output.2)), "\(file.path) declares '\(match.output.2)', which no action has")
      }
    }
  }

  @Test("Actions read their parameters through the declarations, never by a string key")
  func noReadsByName() {
    let actionFiles = ActionSelfDescriptionTests.sourceFiles.filter {
      $0.path.hasPrefix("AuthFlowRuntime/") && !$0.path.hasSuffix("/Parameters.swift")
        && ($0.path.hasSuffix("Action.swift") || $0.path.hasSuffix("/WebAuthTransaction.swift")
          || $0.path.hasSuffix("/PasskeyExchange.swift") || $0.path.hasSuffix("/IDTokenOptIn.swift"))
    }
    #expect(actionFiles.count > ActionRegistry.all.count)
    for file in actionFiles {
      let reads = file.text.matches(of: Self.readByName).map { String($0.output.0) }
      #expect(reads.isEmpty, "\(file.path) reads parameters by name: \(reads)")
    }
  }

  @Test("A typed read names the parameter in its error")
  func typedReadErrors() throws {
    let scope = Parameter<String>("scope", summary: "Scope.")
    let token = Parameter<String>("refresh_token", required: true, summary: "The token.")
    let ttl = Parameter<Duration>("ttl", maximumDuration: .seconds(60))
    #expect(scope.signature == ParameterSignature("scope", .string, summary: "Scope."))
    #expect(token.signature.required)

    let input = Parameters(["scope": .object([:]), "ttl": "2m"])
    #expect(throws: ActionError.self) { try input[scope] }
    do {
      _ = try input[scope]
    } catch {
      #expect(error.message == "parameter 'scope': expected a string, found object")
      #expect(error.parameter == "scope")
    }
    do {
      _ = try input.required(token)
      Issue.record("a missing required parameter must throw")
    } catch {
      #expect(error.message == "parameter 'refresh_token': is required")
    }
    do {
      _ = try input[ttl]
      Issue.record("a duration past the declared maximum must throw")
    } catch {
      #expect(error.parameter == "ttl")
      #expect(error.message.contains("too long"))
    }
    let given = Parameters(["scope": "openid", "ttl": "30s"])
    #expect(try given[scope] == "openid")
    #expect(try given[ttl] == .seconds(30))
    #expect(try Parameters([:])[scope] == nil)
  }
}
