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
