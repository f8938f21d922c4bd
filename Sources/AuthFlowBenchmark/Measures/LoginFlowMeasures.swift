import Foundation

/// The login-flow rows and their limit: the machine's RSA signing rate (one core, all cores),
/// then the real `web_auth` flow against the embedded mock, in-process over loopback HTTP — with
/// an audience one at a time and on concurrent workers, and without an audience one at a time.
/// Each row is split into timed rounds; each round's rate is one sample. Each flow row counts the
/// signatures the mock made during it and shows its median as a share of the signing limit.
public struct LoginFlowMeasures: Sendable {
  public var options: BenchmarkOptions

  public init(options: BenchmarkOptions) {
    self.options = options
  }

  /// Flows run before measuring: connections opened, JWKS fetched, code paths warmed.
  static let warmUpFlows = 20

  /// The signing rows, then the flow rows: two on a mock whose login asks for an audience, one on
  /// a mock whose login does not.
  ///
  /// Each flow row measures its own limit too: before each of its timed rounds, a short signing
  /// round (a quarter of the round's time, on one loop for the one-at-a-time rows, one per core for
  /// the concurrent rows), so that the flows and the limit they are judged against see the same
  /// load on a shared machine. The signing rows above them are the same measure taken on its own.
  public func all() async -> [BenchmarkResult] {
    let signing = signingRates()
    let oneCore = signing.oneCore.statistics?.median
    let allCores = signing.allCores.statistics?.median
    let rate = try? SigningRate()
    var results = [signing.oneCore, signing.allCores]
    do {
      let rig = try await LoginFlowRig.start()
      results.append(await sequential(rig, limitRate: oneCore, signing: rate))
      results.append(await concurrent(rig, limitRate: allCores, signing: rate))
      await rig.stop()
    } catch {
      results += [sequentialFailure(error.description, row: .withAudience), concurrentFailure(error.description)]
    }
    do {
      let rig = try await LoginFlowRig.start(transport: .inProcess)
      results.append(await sequential(rig, limitRate: oneCore, signing: rate, row: .withAudienceInProcess))
      results.append(await concurrent(rig, limitRate: allCores, signing: rate, transport: .inProcess))
      await rig.stop()
    } catch {
      results += [
        sequentialFailure(error.description, row: .withAudienceInProcess),
        concurrentFailure(error.description, transport: .inProcess),
      ]
    }
    do {
      let rig = try await LoginFlowRig.start(audience: nil)
      results.append(await sequential(rig, limitRate: oneCore, signing: rate, row: .withoutAudience))
      await rig.stop()
    } catch {
      results.append(sequentialFailure(error.description, row: .withoutAudience))
    }
    return results
  }

  /// One short signing round beside a flow round (a quarter of its time, on `threads` loops): the
  /// signing rate under the load the flows see. Nil without a signing rig or when signing failed.
  func adjacentSigningRate(
    _ signing: SigningRate?, threads: Int, round: (limit: Int, duration: Duration)
  ) -> Double? {
    guard let signing else { return nil }
    let limit = max(1, options.signingIterations / max(1, options.flowRounds) / 4)
    return (try? signing.measure(threads: threads, limit: limit, duration: round.duration / 4))?.rate
  }

  /// The RSA-2048 signing rate on one core and on all cores, through the mock's `SigningKey`.
  public func signingRates() -> (oneCore: BenchmarkResult, allCores: BenchmarkResult) {
    let cores = max(1, ProcessInfo.processInfo.activeProcessorCount)
    let oneCoreID = "rsa_sign_one_core"
    let oneCoreMeasure = "RSA-2048 signatures, 1 core"
    let allCoresID = "rsa_sign_all_cores"
    let allCoresMeasure = "RSA-2048 signatures, \(cores) cores"
    let rate: SigningRate
    do {
      rate = try SigningRate()
    } catch {
      let reason = String(describing: error)
      return (
        .failed(id: oneCoreID, measure: oneCoreMeasure, unit: "sig/s", target: nil, reason: reason),
        .failed(id: allCoresID, measure: allCoresMeasure, unit: "sig/s", target: nil, reason: reason)
      )
    }
    func row(id: String, measure: String, threads: Int) -> BenchmarkResult {
      do {
        _ = try rate.measure(threads: threads, limit: 5, duration: .seconds(1))
        var samples: [Double] = []
        var signatures = 0
        for round in signingRounds() {
          let batch = try rate.measure(threads: threads, limit: round.limit, duration: round.duration)
          samples.append(batch.rate)
          signatures += batch.signatures
        }
        return BenchmarkResult(
          id: id, measure: measure, unit: "sig/s", samples: samples, iterations: signatures, target: nil,
          note: "RS256 through swift-crypto (the mock's SigningKey), \(threads) signing loop\(threads == 1 ? "" : "s")")
      } catch {
        return .failed(id: id, measure: measure, unit: "sig/s", target: nil, reason: String(describing: error))
      }
    }
    return (
      row(id: oneCoreID, measure: oneCoreMeasure, threads: 1),
      row(id: allCoresID, measure: allCoresMeasure, threads: cores)
    )
  }

  /// Which sequential row: the main login (with an audience, over loopback), the one without an
  /// audience, or the main login in-process.
  public enum SequentialRow: Sendable {
    case withAudience, withoutAudience, withAudienceInProcess

