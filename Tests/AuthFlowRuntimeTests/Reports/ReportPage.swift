import AuthFlowCore
import Foundation

@testable import AuthFlowHTTP

/// An HTML report opened in a headless chromium driven over the DevTools protocol (the runner's
/// own driver, ``ChromiumHost``), for tests that operate the page as a person would: mouse clicks
/// and key presses sent as input events, then what the page shows read back.
struct ReportPage {
  /// What the page shows: the filters' "Showing N of M" line and the ids of the scenario sections
  /// on screen.
  struct Shown: Equatable, CustomStringConvertible {
    var line: String
    var visible: [String]

    var description: String { "\(line): \(visible)" }
  }

  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  let host: ChromiumHost
  let page: ChromiumPage

  static func open(_ file: URL) async throws -> ReportPage {
    let host = ChromiumHost(observe: { _ in })
    do {
      let context = try await host.createContext()
      let page = try await host.openPage(context: context, callbackPrefixes: [])
      let load = try await page.navigate(file.absoluteString)
      let opened = ReportPage(host: host, page: page)
      guard try await opened.evaluate("document.documentElement.getAttribute('data-ready')") == "true" else {
        let state = try await opened.evaluate("location.href + ' ' + document.readyState")
        throw Failure(description: "the report's script did not run (\(load), the page at \(state))")
      }
      return opened
    } catch {
      await host.shutdown()
      throw error
    }
  }

  func close() async {
    await page.close()
    await host.shutdown()
  }

  /// The value of a JavaScript expression in the page.
  func evaluate(_ expression: String) async throws -> Value {
    let answer = try await page.command(
      "Runtime.evaluate", .object(["expression": .string(expression), "returnByValue": true]))
    if let exception = answer.member("exceptionDetails") {
      throw Failure(description: "\(expression): \(exception.jsonText())")
    }
    return answer.member("result")?.member("value") ?? .null
  }

  func shown() async throws -> Shown {
    let value = try await evaluate(
      """
      ({line: document.getElementById('shown').textContent,
        visible: Array.from(document.querySelectorAll('section.scenario'))
          .filter(s => s.checkVisibility()).map(s => s.id)})
      """)
    return Shown(
      line: value.member("line")?.stringValue ?? "",
      visible: value.member("visible")?.arrayValue?.compactMap(\.stringValue) ?? [])
  }

  func value(_ selector: String) async throws -> String? {
    try await evaluate("document.querySelector(\(Self.quoted(selector))).value").stringValue
  }

  /// A left click at the middle of the element, as mouse events.
  func click(_ selector: String) async throws {
    let point = try await evaluate(
      """
      (() => { const e = document.querySelector(\(Self.quoted(selector))); e.scrollIntoView({block: 'center'});
        const r = e.getBoundingClientRect(); return {x: r.left + r.width / 2, y: r.top + r.height / 2}; })()
      """)
    guard let x = point.member("x"), let y = point.member("y") else {
      throw Failure(description: "no element \(selector)")
    }
    for type in ["mousePressed", "mouseReleased"] {
      try await page.command(
        "Input.dispatchMouseEvent",
        .object(["type": .string(type), "x": x, "y": y, "button": "left", "clickCount": 1]))
    }
  }

  func focus(_ selector: String) async throws {
    _ = try await evaluate("document.querySelector(\(Self.quoted(selector))).focus()")
  }

  /// A key pressed and released (`ArrowDown`, `ArrowUp`).
  func press(_ key: String) async throws {
    let codes = ["ArrowDown": 40, "ArrowUp": 38]
    for type in ["rawKeyDown", "keyUp"] {
      try await page.command(
        "Input.dispatchKeyEvent",
        .object([
          "type": .string(type), "key": .string(key), "code": .string(key),
          "windowsVirtualKeyCode": .int(codes[key] ?? 0),
        ]))
    }
  }

  /// Text typed into the focused field.
  func type(_ text: String) async throws {
    try await page.command("Input.insertText", .object(["text": .string(text)]))
  }

  private static func quoted(_ text: String) -> String { Value.string(text).jsonText() }
}
