import Testing

@testable import AuthFlowMail

/// Clients that break the rules on purpose; after each, the server must still serve the next one.
@Suite struct HostileClientTests {
  /// A fresh client completes a whole transaction: proof the server survived.
  /// A whole transaction by the next client, pipelined in one write (the message right after
  /// `DATA`, which this receiver reads in order): on a loaded machine no gap between the `354` and
  /// the message can outlast a short `DATA` deadline of the test's.
  private func expectServes(_ server: TestServer) async throws {
    let client = try await RawSMTPClient.connect(port: server.port)
    defer { Task { await client.close() } }
    // Sent at once, before the greeting is read: a test's server may have a short idle deadline,
    // and a starved test task must not leave the connection idle past it.
    try await client.send(
      "HELO next.test\r\nMAIL FROM:<n@example.com>\r\nRCPT TO:<next@example.com>\r\nDATA\r\n"
        + "Subject: next\r\n\r\nok\r\n.\r\nQUIT\r\n")
    #expect(try await client.reply().code == 220)
    var replies: [SMTPTestReply] = []
    for _ in 0..<6 { replies.append(try await client.reply()) }
    #expect(replies.map(\.code) == [250, 250, 250, 354, 250, 221])
    #expect(replies[4].lines.first?.hasPrefix("250 2.0.0 Ok: queued as ") == true)
  }

  private func greeted(_ server: TestServer) async throws -> RawSMTPClient {
    let client = try await RawSMTPClient.connect(port: server.port)
    #expect(try await client.reply().code == 220)
    #expect(try await client.command("EHLO hostile.test").code == 250)
    return client
  }

  /// A client that writes its whole session and shuts its side (a script, `nc -N`) still gets every
  /// reply, the message stored, before the connection closes.
  @Test func aHalfClosedClientIsAnsweredToTheEnd() async throws {
    try await withTestServer { server in
      let script = """
        import socket, sys
        s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=20)
        s.sendall(b"EHLO h\\r\\nMAIL FROM:<a@example.com>\\r\\nRCPT TO:<b@example.com>\\r\\nDATA\\r\\n"
                  b"Subject: half\\r\\n\\r\\nclosed\\r\\n.\\r\\nQUIT\\r\\n")
        s.shutdown(socket.SHUT_WR)
        data = b""
        while chunk := s.recv(65536):
            data += chunk
        sys.stdout.write(data.decode())
        """
      let result = try await ExternalProcess.run(["python3", "-c", script, "\(server.port)"], timeout: .seconds(300))
      #expect(result.output.contains("250 2.0.0 Ok: queued as 1"), "\(result.output)\(result.error)")
      #expect(result.output.hasSuffix("221 2.0.0 Bye\r\n"))
      #expect(server.store.messages(to: "b@example.com").first?.subject == "half")
    }
  }

  @Test func pipelinedCommandsAreAnsweredInOrder() async throws {
    try await withTestServer { server in
      let client = try await RawSMTPClient.connect(port: server.port)
      #expect(try await client.reply().code == 220)
      try await client.send(
        "EHLO p.test\r\nMAIL FROM:<a@example.com>\r\nRCPT TO:<b@example.com>\r\nRCPT TO:<c@example.com>\r\nDATA\r\n")
      var codes: [Int] = []
      for _ in 0..<5 { codes.append(try await client.reply().code) }
      #expect(codes == [250, 250, 250, 250, 354])
      try await client.send("Subject: pipelined\r\n\r\n..leading dot\r\n.\r\nNOOP\r\nQUIT\r\n")
      #expect(try await client.reply().lines == ["250 2.0.0 Ok: queued as 1"])
      #expect(try await client.reply().code == 250)
      #expect(try await client.reply().code == 221)
      #expect(await client.waitForClose())
      let message = server.store.messages().first
      #expect(message?.text == ".leading dot\r\n")
      #expect(message?.recipients == ["b@example.com", "c@example.com"])
    }
  }

