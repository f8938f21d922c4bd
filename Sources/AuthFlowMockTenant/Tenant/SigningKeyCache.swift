public import AuthFlowJOSE
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The embedded mock's RSA signing key, kept between runs in the user's cache directory, so that
/// starting the mock does not generate an RSA-2048 key each time (tens of milliseconds of CPU,
/// and variable: most of a one-scenario run). A real tenant keeps its key too; only the fixture's
/// first key is kept — keys rotated during a run are fresh.
///
/// The file is `mock-signing-key.pem` (PKCS#8), made `0600` in a `0700` directory, written
/// atomically. A file that is not the user's own, is readable or writable by others, or does not
/// parse is not used: a fresh key replaces it. Any failure to read or write the cache only means
/// a fresh key, never a failed start.
public struct SigningKeyCache: Sendable {
  /// The cache directory.
  public let directory: String

  /// The key file's name inside ``directory``.
  public static let fileName = "mock-signing-key.pem"

  public init(directory: String) {
    self.directory = directory
  }

  /// The user's cache: `$AUTHFLOW_CACHE_DIR`, else `$XDG_CACHE_HOME/authflow`, else
  /// `$HOME/.cache/authflow`; nil (no cache) when `AUTHFLOW_CACHE_DIR` is `off` or no directory is
  /// known.
  public static func user(environment: [String: String]) -> SigningKeyCache? {
    if let explicit = environment["AUTHFLOW_CACHE_DIR"] {
      return explicit.isEmpty || explicit == "off" ? nil : SigningKeyCache(directory: explicit)
    }
    if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
      return SigningKeyCache(directory: xdg + "/authflow")
    }
    if let home = environment["HOME"], home.hasPrefix("/") {
      return SigningKeyCache(directory: home + "/.cache/authflow")
    }
    return nil
  }

  /// The key file's path.
  public var path: String { directory + "/" + Self.fileName }

  /// The kept key with `kid` (its RFC 7638 thumbprint when nil), or a fresh key, kept for the next
  /// run.
  public func key(kid: String?) throws -> SigningKey {
    if let pem = readOwnPrivateFile(), let key = try? SigningKey(rsaPEM: pem, kid: kid) {
      return key
    }
    let key = try SigningKey.generateRSA(kid: kid)
    if let pem = key.rsaPEM { store(pem) }
    return key
  }

  /// The file's text, only when it is a regular file of this user that nobody else can read or
  /// write.
  private func readOwnPrivateFile() -> String? {
    var status = stat()
    guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_uid == getuid(),
      status.st_mode & 0o077 == 0, status.st_size < 64 * 1024
    else { return nil }
    return try? String(contentsOfFile: path, encoding: .utf8)
  }

  /// Writes the key `0600` beside its final name and renames it into place (a concurrent run
  /// writes its own key whole, never a mix).
  private func store(_ pem: String) {
    guard
      (try? FileManager.default.createDirectory(
        atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])) != nil
    else { return }
    let temporary = directory + "/.\(Self.fileName).\(getpid()).\(UInt32.random(in: 0...UInt32.max))"
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { return }
    let bytes = Array(pem.utf8)
    let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    close(descriptor)
    if written == bytes.count, rename(temporary, path) == 0 { return }
    unlink(temporary)
  }
}
