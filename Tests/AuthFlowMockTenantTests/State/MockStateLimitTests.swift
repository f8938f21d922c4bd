import AuthFlowCore
import Foundation
import Hummingbird
import HummingbirdTesting
import Synchronization
import Testing

@testable import AuthFlowMockTenant

/// Per-login state is purged when it expires and capped, so the mock's memory stays flat under
/// sustained load (asserted on the stores' counts, not on RSS).
@Suite struct MockStateLimitTests {
  static let verifier = AuthorizeParameters().verifier

  static func tenant(_ limits: MockStateLimits, carol: Bool = false) throws -> MockTenant {
    var fixture = MockHarness.fixture
    if carol {
      // A user with only a recovery code, who may associate factors again and again.
      fixture.users["carol"] = UserRecord(
        profile: "carol", userID: "auth0|carol0004", email: "carol@example.com", password: "Carol-Passw0rd!",
        mfa: [MFAEnrollment(kind: .recoveryCode, secret: "CAROLRECOVERYCODE2345678A")])
    }
    return try MockTenant(
      fixture: fixture, baseURL: MockHarness.baseURL, signingKey: MockHarness.key,
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

  /// A full store keeps exactly the entries that expire last, ties at the cut included, and a
  /// purge drops exactly what it picks; both in place.
  @Test func trimmingKeepsTheLatestEntriesInPlace() {
    var store: [String: Double] = [:]
    for index in 0..<100 { store["k\(index)"] = Double(index / 2) }  // ranks 0…49, two entries each
    store.keepLargest(31) { $0 }
    #expect(store.count == 31)
    #expect(store.values.allSatisfy { $0 >= 34 })
    #expect(store.values.filter { $0 == 34 }.count == 1)  // one of the two tied at the cut
    store.keepLargest(40) { $0 }
    #expect(store.count == 31)
    store.removeEntries { $0 < 45 }
    #expect(Set(store.keys) == Set((90..<100).map { "k\($0)" }))
    store.keepLargest(0) { $0 }
    #expect(store.isEmpty)
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

  /// The stores of MFA (OOB challenges, pending OTP associations), CIBA requests and device codes
  /// are bounded like the others: under a loop of each, every one stays within the cap; and once
  /// everything has expired (past the grace), new requests purge what is left.
  @Test func mfaCIBAAndDeviceStoresStayWithinTheirCapAndArePurged() async throws {
    var limits = MockStateLimits()
    limits.maxEntriesPerStore = 50
    limits.purgeInterval = 16
    let tenant = try MockStateLimitTests.tenant(limits, carol: true)
    let stores = ["mfa_oob_challenges", "mfa_pending_otp", "backchannel_requests", "device_codes"]
    try await MockHarness.test(tenant) { client in
      // Four times the cap, a virtual second apart (a full store keeps the entries expiring last).
      for _ in 0..<200 {
        tenant.clock.advance(by: 1)
        try await Self.startEverything(client)
      }
      let counts = await tenant.stateCounts()
      for store in stores {
        #expect((counts[store] ?? 0) > 0 && (counts[store] ?? 0) <= 50, "\(store) holds \(counts[store] ?? 0)")
      }
      // Past every lifetime (MFA tokens: 10 minutes; CIBA: 5; device codes: 15) and the grace.
      tenant.clock.advance(by: 2 * 3600)
      for _ in 0..<16 {
        tenant.clock.advance(by: 1)
        try await Self.startEverything(client)
      }
      let after = await tenant.stateCounts()
      for store in stores {
        #expect((after[store] ?? 0) <= 16, "\(store) holds \(after[store] ?? 0) after expiry")
      }
    }
  }

  /// One of each: a login that needs MFA, an OTP and an SMS association for it, a CIBA request and
  /// a device code.
  static func startEverything(_ client: any TestClientProtocol) async throws {
    let token = try await MFAAPITests.bobMFAToken(client, username: "carol@example.com", password: "Carol-Passw0rd!")
    let bearer: HTTPFields = [.authorization: "Bearer \(token)"]
    let otp = try await client.postJSON(
      "/mfa/associate", ["authenticator_types": .array([.string("otp")])], headers: bearer)
    #expect(otp.status == .ok, "\(otp.text)")
    let sms = try await client.postJSON(
      "/mfa/associate",
      [
        "authenticator_types": .array([.string("oob")]), "oob_channels": .array([.string("sms")]),
        "phone_number": .string("+15555550199"),
      ], headers: bearer)
    #expect(sms.status == .ok, "\(sms.text)")
    #expect(try await BackchannelTests.start(client).status == .ok)
    #expect(try await client.postForm("/oauth/device/code", [("client_id", "native-client-id")]).status == .ok)
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
