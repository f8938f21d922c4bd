import ArgumentParser
import AuthFlowCore
import AuthFlowHTTP
import AuthFlowResults
import AuthFlowRun
import AuthFlowRuntime
import Foundation

/// `run`'s selection flags: which scenarios of the files run.
struct SelectionOptions: ParsableArguments {
  @Option(name: .long, help: "Run only scenarios with this tag (repeatable: any of them).")
  var tag: [String] = []

  @Option(name: .customLong("skip-tag"), help: "Skip scenarios with this tag (repeatable).")
  var skipTag: [String] = []

  @Option(name: .long, help: "Run shard K of N (e.g. 2/4); stable across machines.")
  var shard: String?

  @Flag(
    name: .customLong("allow-empty"),
    help:
      "Exit 0 when the selection runs no scenario (default: exit 2); unknown --tag/--skip-tag values become warnings.")
  var allowEmpty = false

  func validate() throws {
    if let shard, Shard(shard) == nil {
      throw ValidationError("--shard must be K/N with 1 ≤ K ≤ N, e.g. 2/4 (got '\(shard)')")
    }
  }

  func apply(to configuration: inout RunConfiguration) {
    configuration.selection = Selection(tags: tag, skipTags: skipTag, shard: shard.flatMap(Shard.init))
    configuration.allowEmpty = allowEmpty
  }
}

/// `run`'s console flags: the trace, and how much is drawn while the run goes.
struct ConsoleOptions: ParsableArguments {
  @Flag(name: .long, help: "Print every HTTP exchange to standard error, secrets redacted.")
  var trace = false

  @Flag(
    name: .long,
    help: "No progress line, and no console line per scenario as it finishes: the header and the summary only.")
  var quiet = false

  @Flag(
    name: .customLong("no-progress"),
    help: "No live progress line on standard error (it is drawn only when standard error is a terminal).")
  var noProgress = false

  func apply(to configuration: inout RunConfiguration) {
    if trace { configuration.trace = { StandardStreams.error($0 + "\n") } }
    configuration.quiet = quiet
    // Only when standard error is a terminal that can erase a line.
    configuration.showsProgress =
      !quiet && !noProgress && isatty(STDERR_FILENO) == 1 && configuration.environment["TERM"] != "dumb"
  }
}

/// `run`'s rate-limit flags: retries of a 429, and pacing by the tenant's limits.
struct RateLimitOptions: ParsableArguments {
  @Option(
    name: .customLong("rate-limit-retries"),
    help: "How many times a request answered 429 is retried (and an idempotent one whose connection failed).")
  var rateLimitRetries: Int = 3

  @Option(
    name: .customLong("rate-limit-max-wait"),
    help: "The longest wait before a retry (Retry-After / X-RateLimit-Reset asking for more are cut to it).")
  var rateLimitMaxWait: String = "10s"

  @Flag(
    name: .customLong("no-pacing"),
    help:
      "Send requests as soon as they are ready, not paced by the tenant's X-RateLimit-* headers or its profile's rate_limit (for a scenario that means to hit the limit)."
  )
  var noPacing = false

  func validate() throws {
    try FlagRange.check("--rate-limit-retries", rateLimitRetries, in: InputLimits.rateLimitRetries)
    try FlagRange.checkDuration("--rate-limit-max-wait", rateLimitMaxWait)
  }

  /// The bounds of the rate-limit-aware client (docs/running.md).
  func apply(to configuration: inout RunConfiguration) {
    configuration.retry.maxRetries = rateLimitRetries
    configuration.retry.maxWait = DurationText.parse(rateLimitMaxWait) ?? configuration.retry.maxWait
    configuration.pacing = !noPacing
  }
}
