import AuthFlowCore
public import AuthFlowHTTP
import Foundation

extension BoundRun {
  /// Gives `pacer` each tenant's declared rate (`rate_limit.requests_per_minute` in its profile),
  /// for the hosts of its base URL and issuer; tenants without one are paced by their headers only.
  public func declareRates(to pacer: RateLimitPacer) {
    for (profile, tenant) in zip(plan.profiles, tenants) {
      guard let perMinute = profile.requestsPerMinute?.value else { continue }
      let hosts = Set([tenant.context.baseURL, tenant.context.issuer].map { RateLimitPacer.BucketKey(url: $0).host })
      for host in hosts where !host.isEmpty {
        pacer.declare(host: host, requestsPerMinute: perMinute)
      }
    }
  }
}
