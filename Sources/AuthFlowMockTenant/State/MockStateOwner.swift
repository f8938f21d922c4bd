import Synchronization

/// The one owner of a tenant's ``MockState``: the value behind one `Mutex`.
///
/// Two doors, both one atomic step:
/// - ``read(_:)`` hands the body the state as a constant: it can look, never change.
/// - ``transact(_:)`` runs one of the state's transactions — the `mutating` methods named after the
///   protocol in `State/Transactions/` (redeem a code, rotate a refresh token, consume an OTP, …).
///   Outside `State/` a transaction's body is exactly one call of such a method
///   (`tenant.transact { $0.redeemCode(…) }`); `MockStateAccessRuleTests` fails on any other body,
///   so a read-then-write across two steps (a lost update, a single-use credential used twice)
///   cannot be written in a route.
///
/// Why a mutex and not an actor: every operation on the state is a few dictionary reads and
/// writes, so a short synchronous critical section costs less than an actor hop, and — unlike an
/// actor method that awaits — it cannot be interleaved halfway: what runs inside `withLock` is
/// atomic by construction. Callers keep the critical sections short: they sign, hash, verify and
/// encode JSON *outside* (before or after), never inside, so the lock is never held across slow
/// work or an `await` (the compiler refuses an `await` inside). The rare O(n) purges of the bounded
/// stores run once every `purgeInterval` inserts. Reading the virtual clock inside is harmless (its
/// own lock, only ever taken after this one), but the transactions take `now` as a parameter.
final class MockStateOwner: Sendable {
  private let state: Mutex<MockState>
  private let make: @Sendable () -> MockState

  /// `make` builds the state of a tenant that has just started; ``reset(alongside:)`` calls it
  /// again.
  init(_ make: @escaping @Sendable () -> MockState) {
    self.make = make
    self.state = Mutex(make())
  }

  /// Reads the state, alone: one atomic step that cannot change it.
  func read<Result: Sendable>(_ body: (MockState) -> Result) -> Result {
    state.withLock { body($0) }
  }

  /// Runs a transaction on the state, alone: one atomic step. Outside `State/`, `body` is one call
  /// of a named transaction (see the type's documentation).
  @discardableResult
  func transact<Result: Sendable>(_ body: (inout MockState) -> Result) -> Result {
    state.withLock { body(&$0) }
  }

  /// Replaces the whole state with a freshly built one — reset by construction — and runs
  /// `alongside` (the virtual clock's reset) in the same critical section, so no transaction runs
  /// between the two.
  func reset(alongside: () -> Void) {
    let fresh = make()
    state.withLock { current in
      current = fresh
      alongside()
    }
  }
}
