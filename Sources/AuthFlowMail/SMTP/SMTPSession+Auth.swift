/// `AUTH PLAIN` (RFC 4616) and `AUTH LOGIN`, checked in constant time against the configured
/// credentials.
extension SMTPSession {
  static let usernameChallenge = TransferEncoding.encodeBase64(Array("Username:".utf8))
  static let passwordChallenge = TransferEncoding.encodeBase64(Array("Password:".utf8))

  mutating func auth(mechanism: String, initialResponse: String?) -> Outcome {
    guard configuration.credentials != nil else { return Outcome(replies: [.notImplemented]) }
    guard canAuthenticate else { return Outcome(replies: [.encryptionRequired]) }
    guard clientName != nil else { return Outcome(replies: [.badSequence("send EHLO first")]) }
    guard !isAuthenticated else { return Outcome(replies: [.badSequence("already authenticated")]) }
    guard envelope == nil else { return Outcome(replies: [.badSequence("mail transaction in progress")]) }
    switch mechanism {
    case "PLAIN":
      guard let initialResponse else {
        phase = .authPlain
        return Outcome(replies: [.challenge("")])
      }
      return plain(initialResponse)
    case "LOGIN":
      guard let initialResponse else {
        phase = .authLoginUser
        return Outcome(replies: [.challenge(Self.usernameChallenge)])
      }
      return loginUser(initialResponse)
    default:
      return Outcome(replies: [.unknownMechanism])
    }
  }

  mutating func handle(authResponse line: String) -> Outcome {
    let response = line.trimmingSpace()
    let current = phase
    phase = .command
    if response == "*" { return Outcome(replies: [.authCancelled]) }
    switch current {
    case .authPlain: return plain(response)
    case .authLoginUser: return loginUser(response)
    case .authLoginPassword(let user):
      guard let password = Self.decode(response) else { return Outcome(replies: [.badBase64]) }
      return verify(user: user, password: password)
    case .command: return Outcome(replies: [.unknownCommand])
    }
  }

  private mutating func plain(_ response: String) -> Outcome {
    // `=` is an empty initial response (RFC 4954 §4).
    guard let decoded = response == "=" ? [] : Self.decode(response) else { return Outcome(replies: [.badBase64]) }
    let fields = decoded.split(separator: 0, maxSplits: 2, omittingEmptySubsequences: false)
    guard fields.count == 3 else { return Outcome(replies: [.badBase64]) }
    return verify(user: Array(fields[1]), password: Array(fields[2]))
  }

  private mutating func loginUser(_ response: String) -> Outcome {
    guard let user = Self.decode(response) else { return Outcome(replies: [.badBase64]) }
    phase = .authLoginPassword(user: user)
    return Outcome(replies: [.challenge(Self.passwordChallenge)])
  }

  private mutating func verify(user: [UInt8], password: [UInt8]) -> Outcome {
    guard let credentials = configuration.credentials else { return Outcome(replies: [.authInvalid]) }
    let userMatches = Self.constantTimeEquals(user, Array(credentials.user.utf8))
    let passwordMatches = Self.constantTimeEquals(password, Array(credentials.password.utf8))
    guard userMatches && passwordMatches else { return Outcome(replies: [.authInvalid]) }
    setAuthenticated()
    return Outcome(replies: [.authenticated])
  }

  private static func decode(_ response: String) -> [UInt8]? {
    TransferEncoding.decodeBase64Strict(response)
  }

  /// Whether two byte strings are equal, in time that depends only on their lengths.
  static func constantTimeEquals(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
    var difference: UInt8 = lhs.count == rhs.count ? 0 : 1
    for index in 0..<max(lhs.count, rhs.count) {
      let left = index < lhs.count ? lhs[index] : 0
      let right = index < rhs.count ? rhs[index] : 0
      difference |= left ^ right
    }
    return difference == 0
  }
}
