import AuthFlowCore
import AuthFlowExpression
import AuthFlowYAML

extension ParseContext {
  /// `inbox:` of a tenant: one source, an address pattern, extraction patterns; every problem
  /// located.
  mutating func inbox(_ node: YAMLNode) -> InboxProfile? {
    guard let pairs = mapping(node, for: "inbox") else { return nil }
    let keys = knownPairs(pairs, allowed: InboxProfile.keys, in: "inbox")
    var profile = InboxProfile(location: node.location)
    let sources = InboxProfile.sourceKeys.filter { keys[$0] != nil }
    if sources.isEmpty {
      report(.missingInboxSource(at: node.location))
    } else if sources.count > 1, let second = keys[sources[1]]?.key.location {
      report(.twoInboxSources(sources, at: second))
    }
    if let pair = keys["smtp"] {
      profile.source = inboxSMTP(pair.value).map(InboxProfile.Source.smtp)
    } else if let pair = keys["http"] {
      if let (url, members) = inboxURL(pair.value, for: "inbox.http", allowed: InboxProfile.httpKeys) {
        profile.source = .http(url: url, token: members["token"].map { template($0.value) })
      }
    }
    if let pair = keys["imap"], profile.source == nil {
      profile.source = inboxIMAP(pair.value).map(InboxProfile.Source.imap)
    }
    if let pair = keys["address"], let address = string(pair.value, for: "inbox.address") {
      if InboxAddress.isPattern(address.value) {
        profile.address = address
      } else {
        report(.badInboxAddress(address))
      }
    }
    if let pair = keys["patterns"], let patternPairs = mapping(pair.value, for: "inbox.patterns") {
      let patterns = knownPairs(patternPairs, allowed: InboxProfile.patternKeys, in: "inbox.patterns")
      profile.codePattern = patterns["code"].flatMap { extractionPattern($0.value, for: "inbox.patterns.code") }
      profile.linkPattern = patterns["link"].flatMap { extractionPattern($0.value, for: "inbox.patterns.link") }
    }
    return profile
  }

  private mutating func inboxSMTP(_ node: YAMLNode) -> InboxProfile.SMTPReceiver? {
    guard let pairs = mapping(node, for: "inbox.smtp") else { return nil }
    let keys = knownPairs(pairs, allowed: InboxProfile.smtpKeys, in: "inbox.smtp")
    guard let listenPair = keys["listen"] else {
      report(.missingInboxListen(at: node.location))
      return nil
    }
    guard let listen = string(listenPair.value, for: "inbox.smtp.listen") else { return nil }
    guard let (host, port) = ListenAddress.parse(listen.value) else {
      report(.badListenAddress(listen))
      return nil
    }
    var receiver = InboxProfile.SMTPReceiver(host: host, port: port, location: node.location)
    if let tls = keys["tls"], let tlsPairs = mapping(tls.value, for: "inbox.smtp.tls") {
      let members = knownPairs(tlsPairs, allowed: InboxProfile.tlsKeys, in: "inbox.smtp.tls")
      receiver.certificate = members["certificate"].map { template($0.value) }
      receiver.key = members["key"].map { template($0.value) }
      if receiver.certificate == nil || receiver.key == nil {
        report(.incompleteInboxTLS(at: tls.value.location))
      }
      if let required = members["required"]?.value {
        if case .bool(let value)? = required.scalar?.value {
          receiver.requireTLS = value
        } else {
          report(.wrongType(expected: "true or false", found: required, for: "inbox.smtp.tls.required"))
        }
      }
    }
    if let auth = keys["auth"], let authPairs = mapping(auth.value, for: "inbox.smtp.auth") {
      let members = knownPairs(authPairs, allowed: InboxProfile.authKeys, in: "inbox.smtp.auth")
      receiver.user = members["user"].map { template($0.value) }
      receiver.password = members["password"].map { template($0.value) }
      if receiver.user == nil || receiver.password == nil {
        report(.incompleteInboxAuth(at: auth.value.location))
      }
    }
    if let size = keys["max_message_bytes"]?.value {
      if case .int(let bytes)? = size.scalar?.value, InputLimits.inboxMessageBytes.contains(bytes) {
        receiver.maxMessageBytes = bytes
      } else {
        report(.badInboxMessageBytes(size))
      }
    }
    return receiver
  }

