/// One command line, parsed (RFC 5321 §4.1, RFC 3207, RFC 4954).
enum SMTPCommand: Sendable, Hashable {
  case ehlo(String)
  case helo(String)
  case mail(from: String, parameters: [String: String])
  case rcpt(to: String)
  case data
  case rset
  case noop
  case quit
  case vrfy
  case help
  case startTLS
  case auth(mechanism: String, initialResponse: String?)
  /// A known verb with bad arguments: the reply to send.
  case invalid(SMTPReply)
  case unknown

  /// Parses a line without its CRLF.
  init(parsing line: String) {
    let trimmed = line.trimmingSpace()
    let verbEnd = trimmed.firstIndex(of: " ") ?? trimmed.endIndex
    let verb = trimmed[..<verbEnd].uppercased()
    let argument = String(trimmed[verbEnd...]).trimmingSpace()
    switch verb {
    case "EHLO", "HELO":
      guard !argument.isEmpty else {
        self = .invalid(.syntax("\(verb) hostname"))
        return
      }
      self = verb == "EHLO" ? .ehlo(argument) : .helo(argument)
    case "MAIL": self = Self.path(argument, keyword: "FROM:", allowNull: true, usage: "MAIL FROM:<address>")
    case "RCPT": self = Self.path(argument, keyword: "TO:", allowNull: false, usage: "RCPT TO:<address>")
    case "DATA": self = argument.isEmpty ? .data : .invalid(.syntax("DATA"))
    case "RSET": self = argument.isEmpty ? .rset : .invalid(.syntax("RSET"))
    case "NOOP": self = .noop
    case "QUIT": self = argument.isEmpty ? .quit : .invalid(.syntax("QUIT"))
    case "VRFY": self = argument.isEmpty ? .invalid(.syntax("VRFY user")) : .vrfy
    case "HELP": self = .help
    case "STARTTLS": self = argument.isEmpty ? .startTLS : .invalid(.syntax("STARTTLS"))
    case "AUTH":
      let words = argument.split(separator: " ", omittingEmptySubsequences: true)
      guard let mechanism = words.first, words.count <= 2 else {
        self = .invalid(.syntax("AUTH mechanism [initial-response]"))
        return
      }
      self = .auth(mechanism: mechanism.uppercased(), initialResponse: words.count == 2 ? String(words[1]) : nil)
    default: self = .unknown
    }
  }

  /// `FROM:<address> PARAM=value …` or `TO:<address>`.
  private static func path(_ argument: String, keyword: String, allowNull: Bool, usage: String) -> Self {
    guard argument.uppercased().hasPrefix(keyword) else { return .invalid(.syntax(usage)) }
    let rest = argument.dropFirst(keyword.count).drop { $0 == " " }
    guard rest.first == "<", let close = rest.firstIndex(of: ">") else { return .invalid(.syntax(usage)) }
    var address = String(rest[rest.index(after: rest.startIndex)..<close])
    // A source route (`@a,@b:user@c`) is accepted and ignored (RFC 5321 §4.1.2).
    if address.hasPrefix("@"), let colon = address.firstIndex(of: ":") {
      address = String(address[address.index(after: colon)...])
    }
    guard isValidAddress(address, allowNull: allowNull) else { return .invalid(.badAddress(address)) }
    var parameters: [String: String] = [:]
    for word in rest[rest.index(after: close)...].split(separator: " ") {
      let pieces = word.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      parameters[pieces[0].uppercased()] = pieces.count == 2 ? String(pieces[1]) : ""
    }
    if keyword == "FROM:" { return .mail(from: address, parameters: parameters) }
    guard parameters.isEmpty else { return .invalid(.unsupportedParameter(parameters.keys.min() ?? "")) }
    return .rcpt(to: address)
  }

  private static func isValidAddress(_ address: String, allowNull: Bool) -> Bool {
    if address.isEmpty { return allowNull }
    guard address.utf8.count <= 320 else { return false }
    let forbidden: Set<Unicode.Scalar> = [" ", "<", ">", "\t", "\\", ","]
    return !address.unicodeScalars.contains { $0.value < 32 || $0.value == 127 || forbidden.contains($0) }
  }
}
