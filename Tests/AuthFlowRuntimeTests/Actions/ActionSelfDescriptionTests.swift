import AuthFlowCore
import AuthFlowRuntime
import AuthFlowScenario
import Foundation
import Testing

/// Each action is one self-describing unit: what is particular to it is declared in its own
/// file(s) (``ActionTraits``, ``Action/failure(in:expectations:)``) and read generically, so its
/// type name and step name appear nowhere else but in the registry.
@Suite("Actions describe themselves")
struct ActionSelfDescriptionTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
  static let sources = root.appendingPathComponent("Sources")
  static let actionNames = ActionRegistry.all.map { $0.signature.name }

  /// Every Swift file under `Sources`, as (path relative to `Sources`, text).
  static let sourceFiles: [(path: String, text: String)] = {
    let enumerator = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)
    var files: [(String, String)] = []
    while let url = enumerator?.nextObject() as? URL {
      guard url.pathExtension == "swift", let text = try? String(contentsOf: url, encoding: .utf8) else { continue }
      files.append((String(url.path.dropFirst(sources.path.count + 1)), text))
    }
    return files.sorted { $0.0 < $1.0 }
  }()

  /// The folders whose code runs every action alike: an action's step name quoted there is
  /// action-specific behaviour patched in from outside.
  static let genericFolders = [
    "AuthFlowRuntime/Interpreter/", "AuthFlowRuntime/Services/", "AuthFlowRuntime/Run/", "AuthFlowRuntime/Docs/",
    "AuthFlowRuntime/Assertions/", "AuthFlowRuntime/Tenant/", "AuthFlowScenario/", "AuthFlowResults/",
    "AuthFlowReporting/", "AuthFlowMockHosting/", "authflow/",
  ]

  /// Files that belong to one action besides `<TypeName>.swift`: Web Auth's transaction (its
  /// `/authorize` request, callback and code exchange). The login-page drivers and the ID-token
  /// check under `AuthFlowRuntime/WebAuth/` are shared by several actions and name none.
  static let ownFolders: [String: String] = ["WebAuthAction": "AuthFlowRuntime/WebAuth/Transaction/"]

  static func isOwn(_ path: String, by typeName: String) -> Bool {
    path.hasSuffix("/\(typeName).swift") || path.hasSuffix("/ActionRegistry.swift")
      || ownFolders[typeName].map { path.hasPrefix($0) } == true
  }

  /// Whole-word occurrences of `word` in `text`.
  static func mentions(_ word: String, in text: String) -> Bool {
    text.range(of: "\\b\(word)\\b", options: .regularExpression) != nil
  }

  @Test("Sources hold at least the action files (the scan finds them)")
  func scanFindsTheActions() {
    for action in ActionRegistry.all {
      let typeName = String(describing: action)
      #expect(Self.sourceFiles.contains { $0.path.hasSuffix("/\(typeName).swift") }, "no file \(typeName).swift")
    }
  }

  @Test("An action's type name appears only in its own file(s) and the registry", arguments: actionNames)
  func typeNameStaysHome(_ name: String) throws {
    let typeName = String(describing: try #require(ActionRegistry.action(named: name)))
    let outside = Self.sourceFiles.filter { !Self.isOwn($0.path, by: typeName) && Self.mentions(typeName, in: $0.text) }
      .map(\.path)
    #expect(outside.isEmpty, "\(typeName) is named in \(outside); declare it in the action instead")
  }

  /// Step names that also name something else, and what: quoted in generic code they are
  /// another vocabulary's word, and only a line that is about actions counts.
  static let sameNamed: [String: String] = [
    "http": "the URL scheme",
    "login": "a login page's kind and its `login_pages` key",
    "logout": "a capability, and Auth0's logout endpoint (`tenant.endpoints.logout`)",
    "my_account": "a capability",
    "signup": "a capability",
    "skip": "the word a verdict table writes for a skipped scenario",
    "token": "a token endpoint (`tenant.endpoints.token`) and a result field",
    "userinfo": "a capability and an endpoint (`tenant.endpoints.userinfo`)",
  ]

  @Test("No generic code quotes an action's step name", arguments: actionNames)
  func stepNameIsNotQuotedByGenericCode(_ name: String) {
    let generic = Self.sourceFiles.filter { file in Self.genericFolders.contains { file.path.hasPrefix($0) } }
    #expect(generic.count > 100)
    var outside: [String] = []
    for file in generic {
      for (number, line) in file.text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
      where line.contains("\"\(name)\"") {
        if Self.sameNamed[name] != nil, !line.lowercased().contains("action") { continue }
        outside.append("\(file.path):\(number + 1)")
      }
    }
    #expect(outside.isEmpty, "\"\(name)\" is quoted in \(outside); declare it in the action instead")
  }

  @Test("Declared capabilities are in the vocabulary", arguments: actionNames)
  func capabilitiesAreKnown(_ name: String) throws {
    let action = try #require(ActionRegistry.action(named: name))
    for capability in action.traits.capabilities {
      #expect(CapabilityVocabulary.builtInNames.contains(capability), "\(name): unknown capability '\(capability)'")
    }
  }

  @Test("Declared traits agree with the signature", arguments: actionNames)
  func traitsAgreeWithSignature(_ name: String) throws {
    let action = try #require(ActionRegistry.action(named: name))
    let traits = action.traits
    #expect(!traits.failures.isEmpty, "\(name) declares no failure class")
    if traits.idTokenOptIn {
      #expect(action.signature.parameter("validate_id_token") != nil, "\(name) offers the opt-in without its parameter")
    }
    if !traits.errors.isEmpty {
      #expect(traits.failures.contains(.protocolError), "\(name) lists error codes but no protocol errors")
    }
    switch traits.timeout {
    case .polls(let parameter, _), .sleeps(let parameter):
      #expect(action.signature.parameter(parameter) != nil, "\(name)'s timeout names an undeclared '\(parameter)'")
    case .step: break
    }
  }

  @Test("The runner reads clock exclusivity from the traits")
  func clockExclusivityIsDeclared() {
    let moving = ActionRegistry.all.filter { $0.traits.mockClock == .movesExclusively }.map { $0.signature.name }
    #expect(moving == ["mock_clock"])
  }

  @Test("http's 5xx and 429 are environment failures, another 4xx a failure, unless `expect` names the status")
  func httpServerErrorIsDeclared() throws {
    let http = try #require(ActionRegistry.action(named: "http"))
    let result: Value = .object(["status": 503, "url": "https://tenant.example/oauth/token"])
    let serverError = http.failure(in: result, expectations: [["body"]])
    let failure = try #require(serverError)
    #expect(failure.failureClass == .environment)
    #expect(failure.message.contains("HTTP 503"))
    let expected = http.failure(in: result, expectations: [["status"]])
    #expect(expected == nil)
    // A refusal the step does not look for is not a pass (`http: /api/v2/users` answered 401).
    let notFound = http.failure(in: .object(["status": 404]), expectations: [["body", "error"]])
    #expect(notFound?.failureClass == .flow)
    #expect(notFound?.message.contains("HTTP 404, which the step does not expect") == true)
    #expect(http.failure(in: .object(["status": 404]), expectations: [["status"]]) == nil)
    #expect(http.failure(in: .object(["status": 302]), expectations: []) == nil)
    // A 429 is the tenant's capacity, unless its body says it is an answer (brute force, slow_down).
    let limited = http.failure(in: .object(["status": 429, "body": ["error": "too_many_requests"]]), expectations: [])
    #expect(limited?.failureClass == .environment)
    let blocked = http.failure(in: .object(["status": 429, "body": ["error": "too_many_attempts"]]), expectations: [])
    #expect(blocked?.failureClass == .flow)
    let login = try #require(ActionRegistry.action(named: "login"))
    let fromLogin = login.failure(in: result, expectations: [])
    #expect(fromLogin == nil)
  }
}

