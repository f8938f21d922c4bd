public import NIOCore
import NIOPosix

/// A small SMTP client (RFC 5321): one message per connection — greeting, `EHLO` (or `HELO`),
/// `MAIL FROM`, `RCPT TO` for each recipient, `DATA`, `QUIT` — with a deadline on the whole
/// exchange and every reply bounded. What the mock tenant delivers its messages with
/// (`authflow mock --smtp`, a mock tenant's `inbox.smtp`). Plain SMTP: it delivers to a receiver
/// on the same machine or network, not across the Internet.
public struct SMTPSender: Sendable {
  public var host: String
  public var port: Int
  /// The name sent with `EHLO`.
  public var hostname: String
  /// The whole exchange, from connecting to the reply to the message.
  public var timeout: Duration

  public init(host: String, port: Int, hostname: String = "authflow.invalid", timeout: Duration = .seconds(10)) {
    self.host = host
    self.port = port
    self.hostname = hostname
    self.timeout = timeout
  }

  /// Sends `message` (headers and body, CRLF line ends) from `sender` to `recipients`.
  public func send(_ message: [UInt8], from sender: String, to recipients: [String]) async throws(SMTPSendError) {
    guard !recipients.isEmpty else { throw .refused(command: "RCPT TO", reply: "no recipient") }
    for address in [sender] + recipients where !Self.isPlainAddress(address) {
      throw .refused(command: "MAIL FROM", reply: "not an address authflow sends to: \(address.prefix(80))")
    }
    let host = host
    let port = port
    let hostname = hostname
    let timeout = timeout
    let outcome: Result<Void, SMTPSendError> = await withTaskGroup(of: Result<Void, SMTPSendError>?.self) { group in
      group.addTask {
        do throws(SMTPSendError) {
          try await Self.exchange(
            host: host, port: port, hostname: hostname, message: message, sender: sender, recipients: recipients)
          return .success(())
        } catch {
          return .failure(error)
        }
      }
      group.addTask {
        try? await Task.sleep(for: timeout)
        return Task.isCancelled ? nil : .failure(.timeout(timeout))
      }
      let first = await group.next() ?? nil
      group.cancelAll()
      return first ?? .failure(.timeout(timeout))
    }
    try outcome.get()
  }

  private static func exchange(
    host: String, port: Int, hostname: String, message: [UInt8], sender: String, recipients: [String]
  ) async throws(SMTPSendError) {
    let channel: NIOAsyncChannel<ByteBuffer, ByteBuffer>
    do {
      channel = try await ClientBootstrap(group: NIOSingletons.posixEventLoopGroup)
        .connectTimeout(.seconds(10))
        .connect(host: host, port: port) { channel in
          channel.eventLoop.makeCompletedFuture {
            try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
          }
        }
    } catch {
      throw .connectionFailed("\(host):\(port): \(error)")
    }
    do {
      try await channel.executeThenClose { inbound, outbound in
        var replies = SMTPReplyReader(inbound.makeAsyncIterator())
        func command(_ line: String, expecting codes: Set<Int>) async throws -> SMTPReplyReader.Reply {
          if !line.isEmpty { try await outbound.write(ByteBuffer(string: line + "\r\n")) }
          let reply = try await replies.next()
          guard codes.contains(reply.code) else {
            throw SMTPSendError.refused(command: line.isEmpty ? "greeting" : Self.verb(of: line), reply: reply.text)
          }
          return reply
        }
        _ = try await command("", expecting: [220])
        do {
          _ = try await command("EHLO \(hostname)", expecting: [250])
        } catch SMTPSendError.refused {
          _ = try await command("HELO \(hostname)", expecting: [250])
        }
        _ = try await command("MAIL FROM:<\(sender)>", expecting: [250])
        for recipient in recipients { _ = try await command("RCPT TO:<\(recipient)>", expecting: [250, 251]) }
        _ = try await command("DATA", expecting: [354])
        try await outbound.write(ByteBuffer(bytes: SMTPDotStuffing.stuffed(message)))
        _ = try await command(".", expecting: [250])
        try? await outbound.write(ByteBuffer(string: "QUIT\r\n"))
      }
    } catch let error as SMTPSendError {
      throw error
    } catch {
      throw .connectionFailed("\(host):\(port): \(error)")
    }
  }

  /// `MAIL`, `RCPT`, … of a command line, for messages (never its arguments).
  static func verb(of line: String) -> String {
    String(line.prefix { $0 != ":" && $0 != " " })
  }

  /// An address without angle brackets, line ends or spaces: what goes between `<` and `>`.
  static func isPlainAddress(_ address: String) -> Bool {
    !address.isEmpty && address.utf8.count <= 254
      && !address.contains { $0 == "<" || $0 == ">" || $0 == "\r" || $0 == "\n" || $0 == " " }
  }
}

/// Why a message was not sent.
public enum SMTPSendError: Error, Sendable, CustomStringConvertible {
  case connectionFailed(String)
  case refused(command: String, reply: String)
  case timeout(Duration)
  case malformedReply(String)

  public var description: String {
    switch self {
    case .connectionFailed(let detail): return "could not reach the SMTP server \(detail)"
    case .refused(let command, let reply): return "the SMTP server refused \(command): \(reply.prefix(200))"
    case .timeout(let limit): return "the SMTP exchange took longer than \(limit)"
    case .malformedReply(let why): return "the SMTP server answered what is not a reply: \(why)"
    }
  }
}
