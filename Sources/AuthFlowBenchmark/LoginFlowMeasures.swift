/// The login-flow rows: the real `web_auth` flow against the embedded mock, in-process over
/// loopback HTTP, one at a time and on concurrent workers. Each row is split into timed rounds;
/// each round's flows per second is one sample.
public struct LoginFlowMeasures: Sendable {
  public var options: BenchmarkOptions

  public init(options: BenchmarkOptions) {
    self.options = options
  }

  /// Flows run before measuring: connections opened, JWKS fetched, code paths warmed.
  static let warmUpFlows = 20

  /// Both rows, on one mock.
  public func all() async -> [BenchmarkResult] {
    let rig: LoginFlowRig
    do {
      rig = try await LoginFlowRig.start()
    } catch {
      return [sequentialFailure(error.description), concurrentFailure(error.description)]
    }
    let results = [await sequential(rig), await concurrent(rig)]
    await rig.stop()
    return results
  }

  /// Flows one after another.
  public func sequential(_ rig: LoginFlowRig) async -> BenchmarkResult {
    do {
      _ = try await rig.runSequential(limit: Self.warmUpFlows, duration: .seconds(5))
      var samples: [Double] = []
      var latencies: [Double] = []
      for round in rounds() {
        let batch = try await rig.runSequential(limit: round.limit, duration: round.duration)
        samples.append(batch.throughput)
        latencies += batch.latencies
      }
      let latency = SampleStatistics(latencies).map {
        "per flow: median \(format($0.median * 1_000)) ms, p90 \(format($0.p90 * 1_000)) ms"
      }
      return BenchmarkResult(
        id: "login_flows_sequential", measure: "login flows, one at a time", unit: "flows/s", samples: samples,
        iterations: latencies.count, target: DesignTargets.sequentialFlows, note: latency)
    } catch {
      return sequentialFailure(error.description)
    }
  }

  /// Flows on `options.workers` concurrent workers.
  public func concurrent(_ rig: LoginFlowRig) async -> BenchmarkResult {
    do {
      _ = try await rig.runConcurrent(workers: options.workers, limit: Self.warmUpFlows, duration: .seconds(5))
      var samples: [Double] = []
      var flows = 0
      for round in rounds() {
        let batch = try await rig.runConcurrent(
          workers: options.workers, limit: round.limit, duration: round.duration)
        samples.append(batch.throughput)
        flows += batch.flows
      }
      return BenchmarkResult(
        id: "login_flows_concurrent", measure: "login flows, \(options.workers) concurrent", unit: "flows/s",
        samples: samples, iterations: flows, target: DesignTargets.concurrentFlows,
        note: "\(options.workers) workers on one mock, one pooled HTTP client")
    } catch {
      return concurrentFailure(error.description)
    }
  }

  /// The bounds of each round: the row's count and time shared out evenly.
  func rounds() -> [(limit: Int, duration: Duration)] {
    let count = max(1, options.flowRounds)
    let limit = max(1, options.flowIterations / count)
    return Array(repeating: (limit, options.flowDuration / count), count: count)
  }

  private func sequentialFailure(_ reason: String) -> BenchmarkResult {
    .failed(
      id: "login_flows_sequential", measure: "login flows, one at a time", unit: "flows/s",
      target: DesignTargets.sequentialFlows, reason: reason)
  }

  private func concurrentFailure(_ reason: String) -> BenchmarkResult {
    .failed(
      id: "login_flows_concurrent", measure: "login flows, \(options.workers) concurrent", unit: "flows/s",
      target: DesignTargets.concurrentFlows, reason: reason)
  }
}
