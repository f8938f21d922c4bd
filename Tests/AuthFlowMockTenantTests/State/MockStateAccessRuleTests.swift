import Foundation
import Testing

/// The mock's rule of state access (``MockStateOwner``): outside `State/`, the state is read with
/// `read { … }` — a constant, the compiler refuses a write — and changed only by `transact { … }`
/// bodies that are exactly one call of a transaction named in `State/Transactions/`. A read-then-
/// write across two steps (the lost update, the single-use credential used twice) therefore cannot
/// be written in a route: its write would be a body of its own (`$0.users.update(user)`), which
/// this test refuses.
@Suite struct MockStateAccessRuleTests {
  static let sources = MockHarness.repository.appending(path: "Sources/AuthFlowMockTenant")

  /// The names of the `mutating func`s declared in `State/Transactions/`.
  static func transactionNames() throws -> Set<String> {
    let folder = sources.appending(path: "State/Transactions")
    let regex = try Regex(#"mutating func (\w+)"#)
    var names = Set<String>()
    for file in try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
    where file.pathExtension == "swift" {
      for match in try String(contentsOf: file, encoding: .utf8).matches(of: regex) {
        if let name = match.output[1].substring { names.insert(String(name)) }
      }
    }
    return names
  }

  /// Every breach of the rule in `text` (one file's source): a `transact` whose argument is not a
  /// closure, a closure body that is not one `$0.name(…)` call, or a call of a name that is not a
  /// transaction. `withState` (the old raw door) is a breach wherever it appears.
  static func breaches(in text: String, transactions: Set<String>) -> [String] {
    var found: [String] = []
    if text.contains("withState") { found.append("withState") }
    let characters = Array(text)
    var index = 0
    while let start = nextCall(of: "transact", in: characters, from: index) {
      index = start + 1
      var cursor = start + "transact".count
      while cursor < characters.count, characters[cursor] == " " { cursor += 1 }
      if cursor < characters.count, characters[cursor] == "(" {
        cursor += 1
        while cursor < characters.count, characters[cursor].isWhitespace { cursor += 1 }
      }
      guard cursor < characters.count, characters[cursor] == "{", let end = matching(characters, from: cursor)
      else {
        found.append("transact without a closure: " + snippet(characters, at: start))
        continue
      }
      let body = String(characters[(cursor + 1)..<end]).trimmingCharacters(in: .whitespacesAndNewlines)
      guard let name = singleCall(body) else {
        found.append("transact body is not one $0.transaction(…) call: " + body)
        continue
      }
      if !transactions.contains(name) { found.append("\(name) is not a transaction of State/Transactions/") }
    }
    return found
  }

  /// The name of the call when `body` is exactly `$0.name(…)`.
  static func singleCall(_ body: String) -> String? {
    guard body.hasPrefix("$0.") else { return nil }
    let characters = Array(body)
    var cursor = 3
    while cursor < characters.count, characters[cursor].isLetter || characters[cursor].isNumber { cursor += 1 }
    guard cursor > 3, cursor < characters.count, characters[cursor] == "(",
      let close = matching(characters, from: cursor), close == characters.count - 1
    else { return nil }
    return String(characters[3..<cursor])
  }

  /// The index of the next `word` called as a method or function (not declared: `func word`).
  static func nextCall(of word: String, in characters: [Character], from start: Int) -> Int? {
    let target = Array(word)
    var index = start
    while index + target.count <= characters.count {
      defer { index += 1 }
      guard Array(characters[index..<(index + target.count)]) == target else { continue }
      let before = index > 0 ? characters[index - 1] : " "
      let after = index + target.count < characters.count ? characters[index + target.count] : " "
      guard !(before.isLetter || before.isNumber || before == "_"), !(after.isLetter || after.isNumber || after == "_")
      else { continue }
      let prefix = String(characters[max(0, index - 5)..<index])
      if prefix == "func " { continue }
      return index
    }
    return nil
  }

  /// The index of the bracket closing the one at `open` (`{`/`}` or `(`/`)`), skipping string
  /// literals.
  static func matching(_ characters: [Character], from open: Int) -> Int? {
    let opening = characters[open]
    let closing: Character = opening == "{" ? "}" : ")"
    var depth = 0
    var index = open
    var inString = false
    while index < characters.count {
      let character = characters[index]
      if inString {
        if character == "\\" {
          index += 1
        } else if character == "\"" {
          inString = false
        }
      } else if character == "\"" {
        inString = true
      } else if character == opening {
        depth += 1
      } else if character == closing {
        depth -= 1
        if depth == 0 { return index }
      }
      index += 1
    }
    return nil
  }

  static func snippet(_ characters: [Character], at index: Int) -> String {
    String(characters[index..<min(characters.count, index + 60)])
  }

  @Test func routesChangeTheStateOnlyThroughNamedTransactions() throws {
    let transactions = try Self.transactionNames()
    #expect(transactions.count > 40)
    var breaches: [String] = []
    var transactCalls = 0
    let enumerator = FileManager.default.enumerator(at: Self.sources, includingPropertiesForKeys: nil)
    while let file = enumerator?.nextObject() as? URL {
      // `State/` holds the transactions; `Tenant/MockTenant.swift` declares the two doors.
      guard file.pathExtension == "swift", !file.path.contains("/State/"),
        !file.path.hasSuffix("Tenant/MockTenant.swift")
      else { continue }
      let text = try String(contentsOf: file, encoding: .utf8)
      let characters = Array(text)
      var from = 0
      while let found = Self.nextCall(of: "transact", in: characters, from: from) {
        transactCalls += 1
        from = found + 1
      }
      breaches += Self.breaches(in: text, transactions: transactions).map { "\(file.lastPathComponent): \($0)" }
    }
    #expect(transactCalls > 80)
    #expect(breaches.isEmpty, "\(breaches.joined(separator: "\n"))")
  }

  /// The checker itself refuses what the rule forbids.
  @Test func theCheckerRefusesReadThenWriteAcrossSteps() {
    let names: Set<String> = ["redeemCode", "issueMFAToken"]
    #expect(Self.breaches(in: "tenant.transact { $0.redeemCode(code, family: f) }", transactions: names).isEmpty)
    #expect(
      Self.breaches(
        in: "let x = tenant.transact({\n  $0.issueMFAToken(t, for: grant(of: \"}\"), expiresAt: 1)\n})",
        transactions: names
      ).isEmpty)
    #expect(Self.breaches(in: "tenant.transact { $0.users.update(user) }", transactions: names).count == 1)
    #expect(Self.breaches(in: "tenant.transact { state in state.redeemCode(c) }", transactions: names).count == 1)
    #expect(
      Self.breaches(in: "tenant.transact { $0.redeemCode(c); $0.redeemCode(d) }", transactions: names).count == 1)
    #expect(Self.breaches(in: "tenant.transact(body)", transactions: names).count == 1)
    #expect(Self.breaches(in: "tenant.withState { $0.codes }", transactions: names) == ["withState"])
    #expect(Self.breaches(in: "func transact<R>(_ body: () -> R) -> R", transactions: names).isEmpty)
  }
}
