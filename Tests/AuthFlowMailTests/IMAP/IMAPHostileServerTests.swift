import Testing

@testable import AuthFlowMail

#if canImport(Glibc)
  import Glibc
#endif

/// The client against servers that hang, flood, lie or hang up: always an `IMAPError`, in time.
@Suite(.timeLimit(.minutes(10))) struct IMAPHostileServerTests {
  private static let password = "hostile-Secret-Pw"

  private func configuration(
    _ port: Int, security: IMAPConfiguration.Security = .plain, timeout: Duration = .seconds(300)
  ) -> IMAPConfiguration {
    // Deadlines far past what a healthy exchange takes: they end a wait only in the tests that
    // expect a timeout (which set a short one); on a loaded machine a short one would turn every
    // other answer into a timeout.
    IMAPConfiguration(
      host: "127.0.0.1", port: port, security: security, user: "qa", password: Self.password,
      connectTimeout: .seconds(300), commandTimeout: timeout,
      limits: .init(maxLineBytes: 64 * 1024, maxLiteralBytes: 1024 * 1024, maxBufferedBytes: 4 * 1024 * 1024))
  }

  /// Runs the whole convenience against `script`, returns the error it threw.
  private func failure(
    security: IMAPConfiguration.Security = .plain, timeout: Duration = .seconds(300),
    _ script: @escaping @Sendable (inout FakeIMAPPeer) async throws -> Void
  ) async throws -> (IMAPError?, String) {
    try await FakeIMAPServer.with(script) { port, received in
      let clock = ContinuousClock()
      let start = clock.now
      var caught: IMAPError?
      do throws(IMAPError) {
        _ = try await IMAPClient.messages(
          to: "qa@x", since: nil, configuration: configuration(port, security: security, timeout: timeout))
      } catch {
        caught = error
      }
      // A hang detector (the suite's time limit is the other): every failure here ends by itself.
      #expect(clock.now - start < .seconds(timeout == .seconds(300) ? 400 : 300))
      return (caught, await received.text)
    }
  }

  @Test func serverThatNeverGreetsTimesOut() async throws {
    let (error, _) = try await failure(timeout: .milliseconds(500)) { peer in try await peer.drain() }
    #expect(error?.kind == .timeout)
    #expect(error?.message.contains("greeting") == true)
  }

  @Test func endlessLineWithoutCRLFExceedsTheLimit() async throws {
    let (error, _) = try await failure { peer in
      try await peer.send("* OK ")
      let chunk = String(repeating: "a", count: 16 * 1024)
      for _ in 0..<256 { try await peer.send(chunk) }
    }
    #expect(error?.kind == .limitExceeded)
  }

  @Test func hugeLiteralExceedsTheLimitBeforeItsBytes() async throws {
    let (error, _) = try await failure { peer in
      try await peer.serve(greeting: "* OK [CAPABILITY IMAP4rev1] hi") { tag, command in
        switch command {
        case let text where text.hasPrefix("UID SEARCH"): "* SEARCH 1\r\n\(tag) OK done\r\n"
        case let text where text.hasPrefix("UID FETCH"): "* 1 FETCH (UID 1 BODY[] {999999999}\r\n"
        default: "\(tag) OK done\r\n"
        }
      }
    }
    #expect(error?.kind == .limitExceeded)
    #expect(error?.message.contains("999999999") == true)
  }

  @Test func droppedConnectionMidLiteralIsClosed() async throws {
    let (error, _) = try await failure { peer in
      try await peer.serve(greeting: "* OK [CAPABILITY IMAP4rev1] hi") { tag, command in
        switch command {
        case let text where text.hasPrefix("UID SEARCH"): "* SEARCH 1\r\n\(tag) OK done\r\n"
        case let text where text.hasPrefix("UID FETCH"): nil
        default: "\(tag) OK done\r\n"
        }
      }
      try await peer.send("* 1 FETCH (UID 1 BODY[] {100}\r\nonly a part")
    }
    #expect(error?.kind == .closed)
  }

  @Test func badToEverythingIsAProtocolError() async throws {
    let (error, received) = try await failure { peer in
      try await peer.serve(greeting: "* OK [CAPABILITY IMAP4rev1] hi") { tag, _ in "\(tag) BAD no idea\r\n" }
    }
    #expect(error?.kind == .protocolError)
    #expect(error?.command == "LOGIN")
    #expect(error?.serverText == "no idea")
    #expect(received.contains("A0001 LOGIN \"qa\" \"\(Self.password)\""))
  }

  @Test func garbageGreetingIsAProtocolError() async throws {
    let (error, _) = try await failure { peer in
      try await peer.send("HTTP/1.1 400 Bad Request\r\n\r\n")
      try await peer.drain()
    }
    #expect(error?.kind == .protocolError)
  }

  @Test func passwordEchoedByTheServerIsRedacted() async throws {
    let (error, _) = try await failure { peer in
      try await peer.serve(greeting: "* OK [CAPABILITY IMAP4rev1] hi") { tag, command in
        "\(tag) NO you said \(command)\r\n"
      }
    }
    #expect(error?.kind == .authenticationFailed)
    #expect(error.map { "\($0) \($0.serverText ?? "")".contains(Self.password) } == false)
  }

  /// The server answers STARTTLS with `OK` and a forged `* OK [CAPABILITY …]` and tagged `OK` in
  /// the same packet, then speaks plaintext. The client must drop the forged lines, attempt TLS,
  /// fail with `tlsFailed`, and never send the credentials.
  @Test func startTLSInjectionIsDiscardedAndNoCredentialsLeak() async throws {
    let (error, received) = try await failure(security: .startTLS) { peer in
      try await peer.send("* OK [CAPABILITY IMAP4rev1 STARTTLS] hi\r\n")
      while let line = try await peer.readLine() {
        let tag = line.prefix { $0 != " " }
        if line.uppercased().hasSuffix("STARTTLS") {
          try await peer.send(
            "\(tag) OK begin TLS\r\n* OK [CAPABILITY IMAP4rev1 AUTH=PLAIN SASL-IR] injected\r\nA0003 OK injected\r\n")
          break
        }
        try await peer.send("* CAPABILITY IMAP4rev1 STARTTLS AUTH=PLAIN SASL-IR\r\n\(tag) OK done\r\n")
      }
      // The TLS ClientHello arrives: answer it in plaintext.
      _ = try await peer.readChunk()
      try await peer.send("* OK this is not TLS\r\nA0003 OK [CAPABILITY IMAP4rev1 AUTH=PLAIN] still not TLS\r\n")
      try await peer.drain()
    }
    #expect(error?.kind == .tlsFailed)
    #expect(!received.contains("AUTHENTICATE"))
    #expect(!received.contains("LOGIN"))
    #expect(!received.contains(Self.password))
  }

  @Test func startTLSNotOfferedRefusesToGoOn() async throws {
    let (error, received) = try await failure(security: .startTLS) { peer in
      try await peer.serve(greeting: "* OK hi") { tag, _ in "* CAPABILITY IMAP4rev1 AUTH=PLAIN\r\n\(tag) OK done\r\n" }
    }
    #expect(error?.kind == .tlsFailed)
    #expect(!received.contains(Self.password))
  }

  @Test func implicitTLSAgainstPlaintextServerFailsTLS() async throws {
    let (error, _) = try await failure(security: .implicitTLS) { peer in
      try await peer.send("* OK [CAPABILITY IMAP4rev1] plaintext\r\n")
      try await peer.drain()
    }
    #expect(error?.kind == .tlsFailed)
  }

  @Test func loginDisabledWithoutAuthPlainIsAnAuthenticationFailure() async throws {
    let (error, received) = try await failure { peer in
      try await peer.serve(greeting: "* OK [CAPABILITY IMAP4rev1 LOGINDISABLED] hi") { tag, _ in "\(tag) OK\r\n" }
    }
    #expect(error?.kind == .authenticationFailed)
    #expect(!received.contains(Self.password))
  }

  @Test func nothingListeningIsConnectionFailed() async throws {
    // A port bound and never listened on: refused, and no other test's server can take it
    // meanwhile (closing a listener and reusing its port races the tests running beside).
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { Glibc.close(socket) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        Glibc.bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0
      }
    }
    try #require(bound)
    let port = Int(UInt16(bigEndian: address.sin_port))
    let client = IMAPClient(configuration: configuration(port))
    do {
      try await client.connect()
      Issue.record("connected to a closed port")
    } catch {
      #expect(error.kind == .connectionFailed)
    }
  }
}

extension IMAPHostileServerTests {
  @Test func cancellingAWaitClosesTheConnectionAtOnce() async throws {
    try await FakeIMAPServer.with({ peer in try await peer.drain() }) { port, _ in
      var slow = configuration(port)
      slow.commandTimeout = .seconds(600)
      let client = IMAPClient(configuration: slow)
      let clock = ContinuousClock()
      let start = clock.now
      let connecting = Task { try await client.connect() }
      try await Task.sleep(for: .milliseconds(100))
      connecting.cancel()
      let result = await connecting.result
      // Well before the 10-minute deadline: the cancellation, not the deadline, ended the wait.
      #expect(clock.now - start < .seconds(300))
      guard case .failure(let error) = result else {
        Issue.record("connected to a server that never greets")
        return
      }
      #expect((error as? IMAPError)?.kind == .closed)
      #expect((error as? IMAPError)?.message.contains("cancelled") == true)
    }
  }
}
