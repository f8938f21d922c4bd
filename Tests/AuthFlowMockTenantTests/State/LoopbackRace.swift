import AuthFlowTestSupport
import Foundation
import Testing

/// Requests sent all at once to a mock served on 127.0.0.1, each on its own raw TCP connection
/// (URLSession on Linux sends from one thread, one request after another; these are written as the
/// tasks run), so the server handles them on its event loops in parallel.
enum LoopbackRace {
  /// What one request got back: the status, the whole response text, and its `Location`.
  struct Answer: Sendable {
    var status: Int
    var text: String
    var location: String?
  }

  /// Posts every body of `bodies` to `url` at once (`contentType`, and `cookie` when given).
  static func post(
    _ bodies: [String], url: String, contentType: String = "application/x-www-form-urlencoded", cookie: String? = nil
  ) async throws -> [Answer] {
    let target = try #require(URLComponents(string: url))
    let port = try #require(target.port)
    let path = target.percentEncodedPath + (target.percentEncodedQuery.map { "?" + $0 } ?? "")
    let requests = bodies.map { body in
      Array(
        ("POST \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n" + (cookie.map { "Cookie: \($0)\r\n" } ?? "")
          + "Content-Type: \(contentType)\r\nContent-Length: \(body.utf8.count)\r\n"
          + "Connection: close\r\n\r\n\(body)").utf8)
    }
    return try await withThrowingTaskGroup(of: Answer.self) { group in
      for request in requests {
        group.addTask {
          let outcome = try await RawClient.exchange(port: port, chunks: [request], limit: .seconds(30))
          let head = outcome.received.prefix { $0 != "\r" }.split(separator: " ")
          let status = head.count > 1 ? Int(head[1]) ?? 0 : 0
          let location = outcome.received.split(separator: "\r\n").first { $0.lowercased().hasPrefix("location:") }
          return Answer(
            status: status, text: outcome.received, location: location.map { String($0.dropFirst("location:".count)) })
        }
      }
      var answers: [Answer] = []
      for try await answer in group { answers.append(answer) }
      return answers
    }
  }

  /// A form body.
  static func form(_ fields: [(String, String)]) -> String {
    fields.map { "\(escape($0.0))=\(escape($0.1))" }.joined(separator: "&")
  }
}
