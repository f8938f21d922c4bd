import AuthFlowCore
import AuthFlowJOSE
import Foundation
import Synchronization

/// The machine's RSA-2048 (RS256) signing rate through the mock's own ``SigningKey`` (swift-crypto),
/// measured in the same run as the login flows: the physical limit of a login flow is its
/// signatures, so each login-flow row is shown as a share of this rate ÷ its signatures per flow.
///
/// One signing loop per thread, each bounded by a count and by time; the rate is signatures over
/// the wall time of the slowest loop.
public struct SigningRate: Sendable {
  /// The key signed with: RS256, 2,048 bits, as the mock's default key.
  let key: SigningKey
  /// The signing input: the size of a typical ID token's header and claims.
  let input: Data

  public init() throws {
    key = try SigningKey.generateRSA(kid: "bench")
    let claims: [String: Value] = [
      "iss": .string("https://bench.example.com/"), "sub": .string("auth0|bench"), "aud": .string("bench-client"),
      "iat": .int(1_700_000_000), "exp": .int(1_700_036_000), "email": .string("alice@example.com"),
      "nonce": .string(String(repeating: "n", count: 43)),
    ]
    input = Data(Value.object(claims).jsonText(revealSecrets: true).utf8)
  }

  /// Why the rate could not be measured.
  public struct Failure: Error, Sendable, CustomStringConvertible {
    public var description: String
  }

  /// A timed batch: signatures made on `threads` threads.
  public struct Batch: Sendable {
    public var threads: Int
    public var signatures: Int
    public var elapsed: Duration

    /// Signatures per second.
    public var rate: Double {
      let seconds = elapsed.seconds
      return seconds > 0 ? Double(signatures) / seconds : 0
    }
  }

  /// Signs on `threads` threads at once, each until it has made `limit` signatures or `duration`
  /// has passed (at least one each).
  public func measure(threads: Int, limit: Int, duration: Duration) throws -> Batch {
    let threads = max(1, threads)
    let clock = ContinuousClock()
    let started = clock.now
    let deadline = started + duration
    let tally = SigningTally()
    DispatchQueue.concurrentPerform(iterations: threads) { _ in
      var count = 0
      repeat {
        guard (try? key.signature(for: input)) != nil else {
          tally.failed.store(true, ordering: .relaxed)
          return
        }
        count += 1
      } while count < limit && clock.now < deadline
      tally.made.add(count, ordering: .relaxed)
    }
    if tally.failed.load(ordering: .relaxed) { throw Failure(description: "RSA signing failed") }
    return Batch(threads: threads, signatures: tally.made.load(ordering: .relaxed), elapsed: clock.now - started)
  }
}

/// Signatures made across the signing threads, and whether one failed.
final class SigningTally: Sendable {
  let made = Atomic<Int>(0)
  let failed = Atomic<Bool>(false)
}

/// A login-flow row's limit: the signing rate divided by the signatures a flow costs (counted on
/// the mock during the row).
public struct FlowLimit: Sendable, Codable, Equatable {
  /// Signatures per second on the cores the row can use (one, or all).
  public var signingRate: Double
  /// Cores the signing rate was measured on.
  public var cores: Int
  /// Signatures the mock made per flow during the row.
  public var signaturesPerFlow: Double

  public init(signingRate: Double, cores: Int, signaturesPerFlow: Double) {
    self.signingRate = signingRate
    self.cores = cores
    self.signaturesPerFlow = signaturesPerFlow
  }

  /// Flows per second at the limit: nil when a flow signs nothing.
  public var flowsPerSecond: Double? {
    signaturesPerFlow > 0 ? signingRate / signaturesPerFlow : nil
  }

  /// `flows` per second as a share of the limit (0.25 = 25 %).
  public func share(of flows: Double) -> Double? {
    flowsPerSecond.map { flows / $0 }
  }

  /// The note line: `limit 1,234 flows/s (1-core signing 2,468 /s ÷ 2.00 signatures per flow,
  /// counted): 23 % of it`.
  func describe(median: Double) -> String {
    let coresText = cores == 1 ? "1-core" : "\(cores)-core"
    let rate =
      "\(coresText) signing \(format(signingRate))/s ÷ \(format(signaturesPerFlow)) signatures per flow, counted"
    guard let limit = flowsPerSecond, let share = share(of: median) else { return "no limit (\(rate))" }
    return "limit \(format(limit)) flows/s (\(rate)): \(format(share * 100)) % of it"
  }
}
