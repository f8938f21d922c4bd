import AuthFlowRun
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The first SIGINT, SIGTERM or SIGHUP that arrives before a command installs ``StopControl``
/// (while the arguments are parsed), kept instead of killing the process: `run` then starts
/// stopped and still writes its reports. Commands that do not handle signals get the default
/// action back, and a kept signal is raised again.
enum EarlySignals {
  /// Keeps the first signal from now on.
  static func capture() {
    for number in StopControl.signals {
      signal(number) { number in
        _ = earlySignal.compareExchange(expected: 0, desired: number, ordering: .relaxed)
      }
    }
  }

  /// The signal kept, if any (and forgets it).
  static func take() -> Int32? {
    let number = earlySignal.exchange(0, ordering: .relaxed)
    return number == 0 ? nil : number
  }

  /// For commands without ``StopControl``: the default actions back, and a kept signal raised.
  static func release() {
    for number in StopControl.signals { signal(number, SIG_DFL) }
    if let number = take() { raise(number) }
  }
}

/// Written only by the signal handler above (an atomic store is async-signal-safe).
private let earlySignal = Atomic<Int32>(0)