  private mutating func inboxIMAP(_ node: YAMLNode) -> InboxProfile.IMAPAccount? {
    guard let pairs = mapping(node, for: "inbox.imap") else { return nil }
    let keys = knownPairs(pairs, allowed: InboxProfile.imapKeys, in: "inbox.imap")
    let missing = ["url", "user", "password"].filter { keys[$0] == nil }
    guard missing.isEmpty, let url = keys["url"], let user = keys["user"], let password = keys["password"] else {
      report(.missingIMAPKeys(missing, at: node.location))
      return nil
    }
    if case .scalar(let scalar) = url.value, !scalar.text.contains("${{"),
      !(scalar.text.hasPrefix("imap://") || scalar.text.hasPrefix("imaps://"))
    {
      report(.badIMAPURL(Located(scalar.text, at: scalar.location)))
    }
    var account = InboxProfile.IMAPAccount(
      url: template(url.value), user: template(user.value), password: template(password.value),
      location: node.location)
    account.mailbox = keys["mailbox"].flatMap { string($0.value, for: "inbox.imap.mailbox") }
    account.ca = keys["ca"].map { template($0.value) }
    if let pair = keys["security"], let text = string(pair.value, for: "inbox.imap.security") {
      if let security = InboxProfile.IMAPSecurity(rawValue: text.value) {
        account.security = security
      } else {
        report(.unknownIMAPSecurity(text))
      }
    }
    return account
  }

  /// `key: URL` or `key: { url: URL, … }`: the URL and the mapping's other members.
  private mutating func inboxURL(
    _ node: YAMLNode, for key: String, allowed: [String]
  ) -> (Template, [String: YAMLPair])? {
    if node.scalar != nil, !node.isNull { return (template(node), [:]) }
    guard let pairs = mapping(node, for: key, expected: "a URL, or a mapping with 'url'") else { return nil }
    let members = knownPairs(pairs, allowed: allowed, in: key)
    guard let url = members["url"] else {
      report(.missingInboxURL(key, at: node.location))
      return nil
    }
    return (template(url.value), members)
  }

  /// A pattern of `inbox.patterns`: one the expression language's engine compiles.
  private mutating func extractionPattern(_ node: YAMLNode, for key: String) -> Located<String>? {
    guard let text = string(node, for: key) else { return nil }
    do {
      let pattern = try RegexPattern(text.value)
      if pattern.groupCount > 1 { report(.tooManyPatternGroups(text, key: key)) }
      return text
    } catch {
      report(.badExtractionPattern(text, key: key, error: error))
      return nil
    }
  }
}

/// `HOST:PORT` of a listener: an IPv4 address or name, or `[IPv6]`, and a port 0–65535.
public enum ListenAddress {
  public static func parse(_ text: String) -> (host: String, port: Int)? {
    guard let colon = text.lastIndex(of: ":") else { return nil }
    var host = String(text[..<colon])
    guard let port = Int(text[text.index(after: colon)...]), InputLimits.port.contains(port) else { return nil }
    if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
    guard !host.isEmpty, !host.contains(" ") else { return nil }
    return (host, port)
  }

  /// Whether `host` is a loopback address (127.0.0.0/8, ::1, localhost).
  public static func isLoopback(_ host: String) -> Bool {
    host == "localhost" || host == "::1" || host.hasPrefix("127.")
  }
}

/// `inbox.address`: an email address with one `{id}` in its local part or domain.
public enum InboxAddress {
  public static func isPattern(_ text: String) -> Bool {
    let parts = text.components(separatedBy: InboxProfile.addressPlaceholder)
    guard parts.count == 2, let at = text.firstIndex(of: "@") else { return false }
    return text[text.index(after: at)...].contains(".") && !text.contains(" ")
  }

  /// The address for `id` (letters and digits).
  public static func address(_ pattern: String, id: String) -> String {
    pattern.replacingOccurrences(of: InboxProfile.addressPlaceholder, with: id)
  }
}

// Messages about `inbox:`.
extension Diagnostic {
  static func missingInboxSource(at location: SourceLocation) -> Diagnostic {
    .error(
      "'inbox' needs a message source", at: location,
      hint:
        "add 'smtp: { listen: 127.0.0.1:2525 }' (a receiver for the run), or 'http: URL' (an `authflow inbox` elsewhere; docs/messages.md)"
    )
  }

