import Testing

@testable import AuthFlowMail

@Suite struct SMTPReceiverStartTests {
  @Test func missingCertificateIsReported() async {
    let receiver = SMTPReceiver(
      configuration: SMTPConfiguration(
        tls: SMTPConfiguration.TLS(
          certificateChainPath: "/nonexistent/cert.pem", privateKeyPath: "/nonexistent/key.pem")
      ), store: MessageStore())
    let error = await #expect(throws: SMTPReceiverError.self) { try await receiver.start() }
    #expect(error?.kind == .tlsConfiguration)
    #expect(error?.subject == "/nonexistent/cert.pem")
  }

  @Test func requireTLSNeedsACertificate() async {
    let receiver = SMTPReceiver(configuration: SMTPConfiguration(requireTLS: true), store: MessageStore())
    let error = await #expect(throws: SMTPReceiverError.self) { try await receiver.start() }
    #expect(error?.kind == .requireTLSWithoutCertificate)
  }

  @Test func startsOnceAndStopsIdempotently() async throws {
    let receiver = SMTPReceiver(configuration: SMTPConfiguration(), store: MessageStore())
    let port = try await receiver.start()
    #expect(port > 0)
    let error = await #expect(throws: SMTPReceiverError.self) { try await receiver.start() }
    #expect(error?.kind == .alreadyStarted)
    await receiver.stop()
    await receiver.stop()
  }
}
