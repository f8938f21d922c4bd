import NIOSSL

/// The client's TLS settings: TLS 1.2 or later, full certificate and host name verification,
/// trusting the system's roots or only the certificates of one PEM file.
enum IMAPTLS {
  static func context(for configuration: IMAPConfiguration) throws(IMAPError) -> NIOSSLContext {
    var tls = TLSConfiguration.makeClientConfiguration()
    tls.minimumTLSVersion = .tlsv12
    tls.certificateVerification = .fullVerification
    switch configuration.trustRoots {
    case .system:
      tls.trustRoots = .default
    case .pemFile(let path):
      do {
        tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(path))
      } catch {
        throw .unreadableTrustRoots(path, error)
      }
    }
    do {
      return try NIOSSLContext(configuration: tls)
    } catch {
      throw .tlsContext(error)
    }
  }
}

extension IMAPError {
  static func unreadableTrustRoots(_ path: String, _ error: any Error) -> IMAPError {
    IMAPError(.tlsFailed, "cannot read the CA certificates in \(path): \(error)")
  }

  static func tlsContext(_ error: any Error) -> IMAPError {
    IMAPError(.tlsFailed, "cannot set up TLS: \(error)")
  }
}
