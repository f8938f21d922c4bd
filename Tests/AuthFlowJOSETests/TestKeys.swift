import AuthFlowCore
import AuthFlowJOSE
import Foundation

/// Keys generated once for the whole test run (RSA generation is slow).
enum TestKeys {
  static let rsa: SigningKey = {
    do {
      return try SigningKey.generateRSA(kid: "test-rsa")
    } catch {
      fatalError("RSA key generation failed: \(error)")
    }
  }()
  static let otherRSA: SigningKey = {
    do {
      return try SigningKey.generateRSA(kid: "test-rsa")
    } catch {
      fatalError("RSA key generation failed: \(error)")
    }
  }()
  static let es256 = SigningKey.generateES256(kid: "test-ec")

  static var jwks: JWKSet { JWKSet(keys: [rsa.publicJWK, es256.publicJWK].compactMap { $0 }) }
}