  @Test func tooManyRecipients() async throws {
    try await withTestServer(SMTPConfiguration(maxRecipients: 2)) { server in
      let client = try await greeted(server)
      #expect(try await client.command("MAIL FROM:<a@example.com>").code == 250)
      #expect(try await client.command("RCPT TO:<1@example.com>").code == 250)
      #expect(try await client.command("RCPT TO:<2@example.com>").code == 250)
      #expect(try await client.command("RCPT TO:<3@example.com>").lines == ["452 4.5.3 Too many recipients"])
      await client.close()
      try await expectServes(server)
    }
  }

  @Test func oversizedMessageBySizeParameter() async throws {
    try await withTestServer(SMTPConfiguration(maxMessageBytes: 1000)) { server in
      let client = try await greeted(server)
      let reply = try await client.command("MAIL FROM:<a@example.com> SIZE=1001")
      #expect(reply.lines == ["552 5.3.4 Message size exceeds fixed maximum message size"])
      await client.close()
      try await expectServes(server)
    }
  }

  @Test func oversizedMessageByRealBytes() async throws {
    try await withTestServer(SMTPConfiguration(maxMessageBytes: 1000)) { server in
      let client = try await greeted(server)
      #expect(try await client.command("MAIL FROM:<a@example.com>").code == 250)
      #expect(try await client.command("RCPT TO:<b@example.com>").code == 250)
      #expect(try await client.command("DATA").code == 354)
      let line = String(repeating: "x", count: 70) + "\r\n"
      try await client.send(String(repeating: line, count: 100))
      let reply = try await client.command(".")
      #expect(reply.lines == ["552 5.3.4 Message size exceeds fixed maximum message size"])
      #expect(server.store.messages().isEmpty)
      // The same session goes on.
      #expect(try await client.command("MAIL FROM:<a@example.com>").code == 250)
      await client.close()
      try await expectServes(server)
    }
  }

  @Test func overlongTextLineRefusesTheMessageOnly() async throws {
    try await withTestServer { server in
      let client = try await greeted(server)
      #expect(try await client.command("MAIL FROM:<a@example.com>").code == 250)
      #expect(try await client.command("RCPT TO:<b@example.com>").code == 250)
      #expect(try await client.command("DATA").code == 354)
      try await client.send("Subject: long\r\n\r\n" + String(repeating: "y", count: 5000) + "\r\n")
      #expect(try await client.command(".").lines == ["500 5.5.2 Line too long"])
      #expect(server.store.messages().isEmpty)
      #expect(try await client.command("NOOP").code == 250)
      await client.close()
    }
  }

  @Test func onlyCRLFDotCRLFEndsTheData() async throws {
    try await withTestServer { server in
      let client = try await greeted(server)
      #expect(try await client.command("MAIL FROM:<a@example.com>").code == 250)
      #expect(try await client.command("RCPT TO:<b@example.com>").code == 250)
      #expect(try await client.command("DATA").code == 354)
      try await client.send("Subject: smuggle\r\n\r\nbefore\n.\nMAIL FROM:<evil@example.com>\r\n")
      let reply = try await client.command(".")
      #expect(reply.lines == ["250 2.0.0 Ok: queued as 1"])
      #expect(server.store.messages().first?.text.contains("MAIL FROM:<evil@example.com>") == true)
      await client.close()
    }
  }

  @Test func endlessLineIsCutOff() async throws {
    try await withTestServer { server in
      let client = try await greeted(server)
      try await client.send(String(repeating: "A", count: 100_000))
      #expect(try await client.reply().lines == ["500 5.5.2 Line too long"])
      #expect(await client.waitForClose())
      try await expectServes(server)
    }
  }

