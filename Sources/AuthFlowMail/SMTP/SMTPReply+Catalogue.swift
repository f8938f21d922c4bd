/// Every reply the receiver sends, with its enhanced status code (RFC 3463).
extension SMTPReply {
  static func greeting(hostname: String) -> Self { Self(220, "\(hostname) ESMTP authflow") }
  static func ehlo(hostname: String, client: String, extensions: [String]) -> Self {
    Self(code: 250, lines: ["\(hostname) greets \(client)"] + extensions)
  }
  static func helo(hostname: String) -> Self { Self(250, hostname) }
  static let ok = Self(250, "2.0.0 Ok")
  static let senderOK = Self(250, "2.1.0 Ok")
  static let recipientOK = Self(250, "2.1.5 Ok")
  static func queued(id: Int) -> Self { Self(250, "2.0.0 Ok: queued as \(id)") }
  static let startData = Self(354, "End data with <CR><LF>.<CR><LF>")
  static let bye = Self(221, "2.0.0 Bye")
  static let cannotVerify = Self(252, "2.5.0 Cannot VRFY user, but will accept message and attempt delivery")
  static let help = Self(214, "2.0.0 Commands: EHLO HELO MAIL RCPT DATA RSET NOOP QUIT VRFY HELP STARTTLS AUTH")
  static let readyToStartTLS = Self(220, "2.0.0 Ready to start TLS")
  static let authenticated = Self(235, "2.7.0 Authentication successful")
  static func challenge(_ base64: String) -> Self { Self(334, base64) }

  static let unknownCommand = Self(500, "5.5.1 Command unrecognized")
  static let lineTooLong = Self(500, "5.5.2 Line too long")
  static func syntax(_ usage: String) -> Self { Self(501, "5.5.4 Syntax: \(usage)") }
  static func badAddress(_ address: String) -> Self { Self(501, "5.1.3 Bad address syntax: <\(address)>") }
  static let badBase64 = Self(501, "5.5.2 Cannot decode response")
  static let authCancelled = Self(501, "5.0.0 Authentication cancelled")
  static let notImplemented = Self(502, "5.5.1 Command not implemented")
  static func badSequence(_ reason: String) -> Self { Self(503, "5.5.1 Bad sequence of commands: \(reason)") }
  static let unknownMechanism = Self(504, "5.5.4 Unrecognized authentication type")
  static let mustStartTLS = Self(530, "5.7.0 Must issue a STARTTLS command first")
  static let authRequired = Self(530, "5.7.0 Authentication required")
  static let authInvalid = Self(535, "5.7.8 Authentication credentials invalid")
  static let encryptionRequired = Self(538, "5.7.11 Encryption required for requested authentication mechanism")
  static let messageTooBig = Self(552, "5.3.4 Message size exceeds fixed maximum message size")
  static func unsupportedParameter(_ name: String) -> Self { Self(555, "5.5.4 Unsupported parameter \(name)") }
  static let tlsNotAvailable = Self(454, "4.7.0 TLS not available")
  static let tooManyRecipients = Self(452, "4.5.3 Too many recipients")
  static let tooManyConnections = Self(421, "4.3.2 Too many connections, try again later")
  static let tooManyErrors = Self(421, "4.7.0 Too many errors, closing connection")
  static let timeout = Self(421, "4.4.2 Timeout, closing connection")
}