/// The interpreter reads an action's declared timeout behaviour: a step that sleeps or polls past
/// its `timeout:` says why.
@Suite("Declared timeout behaviour")
struct DeclaredTimeoutTests {
  @Test("A wait longer than its step's timeout ends with the timeout, naming the sleep")
  func sleepPastTheStepTimeout() async throws {
    let report = try await MockHarness.run(
      """
      scenario: The step's budget is shorter than its wait
      steps:
        - id: pause
          wait: 30s
          timeout: 200ms
      """)
    let step = try #require(report.steps.first { $0.id == "pause" })
    #expect(step.status == .failed)
    #expect(step.problems.map(\.kind) == [.timeout])
    let message = try #require(step.problems.first?.message)
    #expect(message.hasPrefix("the step did not finish within its timeout of"), "\(message)")
    #expect(message.hasSuffix("`wait` sleeps for its `for`; give the step a `timeout:` longer than that"), "\(message)")
  }

  @Test("A one-exchange action's timeout message has no hint")
  func oneExchangeHasNoHint() throws {
    let http = try #require(ActionRegistry.action(named: "http"))
    #expect(http.traits.timeout.stepTimeoutHint(action: "http") == nil)
    let outbox = try #require(ActionRegistry.action(named: "outbox"))
    #expect(outbox.traits.timeout.stepTimeoutHint(action: "outbox")?.contains("`timeout`") == true)
  }
}