  @Test func longLineWithEndIsRefusedAndSessionContinues() async throws {
    try await withTestServer { server in
      let client = try await greeted(server)
      #expect(
        try await client.command("NOOP " + String(repeating: "A", count: 5000)).lines == ["500 5.5.2 Line too long"])
      #expect(try await client.command("NOOP").code == 250)
      await client.close()
    }
  }

  @Test func badCommandsUntilDisconnect() async throws {
    try await withTestServer(SMTPConfiguration(maxBadCommands: 3)) { server in
      let client = try await greeted(server)
      #expect(try await client.command("FOO").code == 500)
      #expect(try await client.command("RCPT TO:<x@example.com>").code == 503)
      #expect(try await client.command("BAR").code == 500)
      #expect(try await client.reply().lines == ["421 4.7.0 Too many errors, closing connection"])
      #expect(await client.waitForClose())
      try await expectServes(server)
    }
  }

  @Test func startTLSInjectionIsDiscarded() async throws {
    let certificate = try await TestCertificate.shared.value
    let configuration = SMTPConfiguration(
      tls: SMTPConfiguration.TLS(certificateChainPath: certificate.certificatePath, privateKeyPath: certificate.keyPath)
    )
    try await withTestServer(configuration) { server in
      let client = try await greeted(server)
      try await client.send("STARTTLS\r\nMAIL FROM:<injected@example.com>\r\n")
      #expect(try await client.reply().lines == ["220 2.0.0 Ready to start TLS"])
      try await client.startTLS(caFile: certificate.certificatePath)
      // Had the injected MAIL run after the handshake, its reply would come first, and this MAIL
      // would be refused as nested.
      let ehlo = try await client.command("EHLO after.test")
      #expect(ehlo.code == 250)
      #expect(!ehlo.lines.contains("250-STARTTLS"))
      #expect(try await client.command("MAIL FROM:<a@example.com>").code == 250)
      #expect(try await client.command("QUIT").code == 221)
      await client.close()
      try await expectServes(server)
    }
  }

  @Test func idleClientTimesOut() async throws {
    // Five seconds: long enough that the next client's conversation (`expectServes`) never waits
    // that long between two commands on a machine loaded by the whole test suite, short enough
    // for a test.
    try await withTestServer(SMTPConfiguration(commandTimeout: .seconds(5))) { server in
      let started = ContinuousClock.now
      // Nothing but the greeting: the timer starts with the connection, so the test cannot race it.
      let client = try await RawSMTPClient.connect(port: server.port)
      #expect(try await client.reply().code == 220)
      #expect(try await client.reply(timeout: .seconds(300)).lines == ["421 4.4.2 Timeout, closing connection"])
      #expect(ContinuousClock.now - started >= .seconds(5))
      #expect(await client.waitForClose())
      try await expectServes(server)
    }
  }

  @Test func slowlorisDataIsClosed() async throws {
    // The whole DATA phase may take 2 s, each line of it far less than the idle deadline: a client
    // that keeps the connection busy without ever finishing is closed by the first.
    let configuration = SMTPConfiguration(commandTimeout: .seconds(600), dataTimeout: .seconds(2))
    try await withTestServer(configuration) { server in
      let client = try await greeted(server)
      try await client.send("MAIL FROM:<a@example.com>\r\nRCPT TO:<b@example.com>\r\nDATA\r\n")
      var codes: [Int] = []
      for _ in 0..<3 { codes.append(try await client.reply().code) }
      #expect(codes == [250, 250, 354])
      let started = ContinuousClock.now
      // One short line every 50 ms: each keeps the connection busy, none finishes the message.
      while ContinuousClock.now - started < .seconds(300), await !client.waitForClose(timeout: .milliseconds(50)) {
        try? await client.send("x\r\n")
      }
      #expect(await client.waitForClose(timeout: .zero))
      // Closed by the DATA deadline, well before the idle one would have.
      #expect(ContinuousClock.now - started < .seconds(300))
      #expect(server.store.messages().isEmpty)
      try await expectServes(server)
    }
  }

  @Test func connectionLimit() async throws {
    try await withTestServer(SMTPConfiguration(maxConnections: 2)) { server in
      let first = try await greeted(server)
      let second = try await greeted(server)
      let third = try await RawSMTPClient.connect(port: server.port)
      #expect(try await third.reply().lines == ["421 4.3.2 Too many connections, try again later"])
      #expect(await third.waitForClose())
      #expect(try await first.command("QUIT").code == 221)
      #expect(await first.waitForClose())
      // The slot is freed once the server has seen the close: retry within a bound.
      var served = false
      let deadline = ContinuousClock.now + .seconds(300)
      while !served, ContinuousClock.now < deadline {
        let next = try await RawSMTPClient.connect(port: server.port)
        served = try await next.reply().code == 220
        await next.close()
        if !served { try await Task.sleep(for: .milliseconds(10)) }
      }
      #expect(served)
      await second.close()
    }
  }
}
