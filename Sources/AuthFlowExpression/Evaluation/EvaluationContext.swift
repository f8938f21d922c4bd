public import AuthFlowCore
import Foundation

/// What expressions see: the roots (`vars`, `steps`, `tenant`, …), the functions and the clock.
public struct EvaluationContext: Sendable {
  /// The values of the root names; a name that is not here is an "unknown name" error.
  public var roots: [String: Value]
  public var functions: FunctionRegistry
  /// The current time in Unix seconds, for `now()`; the mock tenant's virtual clock can go here.
  public var now: @Sendable () -> Double

  public init(
    roots: [String: Value], functions: FunctionRegistry = .standard,
    now: @escaping @Sendable () -> Double = EvaluationContext.systemClock
  ) {
    self.roots = roots
    self.functions = functions
    self.now = now
  }

  /// The root names the language defines (docs/design.md §2).
  public static let standardRoots: Set<String> = [
    "vars", "matrix", "steps", "tenant", "client", "credentials", "env", "scenario",
  ]

  /// The system clock in Unix seconds.
  @Sendable public static func systemClock() -> Double {
    Date().timeIntervalSince1970
  }
}
