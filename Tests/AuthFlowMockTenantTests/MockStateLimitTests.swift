import AuthFlowCore
import Foundation
import HummingbirdTesting
import Synchronization
import Testing

@testable import AuthFlowMockTenant

/// Per-login state is purged when it expires and capped, so the mock's memory stays flat under
/// sustained load (asserted on the stores' counts, not on RSS).
@Suite struct MockStateLimitTests {
  static let verifier = AuthorizeParameters().verifier

  static func tenant(_ limits: MockStateLimits) throws -> MockTenant {
    try MockTenant(
      fixture: MockHarness.fixture, baseURL: MockHarness.baseURL, signingKey: MockHarness.key,
      clock: VirtualClock(base: { Date(timeIntervalSince1970: 1_750_000_000) }), limits: limits)
  }

  /// One whole login: `/authorize`, the login form, the code exchange (a refresh token too).
  static func login(_ client: any TestClientProtocol) async throws {
    var browser = Browser(client)
    let callback = try await browser.login(email: "alice@example.com", password: "Alice-Passw0rd!")
    let code = try #require(items(of: callback)["code"])
    let exchanged = try await client.postJSON(
      "/oauth/token",
      [
        "grant_type": .string("authorization_code"), "client_id": .string("native-client-id"),
        "code": .string(code), "code_verifier": .string(verifier),
        "redirect_uri": .string(MockHarness.nativeCallback),
      ])
    #expect(exchanged.status == .ok)
  }

  @Test func storesStayWithinTheirCapUnderALoginLoop() async throws {
    var limits = MockStateLimits()
    limits.maxEntriesPerStore = 50
    limits.purgeInterval = 16
    let tenant = try Self.tenant(limits)
    let clock = ContinuousClock()
    let started = clock.now
    try await MockHarness.test(tenant) { client in
      // Bounded in count and in time.
      // Twelve times the cap: enough to show the stores stop growing, cheap enough for 2 cores.
      for index in 0..<600 where clock.now - started < .seconds(240) {
        // A new rate-limit window (1,000 requests a minute per path) every 500 logins.
        if index % 500 == 499 { tenant.clock.advance(by: 61) }
        try await Self.login(client)
      }
    }
    let counts = await tenant.stateCounts()
    for (store, count) in counts {
      #expect(count <= 50, "\(store) holds \(count)")
    }
    #expect(counts["sessions"] ?? 0 > 0)
    #expect(counts["refresh_token_families"] ?? 0 > 0)
  }

  @Test func expiredStateIsPurged() async throws {
    var limits = MockStateLimits()
    limits.purgeInterval = 8
    let tenant = try Self.tenant(limits)
    try await MockHarness.test(tenant) { client in
      for _ in 0..<40 { try await Self.login(client) }
      let before = await tenant.stateCounts()
      #expect(before["sessions"] == 40)
      #expect(before["refresh_token_families"] == 40)
      // Past every lifetime (refresh tokens: 30 days) and the grace.
      tenant.clock.advance(by: 40 * 86_400)
      for _ in 0..<8 { try await Self.login(client) }
    }
    let after = await tenant.stateCounts()
    for store in ["transactions", "redeemed_codes", "sessions", "refresh_token_families", "refresh_tokens"] {
      #expect((after[store] ?? 0) <= 8, "\(store) holds \(after[store] ?? 0)")
    }
  }

  @Test func theOutboxKeepsTheLatestMessages() async throws {
    var limits = MockStateLimits()
    limits.maxOutboxMessages = 3
    var outbox = Outbox(limits: limits)
    for index in 0..<10 {
      outbox.send(channel: .email, to: "a@example.com", subject: "s", body: "\(index)", at: 0)
    }
    let messages = outbox.list()
    #expect(messages.map(\.body) == ["7", "8", "9"])
    #expect(messages.map(\.id) == [8, 9, 10])
  }
}

/// RSS per login with and without the limits: a measurement, not a check (RSS is noisy). Run with
/// `AUTHFLOW_MEASURE_MOCK_RSS=1 swift test --filter MockMemoryMeasurement`.
@Suite struct MockMemoryMeasurement {
  static func residentBytes() -> Int {
    guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let fields = statm.split(separator: " ")
    return fields.count > 1 ? (Int(fields[1]) ?? 0) * 4096 : 0
  }

  @Test(
    .enabled(
      if: ProcessInfo.processInfo.environment["AUTHFLOW_MEASURE_MOCK_RSS"] != nil,
      "a measurement, not a check: set AUTHFLOW_MEASURE_MOCK_RSS=1 to print the mock's resident memory per login"))
  func residentMemoryPerLogin() async throws {
    var unbounded = MockStateLimits()
    unbounded.maxEntriesPerStore = .max
    unbounded.purgeInterval = .max
    unbounded.maxOutboxMessages = .max
    var bounded = MockStateLimits()
    bounded.maxEntriesPerStore = 1_000
    for (label, limits) in [("unbounded (before)", unbounded), ("bounded (after)", bounded)] {
      let tenant = try MockStateLimitTests.tenant(limits)
      let measured = 3_000
      let baseline = Mutex(0)
      try await MockHarness.test(tenant) { client in
        // Warm up past the cap, so that the measured logins are the steady state.
        for _ in 0..<1_500 { try await MockStateLimitTests.login(client) }
        baseline.withLock { $0 = Self.residentBytes() }
        for index in 0..<measured {
          if index % 500 == 499 { tenant.clock.advance(by: 61) }
          try await MockStateLimitTests.login(client)
        }
      }
      let after = Self.residentBytes()
      let before = baseline.withLock { $0 }
      let counts = await tenant.stateCounts()
      if limits.maxEntriesPerStore == bounded.maxEntriesPerStore {
        for store in ["sessions", "refresh_token_families"] {
          #expect((counts[store] ?? 0) <= bounded.maxEntriesPerStore, "\(store) outgrew its cap")
        }
      }
      print(
        "mock RSS \(label): \(before / 1024) KiB → \(after / 1024) KiB over \(measured) logins = "
          + "\((after - before) / measured) bytes/login; sessions \(counts["sessions"] ?? 0), "
          + "refresh families \(counts["refresh_token_families"] ?? 0)")
    }
  }
}
