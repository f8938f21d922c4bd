import AuthFlowMockTenant
import Foundation

/// The tenant the throughput rows run against: the built-in mock fixture with its API rate limit
/// (1,000 requests a minute per path, docs/protocol.md §9) raised out of the way, so that thousands of
/// logins a second measure authflow rather than the mock's 429s. Written as `tenants/bench.yaml`
/// beside an `authflow.yaml` whose default tenant uses it — the same files a user would write.
public enum BenchTenant {
  /// The tenant's name in the written `authflow.yaml`.
  public static let name = "bench"
  /// The raised limit.
  static let rateLimitPerMinute = 1_000_000_000

  /// Why the files could not be written.
  public struct Failure: Error, Sendable, CustomStringConvertible {
    public var description: String

    static let noDefaultFixture = Failure(description: "the built-in mock fixture is missing from the bundle")
    static let noTenantSection = Failure(description: "the built-in mock fixture has no 'tenant:' section")
  }

  /// Writes `authflow.yaml` and `tenants/bench.yaml` into `directory`; returns the path of
  /// `authflow.yaml`.
  @discardableResult
  public static func write(into directory: String) throws -> String {
    guard let path = FixtureLoader.defaultFixturePath else { throw Failure.noDefaultFixture }
    let fixture = try String(contentsOfFile: path, encoding: .utf8)
    var lines = fixture.components(separatedBy: "\n").filter { !$0.hasPrefix("  rate_limit_per_minute:") }
    guard let section = lines.firstIndex(of: "tenant:") else { throw Failure.noTenantSection }
    lines.insert("  rate_limit_per_minute: \(rateLimitPerMinute)", at: section + 1)
    let tenants = (directory as NSString).appendingPathComponent("tenants")
    try FileManager.default.createDirectory(atPath: tenants, withIntermediateDirectories: true)
    try lines.joined(separator: "\n").write(
      toFile: (tenants as NSString).appendingPathComponent("bench.yaml"), atomically: false, encoding: .utf8)
    let project = (directory as NSString).appendingPathComponent("authflow.yaml")
    try """
    default_tenant: \(name)
    tenants:
      \(name): { kind: mock, fixture: tenants/bench.yaml }

    """.write(toFile: project, atomically: false, encoding: .utf8)
    return project
  }
}
