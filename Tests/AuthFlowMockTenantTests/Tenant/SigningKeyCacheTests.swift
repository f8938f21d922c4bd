import AuthFlowJOSE
import AuthFlowMockTenant
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The embedded mock's first key, kept between runs (docs/tenants.md, "The signing key").
@Suite("The mock's signing key cache")
struct SigningKeyCacheTests {
  /// A fresh directory under the system's temporary directory, removed by the caller.
  static func scratch() throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("authflow-keycache-\(UUID())").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }

  static func mode(_ path: String) -> mode_t {
    var status = stat()
    return stat(path, &status) == 0 ? status.st_mode & 0o777 : 0
  }

  @Test("The first start keeps its key 0600 in a 0700 directory, and the next start uses it")
  func keptAndReused() throws {
    let root = try Self.scratch()
    defer { try? FileManager.default.removeItem(atPath: root) }
    let cache = SigningKeyCache(directory: root + "/authflow")
    let first = try cache.key(kid: nil)
    #expect(Self.mode(cache.path) == 0o600)
    #expect(Self.mode(cache.directory) == 0o700)
    let second = try cache.key(kid: nil)
    #expect(second.publicJWK == first.publicJWK)
    #expect(second.kid == first.kid)
    // A fixture's kid names the kept key without changing it.
    let named = try cache.key(kid: "fixture-kid")
    #expect(named.kid == "fixture-kid")
    #expect(named.publicJWK?.n == first.publicJWK?.n)
    // Two tenants started from the cache publish the same key, as a real tenant does between runs.
    let fixture = try #require(FixtureLoader.loadDefault().fixture)
    let one = try MockTenant(fixture: fixture, keyCache: cache)
    let two = try MockTenant(fixture: fixture, keyCache: cache)
    #expect(one.signingKey.publicJWK == two.signingKey.publicJWK)
    #expect(try MockTenant(fixture: fixture).signingKey.publicJWK != one.signingKey.publicJWK)
  }

  @Test("A key file others can read, or that does not parse, is replaced by a fresh key")
  func untrustedFilesAreReplaced() throws {
    let root = try Self.scratch()
    defer { try? FileManager.default.removeItem(atPath: root) }
    let cache = SigningKeyCache(directory: root)
    let kept = try cache.key(kid: nil)
    // Readable by others: someone else may know it, so it is not this user's key any more.
    chmod(cache.path, 0o644)
    let afterLoosePermissions = try cache.key(kid: nil)
    #expect(afterLoosePermissions.publicJWK != kept.publicJWK)
    #expect(Self.mode(cache.path) == 0o600)
    // Garbage in the file.
    try "not a key".write(toFile: cache.path, atomically: false, encoding: .utf8)
    chmod(cache.path, 0o600)
    let afterGarbage = try cache.key(kid: nil)
    #expect(afterGarbage.publicJWK != afterLoosePermissions.publicJWK)
    #expect(try cache.key(kid: nil).publicJWK == afterGarbage.publicJWK)
  }

  @Test("A cache that cannot be written still gives a key")
  func unwritableCacheStillStarts() throws {
    let root = try Self.scratch()
    defer { try? FileManager.default.removeItem(atPath: root) }
    // The "directory" is a file: nothing can be created under it.
    try "x".write(toFile: root + "/file", atomically: false, encoding: .utf8)
    let cache = SigningKeyCache(directory: root + "/file/authflow")
    let first = try cache.key(kid: nil)
    let second = try cache.key(kid: nil)
    #expect(first.publicJWK != second.publicJWK)
  }

  @Test("Where the cache lives: AUTHFLOW_CACHE_DIR, then XDG_CACHE_HOME, then HOME; off turns it off")
  func location() {
    #expect(SigningKeyCache.user(environment: ["AUTHFLOW_CACHE_DIR": "/c", "HOME": "/h"])?.directory == "/c")
    #expect(SigningKeyCache.user(environment: ["AUTHFLOW_CACHE_DIR": "off", "HOME": "/h"]) == nil)
    #expect(SigningKeyCache.user(environment: ["XDG_CACHE_HOME": "/x", "HOME": "/h"])?.directory == "/x/authflow")
    #expect(SigningKeyCache.user(environment: ["HOME": "/h"])?.directory == "/h/.cache/authflow")
    #expect(SigningKeyCache.user(environment: ["XDG_CACHE_HOME": "relative"])?.directory == nil)
    #expect(SigningKeyCache.user(environment: [:]) == nil)
  }
}