  static func twoInboxSources(_ keys: [String], at location: SourceLocation) -> Diagnostic {
    .error(
      "'inbox' has more than one message source (\(keys.joined(separator: ", ")))", at: location,
      length: keys[1].count, hint: "keep one: a tenant's messages are read from one place")
  }

  static func missingIMAPKeys(_ keys: [String], at location: SourceLocation) -> Diagnostic {
    .error(
      "'inbox.imap' needs \(keys.map { "'\($0)'" }.joined(separator: ", "))", at: location,
      hint: "write 'imap: { url: imaps://mail.example.com, user: qa, password: ${{ env.IMAP_PASSWORD }} }'")
  }

  static func badIMAPURL(_ text: Located<String>) -> Diagnostic {
    .error(
      "'\(text.value)' is not an IMAP URL", at: text.location, length: max(1, text.value.count),
      hint: "write imaps://HOST[:PORT] (TLS, port 993) or imap://HOST[:PORT] (STARTTLS, port 143)")
  }

  static func unknownIMAPSecurity(_ text: Located<String>) -> Diagnostic {
    let names = InboxProfile.IMAPSecurity.allCases.map(\.rawValue)
    return .error(
      "unknown 'inbox.imap.security' '\(text.value)'", at: text.location, length: max(1, text.value.count),
      hint: Suggestion.hint(for: text.value, in: names) ?? "use one of \(names.joined(separator: ", "))")
  }

  static func missingInboxListen(at location: SourceLocation) -> Diagnostic {
    .error("'inbox.smtp' needs 'listen'", at: location, hint: "write 'listen: 127.0.0.1:2525'")
  }

  static func badListenAddress(_ text: Located<String>) -> Diagnostic {
    .error(
      "'\(text.value)' is not HOST:PORT", at: text.location, length: max(1, text.value.count),
      hint: "write an address and a port from 0 to 65535, e.g. 127.0.0.1:2525 or [::1]:2525")
  }

  static func incompleteInboxTLS(at location: SourceLocation) -> Diagnostic {
    .error(
      "'inbox.smtp.tls' needs both 'certificate' and 'key'", at: location,
      hint: "give the PEM files of the certificate chain and its private key")
  }

  static func incompleteInboxAuth(at location: SourceLocation) -> Diagnostic {
    .error(
      "'inbox.smtp.auth' needs both 'user' and 'password'", at: location,
      hint: "write 'auth: { user: qa, password: ${{ env.INBOX_PASSWORD }} }'")
  }

  static func badInboxMessageBytes(_ node: YAMLNode) -> Diagnostic {
    let range = InputLimits.inboxMessageBytes
    return .error(
      "'inbox.smtp.max_message_bytes' must be a whole number from \(range.lowerBound) to \(range.upperBound)",
      at: node.location, hint: "the largest message to accept, in bytes (10485760 is 10 MiB)")
  }

  static func missingInboxURL(_ key: String, at location: SourceLocation) -> Diagnostic {
    .error("'\(key)' needs 'url'", at: location, hint: "write 'url: http://127.0.0.1:8025'")
  }

  static func badInboxAddress(_ text: Located<String>) -> Diagnostic {
    .error(
      "'inbox.address' must be an email address with one {id}", at: text.location,
      length: max(1, text.value.count),
      hint: "e.g. 'qa+{id}@test.example.com' (plus-addressing) or '{id}@inbox.example.com' (a catch-all domain)")
  }

  static func badExtractionPattern(_ text: Located<String>, key: String, error: RegexSyntaxError) -> Diagnostic {
    .error(
      "'\(key)' is not a pattern authflow reads: \(error.message)", at: text.location,
      length: max(1, text.value.count), hint: "the dialect of matches() (docs/functions.md#regular-expressions)")
  }

  static func tooManyPatternGroups(_ text: Located<String>, key: String) -> Diagnostic {
    Diagnostic(
      .warning, "'\(key)' has more than one group; only the first is read", at: text.location,
      length: max(1, text.value.count), hint: "make the others non-capturing: (?:…)")
  }
}
