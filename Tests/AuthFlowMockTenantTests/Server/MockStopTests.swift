import AuthFlowJOSE
import Foundation
import Synchronization
import Testing

@testable import AuthFlowMockTenant

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Stopping the mock while clients are still connecting (a signal stops a run whose scenarios are
/// mid-request): the server shuts down gracefully, so a connection accepted in that instant is
/// closed, not dropped unfinished. Stopped by cancelling its task instead, NIO traps on such a
/// connection ("Deinited NIOAsyncWriter without calling finish()"), which fuzz/run found; this
/// test then crashes within a few rounds (of ten).
@Suite struct MockStopTests {
  /// A TCP connection to 127.0.0.1:`port` (the descriptor, to close), or nil when refused.
  static func connection(to port: Int) -> Int32? {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { return nil }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else {
      close(descriptor)
      return nil
    }
    return descriptor
  }

  /// Connects, sends the start of a request, and closes.
  static func poke(port: Int) {
    guard let descriptor = connection(to: port) else { return }
    let head = "GET /.well-known/openid-configuration HTTP/1.1\r\nHost: 127.0.0.1\r\n"
    _ = head.withCString { send(descriptor, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
    close(descriptor)
  }

  @Test func stoppingWhileClientsConnectEndsCleanly() async throws {
    for _ in 0..<10 {
      let handle = try await MockTenantServer.start(fixture: MockHarness.fixture, signingKey: MockHarness.key)
      let port = try #require(URLComponents(string: handle.baseURL)?.port)
      let storming = Atomic(true)
      // Two threads keep connecting until the server is gone (bounded: at most 2,000 each).
      let threads = (0..<2).map { _ in
        Thread {
          for _ in 0..<2_000 where storming.load(ordering: .relaxed) { Self.poke(port: port) }
        }
      }
      threads.forEach { $0.start() }
      try await Task.sleep(for: .milliseconds(20))
      await handle.stop()
      storming.store(false, ordering: .relaxed)
      // `stop()` returned: the server finished (its task is done). Whether the port is refused now
      // is not asserted: another test's server may bind it at once.
    }
  }

  /// A start asked for by a task that is already cancelled (a run stopped while it binds its
  /// tenants) returns at once with the cancellation, and leaves no server running; before, the
  /// wait for the port ended but the wait for the server did not, and the start never returned.
  @Test func aStartInACancelledTaskEndsAndStopsItsServer() async throws {
    let fixture = try #require(FixtureLoader.loadDefault().fixture)
    let started = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      return try await MockTenantServer.start(fixture: fixture, signingKey: try SigningKey.generateRSA())
    }
    let outcome = await started.result
    switch outcome {
    case .success(let handle):
      // The server bound before the cancellation was seen: a handle the caller stops.
      await handle.stop()
    case .failure(let error):
      #expect(error is CancellationError)
    }
  }
}
