/// The protocol state of one connection, without I/O: a command line in, replies and an action out.
///
/// ``SMTPServerHandler`` does the framing, the `DATA` bytes, TLS and timers; everything RFC 5321
/// says about command order, limits and authentication is decided here.
struct SMTPSession: Sendable {
  /// What the connection must do after sending the replies.
  enum Action: Sendable, Hashable {
    case none
    case close
    case startTLS
    case beginData
  }

  /// The replies to a line and the action that follows them.
  struct Outcome: Sendable, Hashable {
    var replies: [SMTPReply]
    var action: Action = .none
  }

  /// The envelope of the transaction in progress.
  struct Envelope: Sendable, Hashable {
    var from: String
    var recipients: [String] = []
  }

  /// What the next line is: a command, or a response to an `AUTH` challenge.
  enum Phase: Sendable, Hashable {
    case command
    case authPlain
    case authLoginUser
    case authLoginPassword(user: [UInt8])
  }

  let configuration: SMTPConfiguration
  private(set) var isTLS = false
  private(set) var clientName: String?
  private(set) var isAuthenticated = false
  private(set) var envelope: Envelope?
  var phase = Phase.command
  private(set) var badCommands = 0

  init(configuration: SMTPConfiguration) {
    self.configuration = configuration
  }

  /// Whether `STARTTLS` is offered now.
  var canStartTLS: Bool { configuration.tls != nil && !isTLS }

  /// Whether `AUTH` is offered now: credentials exist and the channel is encrypted, unless
  /// plaintext authentication is allowed.
  var canAuthenticate: Bool {
    configuration.credentials != nil && (isTLS || configuration.allowPlaintextAuth)
  }

  /// Handles one line (without its CRLF).
  mutating func handle(line: String) -> Outcome {
    var outcome: Outcome
    switch phase {
    case .command: outcome = handle(command: SMTPCommand(parsing: line))
    case .authPlain, .authLoginUser, .authLoginPassword: outcome = handle(authResponse: line)
    }
    return counted(outcome)
  }

  /// Counts a rejection that happened outside ``handle(line:)`` (an over-long line).
  mutating func reject(_ reply: SMTPReply) -> Outcome {
    counted(Outcome(replies: [reply]))
  }

  /// The session after a successful TLS upgrade: everything learnt before is forgotten (RFC 3207 §4.2).
  mutating func didStartTLS() {
    isTLS = true
    clientName = nil
    isAuthenticated = false
    envelope = nil
    phase = .command
  }

  mutating func setAuthenticated() {
    isAuthenticated = true
  }

  /// Ends the transaction once its `DATA` has been read, whatever became of it.
  mutating func didFinishData() {
    envelope = nil
  }

  private mutating func counted(_ outcome: Outcome) -> Outcome {
    guard outcome.replies.contains(where: \.isCommandError) else { return outcome }
    badCommands += 1
    guard badCommands >= configuration.maxBadCommands else { return outcome }
    return Outcome(replies: outcome.replies + [.tooManyErrors], action: .close)
  }

  private mutating func handle(command: SMTPCommand) -> Outcome {
    switch command {
    case .ehlo(let name):
      clientName = name
      envelope = nil
      return Outcome(replies: [.ehlo(hostname: configuration.hostname, client: name, extensions: extensions)])
    case .helo(let name):
      clientName = name
      envelope = nil
      return Outcome(replies: [.helo(hostname: configuration.hostname)])
    case .mail(let from, let parameters): return mail(from: from, parameters: parameters)
    case .rcpt(let to): return rcpt(to: to)
    case .data:
      guard let envelope, !envelope.recipients.isEmpty else {
        return Outcome(replies: [.badSequence("need RCPT command")])
      }
      return Outcome(replies: [.startData], action: .beginData)
    case .rset:
      envelope = nil
      return Outcome(replies: [.ok])
    case .noop: return Outcome(replies: [.ok])
    case .quit: return Outcome(replies: [.bye], action: .close)
    case .vrfy: return Outcome(replies: [.cannotVerify])
    case .help: return Outcome(replies: [.help])
    case .startTLS:
      guard canStartTLS else {
        return Outcome(replies: [isTLS ? .badSequence("TLS already active") : .tlsNotAvailable])
      }
      return Outcome(replies: [.readyToStartTLS], action: .startTLS)
    case .auth(let mechanism, let initialResponse): return auth(mechanism: mechanism, initialResponse: initialResponse)
    case .invalid(let reply): return Outcome(replies: [reply])
    case .unknown: return Outcome(replies: [.unknownCommand])
    }
  }

  private var extensions: [String] {
    var result = ["SIZE \(configuration.maxMessageBytes)", "8BITMIME", "PIPELINING", "ENHANCEDSTATUSCODES", "SMTPUTF8"]
    if canStartTLS { result.append("STARTTLS") }
    if canAuthenticate { result.append("AUTH PLAIN LOGIN") }
    result.append("HELP")
    return result
  }

  private mutating func mail(from: String, parameters: [String: String]) -> Outcome {
    guard clientName != nil else { return Outcome(replies: [.badSequence("send EHLO or HELO first")]) }
    guard envelope == nil else { return Outcome(replies: [.badSequence("nested MAIL command")]) }
    if configuration.requireTLS, !isTLS { return Outcome(replies: [.mustStartTLS]) }
    if configuration.credentials != nil, !isAuthenticated { return Outcome(replies: [.authRequired]) }
    for (name, value) in parameters.sorted(by: { $0.key < $1.key }) {
      switch name {
      case "SIZE":
        guard let size = Int(value), size >= 0 else { return Outcome(replies: [.syntax("SIZE=<bytes>")]) }
        if size > configuration.maxMessageBytes { return Outcome(replies: [.messageTooBig]) }
      case "BODY":
        guard ["7BIT", "8BITMIME", "BINARYMIME"].contains(value.uppercased()) else {
          return Outcome(replies: [.syntax("BODY=7BIT|8BITMIME")])
        }
      case "SMTPUTF8", "AUTH", "RET", "ENVID": break
      default: return Outcome(replies: [.unsupportedParameter(name)])
      }
    }
    envelope = Envelope(from: from)
    return Outcome(replies: [.senderOK])
  }

  private mutating func rcpt(to: String) -> Outcome {
    guard var current = envelope else { return Outcome(replies: [.badSequence("need MAIL command")]) }
    guard current.recipients.count < configuration.maxRecipients else {
      return Outcome(replies: [.tooManyRecipients])
    }
    current.recipients.append(to)
    envelope = current
    return Outcome(replies: [.recipientOK])
  }
}
