public import AuthFlowHTTP
import Foundation
import Synchronization

/// The HTTP exchanges of the step the current task works for, as `--trace` formats them, for
/// the reports that show each step's requests and responses (the HTML report).
///
/// Bound to a step by ``StepRunner`` (a task-local, so concurrent steps keep theirs apart) and
/// filled by ``StepExchangeRecorder``. Bounded: at most ``maximumExchanges`` exchanges (then one
/// line says how many more there were), each body cut at ``maximumBodyLength`` characters.
public final class StepExchangeLog: Sendable {
  /// The log of the step the current task works for; nil outside a step or when not recording.
  @TaskLocal public static var current: StepExchangeLog?

  /// How many exchanges a step keeps.
  public static let maximumExchanges = 20
  /// How much of each body is kept.
  public static let maximumBodyLength = 4096

  private struct State: Sendable {
    var exchanges: [String] = []
    var omitted = 0
  }

  private let state = Mutex(State())

  public init() {}

  /// Adds one formatted exchange, or counts it when the log is full.
  public func append(_ text: String) {
    state.withLock { state in
      if state.exchanges.count < Self.maximumExchanges {
        state.exchanges.append(text)
      } else {
        state.omitted += 1
      }
    }
  }

  /// The exchanges in the order they completed, then a note of those left out.
  public var exchanges: [String] {
    state.withLock { state in
      state.exchanges + (state.omitted > 0 ? ["… \(state.omitted) more exchanges not kept"] : [])
    }
  }
}

/// A transport that hands each exchange, formatted with secrets masked, to the current step's
/// ``StepExchangeLog``; it does nothing (not even formatting) when no log is bound.
public struct StepExchangeRecorder: HTTPTransport {
  public let base: any HTTPTransport
  let formatter: ExchangeFormatter

  public init(wrapping base: any HTTPTransport, revealSecrets: Bool) {
    self.base = base
    self.formatter = ExchangeFormatter(revealSecrets: revealSecrets, maxBodyLength: StepExchangeLog.maximumBodyLength)
  }

  public func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
    guard let log = StepExchangeLog.current else { return try await base.send(request) }
    let startedAt = Date()
    let start = ContinuousClock.now
    do {
      let response = try await base.send(request)
      log.append(
        formatter.format(
          HTTPExchange(
            request: request, outcome: .success(response), startedAt: startedAt,
            duration: ContinuousClock.now - start)))
      return response
    } catch {
      log.append(
        formatter.format(
          HTTPExchange(
            request: request, outcome: .failure(error), startedAt: startedAt, duration: ContinuousClock.now - start)))
      throw error
    }
  }
}