    var id: String {
      switch self {
      case .withAudience: "login_flows_sequential"
      case .withoutAudience: "login_flows_sequential_no_audience"
      case .withAudienceInProcess: "login_flows_sequential_in_process"
      }
    }
    var measure: String {
      switch self {
      case .withAudience: "login flows, one at a time (loopback)"
      case .withoutAudience: "login flows without audience, one at a time (loopback)"
      case .withAudienceInProcess: "login flows, one at a time (in-process)"
      }
    }
  }

  /// Flows one after another; their limit is the 1-core signing rate measured between the rounds
  /// (`signing`), else `limitRate`.
  public func sequential(
    _ rig: LoginFlowRig, limitRate: Double? = nil, signing: SigningRate? = nil, row: SequentialRow = .withAudience
  ) async -> BenchmarkResult {
    do {
      _ = try await rig.runSequential(limit: Self.warmUpFlows, duration: .seconds(5))
      var samples: [Double] = []
      var latencies: [Double] = []
      var signingRates: [Double] = []
      var signatures = 0
      for round in rounds() {
        if let rate = adjacentSigningRate(signing, threads: 1, round: round) { signingRates.append(rate) }
        let signaturesBefore = rig.signaturesMade
        let batch = try await rig.runSequential(limit: round.limit, duration: round.duration)
        signatures += rig.signaturesMade - signaturesBefore
        samples.append(batch.throughput)
        latencies += batch.latencies
      }
      let limit = flowLimit(
        rate: SampleStatistics(signingRates)?.median ?? limitRate, cores: 1, signatures: signatures,
        flows: latencies.count)
      let latency = SampleStatistics(latencies).map {
        "per flow: median \(format($0.median * 1_000)) ms, p90 \(format($0.p90 * 1_000)) ms"
      }
      var result = BenchmarkResult(
        id: row.id, measure: row.measure, unit: "flows/s", samples: samples, iterations: latencies.count,
        target: DesignTargets.sequentialFlows, note: latency)
      result.limit = limit
      return result
    } catch {
      return sequentialFailure(error.description, row: row)
    }
  }

  /// Flows on `options.workers` concurrent workers; their limit is the all-core signing rate
  /// measured between the rounds (`signing`), else `limitRate`.
  public func concurrent(
    _ rig: LoginFlowRig, limitRate: Double? = nil, signing: SigningRate? = nil,
    transport: LoginFlowRig.Transport = .loopback
  ) async -> BenchmarkResult {
    do {
      _ = try await rig.runConcurrent(workers: options.workers, limit: Self.warmUpFlows, duration: .seconds(5))
      var samples: [Double] = []
      var flows = 0
      var signingRates: [Double] = []
      var signatures = 0
      let cores = max(1, ProcessInfo.processInfo.activeProcessorCount)
      for round in rounds() {
        if let rate = adjacentSigningRate(signing, threads: cores, round: round) { signingRates.append(rate) }
        let signaturesBefore = rig.signaturesMade
        let batch = try await rig.runConcurrent(
          workers: options.workers, limit: round.limit, duration: round.duration)
        signatures += rig.signaturesMade - signaturesBefore
        samples.append(batch.throughput)
        flows += batch.flows
      }
      var result = BenchmarkResult(
        id: concurrentID(transport), measure: concurrentMeasure(transport), unit: "flows/s",
        samples: samples, iterations: flows, target: DesignTargets.concurrentFlows,
        note: transport == .loopback
          ? "\(options.workers) workers on one mock, one pooled HTTP client"
          : "\(options.workers) workers on one mock, its router called in-process")
      result.limit = flowLimit(
        rate: SampleStatistics(signingRates)?.median ?? limitRate, cores: cores, signatures: signatures, flows: flows)
      return result
    } catch {
      return concurrentFailure(error.description, transport: transport)
    }
  }

  private func concurrentID(_ transport: LoginFlowRig.Transport) -> String {
    transport == .loopback ? "login_flows_concurrent" : "login_flows_concurrent_in_process"
  }

  private func concurrentMeasure(_ transport: LoginFlowRig.Transport) -> String {
    "login flows, \(options.workers) concurrent (\(transport.rawValue))"
  }

  /// The limit of a row that made `signatures` over `flows` flows: nil without a rate or flows.
  func flowLimit(rate: Double?, cores: Int, signatures: Int, flows: Int) -> FlowLimit? {
    guard let rate, flows > 0 else { return nil }
    return FlowLimit(signingRate: rate, cores: cores, signaturesPerFlow: Double(signatures) / Double(flows))
  }

  /// The bounds of each round: the row's count and time shared out evenly.
  func rounds() -> [(limit: Int, duration: Duration)] {
    let count = max(1, options.flowRounds)
    let limit = max(1, options.flowIterations / count)
    return Array(repeating: (limit, options.flowDuration / count), count: count)
  }

  /// The bounds of each signing round (per signing loop): as the flow rounds.
  func signingRounds() -> [(limit: Int, duration: Duration)] {
    let count = max(1, options.flowRounds)
    let limit = max(1, options.signingIterations / count)
    return Array(repeating: (limit, options.flowDuration / count), count: count)
  }

  private func sequentialFailure(_ reason: String, row: SequentialRow) -> BenchmarkResult {
    .failed(id: row.id, measure: row.measure, unit: "flows/s", target: DesignTargets.sequentialFlows, reason: reason)
  }

  private func concurrentFailure(_ reason: String, transport: LoginFlowRig.Transport = .loopback) -> BenchmarkResult {
    .failed(
      id: concurrentID(transport), measure: concurrentMeasure(transport), unit: "flows/s",
      target: DesignTargets.concurrentFlows, reason: reason)
  }
}
