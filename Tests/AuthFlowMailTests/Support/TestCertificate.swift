import Foundation

/// A self-signed certificate for 127.0.0.1, made once per test run with `openssl req`.
struct TestCertificate: Sendable {
  let certificatePath: String
  let keyPath: String

  static let shared = Task<TestCertificate, any Error> { try await make() }

  private static func make() async throws -> TestCertificate {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("authflow-mail-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let certificate = directory.appendingPathComponent("cert.pem").path
    let key = directory.appendingPathComponent("key.pem").path
    let result = try await ExternalProcess.run(
      [
        "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=127.0.0.1",
        "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", key, "-out", certificate,
      ], timeout: .seconds(300))
    guard result.status == 0 else { throw TestTimeout(description: "openssl failed: \(result.error)") }
    return TestCertificate(certificatePath: certificate, keyPath: key)
  }
}
