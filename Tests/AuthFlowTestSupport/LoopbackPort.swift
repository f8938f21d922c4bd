#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Loopback ports for tests that need a fixed one.
public enum LoopbackPort {
  public struct Unavailable: Error {}

  /// A loopback port nothing listens on now (bound to 0, read, released): for a server that must
  /// listen on a fixed port, or a client that must find none.
  public static func unused() throws -> Int {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { throw Unavailable() }
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
        bind(descriptor, socketAddress, length) == 0 && getsockname(descriptor, socketAddress, &length) == 0
      }
    }
    guard bound else { throw Unavailable() }
    return Int(UInt16(bigEndian: address.sin_port))
  }
}
