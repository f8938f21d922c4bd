@testable import AuthFlowMail

/// A receiver on an ephemeral loopback port with its own store, stopped by `withTestServer`.
struct TestServer: Sendable {
  let receiver: SMTPReceiver
  let port: Int
  var store: MessageStore { receiver.store }
}

/// Runs `body` against a started receiver, and stops it afterwards whatever happens.
func withTestServer<T: Sendable>(
  _ configuration: SMTPConfiguration = SMTPConfiguration(), _ body: (TestServer) async throws -> T
) async throws -> T {
  // The library's idle and DATA deadlines (60 s, 120 s) become ten minutes unless the test set its
  // own: on a loaded two-core machine the whole suite can keep a test's task from running for
  // more than a minute, and the server must not time the client out meanwhile.
  var configuration = configuration
  if configuration.commandTimeout == SMTPConfiguration().commandTimeout { configuration.commandTimeout = .seconds(600) }
  if configuration.dataTimeout == SMTPConfiguration().dataTimeout { configuration.dataTimeout = .seconds(600) }
  let receiver = SMTPReceiver(configuration: configuration, store: MessageStore())
  let port = try await receiver.start()
  do {
    let result = try await body(TestServer(receiver: receiver, port: port))
    await receiver.stop()
    return result
  } catch {
    await receiver.stop()
    throw error
  }
}
