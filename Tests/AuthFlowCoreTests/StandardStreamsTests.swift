import Testing

@testable import AuthFlowCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A closed pipe is a failed write, not a trap (`authflow run | head -1`, Issue 11).
@Suite struct StandardStreamsTests {
  @Test func aClosedPipeIsAFailedWriteNotACrash() {
    signal(SIGPIPE, SIG_IGN)
    var descriptors: [Int32] = [0, 0]
    #expect(pipe(&descriptors) == 0)
    #expect(StandardStreams.writeAll("open\n", to: descriptors[1]))
    close(descriptors[0])
    #expect(!StandardStreams.writeAll("closed\n", to: descriptors[1]))
    close(descriptors[1])
  }
}
