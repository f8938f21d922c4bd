extension StepMessages {
  /// Why a scenario is skipped: each capability it `requires` that the tenant lacks, with where it
  /// was looked for.
  static func missingCapabilities(_ missing: [String], tenant: TenantContext) -> String {
    let items = missing.map { "'\($0)' (looked for in: \(tenant.whereLookedFor($0)))" }
    let noun = missing.count == 1 ? "capability" : "capabilities"
    return "tenant '\(tenant.name)' lacks \(noun) \(items.joined(separator: ", "))"
  }
}
