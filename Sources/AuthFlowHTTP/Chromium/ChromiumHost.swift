import AuthFlowCore
import Foundation
import Synchronization

/// The run's one headless chromium, started on first use and stopped by ``shutdown()`` (the run's
/// end, an interruption): browser contexts for the named browsers of each scenario (separate
/// cookie jars), a page per navigation. A launch that failed is not retried: every later use gets
/// the same error at once.
public actor ChromiumHost {
  /// The bounds of the driver; every wait has one.
  public struct Configuration: Sendable {
    /// From spawning chromium to its DevTools port being open.
    public var launchTimeout: Duration = .seconds(30)
    /// Each DevTools command.
    public var commandTimeout: Duration = .seconds(15)
    /// Each page: from the navigation (or the submission) to a loaded document or the callback.
    public var pageTimeout: Duration = .seconds(30)
    /// A page is settled when nothing was requested or navigated for this long after it loaded.
    public var quietPeriod: Duration = .milliseconds(500)
    /// A loaded page whose scripts keep the network busy is read anyway after this long.
    public var settleLimit: Duration = .seconds(5)
    /// The largest DevTools message accepted (a page's DOM comes in one).
    public var maxMessageBytes = 32 * 1024 * 1024
    /// Where `AUTHFLOW_CHROMIUM` and `PATH` are read.
    public var environment: [String: String] = ProcessInfo.processInfo.environment

    public init() {}
  }

  private struct Running: Sendable {
    var process: ChromiumProcess
    var connection: DevToolsConnection
  }

  public nonisolated let configuration: Configuration
  private let observe: @Sendable (HTTPExchange) -> Void
  private var launch: Task<Result<Running, ChromiumError>, Never>?
  private var stopped = false
  /// The process group of the chromium started, for ``deinit`` (readable without the actor).
  private let startedGroup = Mutex<Int32?>(nil)

  /// - Parameter observe: sees every request chromium makes with its response head (secrets are
  ///   learnt from it; `--trace` prints it).
  public init(configuration: Configuration = Configuration(), observe: @escaping @Sendable (HTTPExchange) -> Void) {
    self.configuration = configuration
    self.observe = observe
  }

  /// The chromium a run would start: `AUTHFLOW_CHROMIUM`, else the first of `chromium`,
  /// `chromium-browser`, `google-chrome`, `google-chrome-stable` on `PATH`.
  public static func locateExecutable(environment: [String: String]) throws(ChromiumError) -> String {
    try ChromiumProcess.locate(environment: environment)
  }

  /// Why this host cannot start a chromium when none is installed — `AUTHFLOW_CHROMIUM` unset
  /// and no chromium on `PATH` (``ChromiumError/message`` says what was looked for and how to
  /// install it) — else nil. A set `AUTHFLOW_CHROMIUM` is never "not installed": a wrong one is
  /// the launch's error.
  public nonisolated var notInstalled: ChromiumError? {
    if let explicit = configuration.environment["AUTHFLOW_CHROMIUM"], !explicit.isEmpty { return nil }
    do {
      _ = try ChromiumProcess.locate(environment: configuration.environment)
      return nil
    } catch {
      return error
    }
  }

  /// A host dropped without ``shutdown()`` (a test, a tool that forgot) still kills its chromium.
  deinit {
    if let pid = startedGroup.withLock({ $0 }) { LaunchedProcesses.killGroup(pid) }
  }

  /// The PID of the running chromium, if any.
  public var processID: Int32? {
    get async {
      guard let launch, !stopped, case .success(let running) = await launch.value else { return nil }
      return running.process.pid
    }
  }

  /// A new browser context: its own cookies and storage.
  public func createContext() async throws(ChromiumError) -> String {
    let running = try await start()
    let answer = try await running.connection.command(
      "Target.createBrowserContext", .object(["disposeOnDetach": .bool(false)]),
      timeout: configuration.commandTimeout)
    guard let id = answer.member("browserContextId")?.stringValue else {
      throw .devTools(ChromiumMessages.unexpectedAnswer("Target.createBrowserContext"))
    }
    return id
  }

  /// Closes a browser context and its pages.
  public func disposeContext(_ id: String) async {
    guard !stopped, let launch, case .success(let running) = await launch.value else { return }
    _ = try? await running.connection.command(
      "Target.disposeBrowserContext", .object(["browserContextId": .string(id)]),
      timeout: configuration.commandTimeout)
  }

  /// A new page (tab) in a context, intercepting every request so that a navigation to one of
  /// `callbackPrefixes` (or to a scheme other than http(s)) is caught and never sent.
  public func openPage(context: String, callbackPrefixes: [String]) async throws(ChromiumError) -> ChromiumPage {
    let running = try await start()
    let connection = running.connection
    let created = try await connection.command(
      "Target.createTarget", .object(["url": "about:blank", "browserContextId": .string(context)]),
      timeout: configuration.commandTimeout)
    guard let target = created.member("targetId")?.stringValue else {
      throw .devTools(ChromiumMessages.unexpectedAnswer("Target.createTarget"))
    }
    let attached = try await connection.command(
      "Target.attachToTarget", .object(["targetId": .string(target), "flatten": .bool(true)]),
      timeout: configuration.commandTimeout)
    guard let session = attached.member("sessionId")?.stringValue else {
      throw .devTools(ChromiumMessages.unexpectedAnswer("Target.attachToTarget"))
    }
    let page = ChromiumPage(
      connection: connection, session: session, target: target, callbackPrefixes: callbackPrefixes,
      configuration: configuration, observe: observe)
    try await page.prepare()
    return page
  }

  /// Stops chromium (by its PID) and removes its profile; later uses fail.
  public func shutdown() async {
    stopped = true
    guard let launch else { return }
    launch.cancel()
    guard case .success(let running) = await launch.value else { return }
    _ = try? await running.connection.command("Browser.close", timeout: .seconds(2))
    // The process first: its end closes the WebSocket from the other side too.
    await running.process.stop(grace: .seconds(3))
    await running.connection.close()
  }

  private func start() async throws(ChromiumError) -> Running {
    guard !stopped else { throw ChromiumError(message: ChromiumMessages.stopped) }
    if launch == nil {
      let configuration = self.configuration
      launch = Task { await Self.launch(configuration) }
    }
    guard let launch else { throw ChromiumError(message: ChromiumMessages.stopped) }
    let running = try await launch.value.get()
    startedGroup.withLock { $0 = running.process.pid }
    return running
  }

  private static func launch(_ configuration: Configuration) async -> Result<Running, ChromiumError> {
    do throws(ChromiumError) {
      let executable = try ChromiumProcess.locate(environment: configuration.environment)
      let process = try await ChromiumProcess.launch(executable: executable, timeout: configuration.launchTimeout)
      do throws(ChromiumError) {
        let socket = try await WebSocketConnection.connect(
          host: "127.0.0.1", port: process.port, path: process.browserPath,
          maxMessageBytes: configuration.maxMessageBytes, connectTimeout: configuration.commandTimeout)
        let connection = DevToolsConnection(socket: socket)
        await connection.start()
        return .success(Running(process: process, connection: connection))
      } catch {
        await process.stop(grace: .seconds(2))
        throw error
      }
    } catch {
      return .failure(error)
    }
  }
}
