import NIOCore
import Testing

@testable import AuthFlowMail

@Suite struct IMAPResponseFramerTests {
  private func frames(_ chunks: [[UInt8]], limits: IMAPConfiguration.Limits = .init()) throws -> [IMAPResponseFrame] {
    var framer = IMAPResponseFramer(limits: limits)
    var frames: [IMAPResponseFrame] = []
    for chunk in chunks {
      framer.append(ByteBuffer(bytes: chunk))
      while let frame = try framer.next() { frames.append(frame) }
    }
    return frames
  }

  private static let trickyBody: [UInt8] =
    Array("Subject: x\r\n\r\n) * 1 FETCH (UID 9 BODY[] {3}\r\n.\r\n".utf8) + [0, 0x7B, 0x29, 0x0D, 0x0A]

  @Test func splitsLinesAndStripsLineEnds() throws {
    let result = try frames([Array("* OK hi\r\nA0001 OK done\r\n* BYE\n".utf8)])
    #expect(result.map(\.firstLine) == ["* OK hi", "A0001 OK done", "* BYE"])
  }

  @Test func literalWithParenthesesStarsCRLFAndNULIsKeptWhole() throws {
    let head = Array("* 1 FETCH (UID 7 BODY[] {\(Self.trickyBody.count)}\r\n".utf8)
    let stream = head + Self.trickyBody + Array(" FLAGS (\\Seen))\r\nA0001 OK done\r\n".utf8)
    let result = try frames([stream])
    #expect(result.count == 2)
    #expect(result.first?.literals == [Self.trickyBody])
    #expect(result.first?.lines.last.map { String(decoding: $0, as: UTF8.self) } == " FLAGS (\\Seen))")
  }

  @Test func sameResultWhenBytesArriveOneAtATime() throws {
    let head = Array("* 1 FETCH (UID 7 BODY[] {\(Self.trickyBody.count)}\r\n".utf8)
    let stream = head + Self.trickyBody + Array(")\r\nA0001 OK done\r\n".utf8)
    #expect(try frames(stream.map { [$0] }) == frames([stream]))
  }

  @Test func lineWithoutLineEndPastTheLimitIsRefused() {
    let limits = IMAPConfiguration.Limits(maxLineBytes: 1024)
    #expect(throws: IMAPError.lineTooLong(limit: 1024)) {
      try frames(
        [Array(repeating: UInt8(ascii: "a"), count: 600), Array(repeating: UInt8(ascii: "a"), count: 600)],
        limits: limits)
    }
  }

  @Test func literalAnnouncedPastTheLimitIsRefusedBeforeItsBytes() {
    #expect(throws: IMAPError.literalTooLarge(announced: 999_999_999, limit: 10 * 1024 * 1024)) {
      try frames([Array("* 1 FETCH (BODY[] {999999999}\r\n".utf8)])
    }
    #expect(throws: IMAPError.self) {
      try frames([Array("* 1 FETCH (BODY[] {99999999999999999999999}\r\n".utf8)])
    }
  }

  @Test func incompleteLiteralWaits() throws {
    #expect(try frames([Array("* 1 FETCH (BODY[] {10}\r\nabc".utf8)]).isEmpty)
  }
}
