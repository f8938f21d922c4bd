import Foundation

/// The scenarios the benchmark validates and runs: a few realistic flows against the embedded
/// mock (Web Auth login with an SSO second login, discovery and JWKS, /userinfo, refresh-token
/// rotation), each written as many times as needed under a unique name.
///
/// Every one passes against the embedded mock and can run any number of times concurrently: no
/// scenario changes state another depends on.
public enum ScenarioCorpus {
  /// One code+PKCE login through Universal Login with ID-token validation: the docs/design.md §7 login flow.
  public static func loginFlow(name: String, audience: String? = loginAudience) -> String {
    // With an audience the mock signs two tokens (ID token, JWT access token); without one, one
    // (the access token is opaque, docs/protocol.md §3.2).
    let audienceLine = audience.map { "\n      audience: \($0)" } ?? ""
    let accessTokenCheck =
      audience.map { "\n      access_token.claims.aud: { contains: \"\($0)\" }" } ?? ""
    return """
      scenario: \(name)
      tags: [bench]
      client: native
      steps:
        - id: login
          web_auth:
            login: { email: "${{ tenant.users.alice.email }}", password: "${{ tenant.users.alice.password }}" }\(audienceLine)
          expect:
            id_token_valid: true
            id_token.claims.email: ${{ tenant.users.alice.email }}\(accessTokenCheck)

      """
  }

  /// The API the main login flow asks for (defined by the built-in fixture).
  public static let loginAudience = "https://api.example.com"

  /// The flows files are drawn from, in turn.
  static let templates: [@Sendable (String) -> String] = [webAuthWithSSO, discovery, userInfo, refreshRotation]

  /// The `index`th file of a corpus: templates in turn, each under a unique scenario name.
  public static func scenario(_ index: Int) -> String {
    templates[index % templates.count]("bench scenario \(index)")
  }

  /// Writes `count` scenario files into `directory` (`scenario-00000.yaml`, …) and returns
  /// their paths.
  @discardableResult
  public static func write(count: Int, into directory: String) throws -> [String] {
    try (0..<count).map { index in
      let path = (directory as NSString).appendingPathComponent(String(format: "scenario-%05d.yaml", index))
      try scenario(index).write(toFile: path, atomically: false, encoding: .utf8)
      return path
    }
  }

  static func webAuthWithSSO(name: String) -> String {
    """
    # yaml-language-server: $schema=../schemas/scenario.schema.json
    scenario: \(name)
    tags: [bench, web-auth]
    client: native
    vars:
      alice: ${{ tenant.users.alice }}
    steps:
      - id: login
        web_auth:
          browser: phone
          login: { email: "${{ vars.alice.email }}", password: "${{ vars.alice.password }}" }
        expect:
          pages: [login, callback]
          id_token_valid: true
          id_token.claims.email: ${{ vars.alice.email }}
          id_token.claims.aud: ${{ client.client_id }}
          token_type: Bearer
          expires_in: { gt: 0 }
          authorize_parameters.code_challenge_method: S256
          authorize_parameters.state: { matches: "^[A-Za-z0-9_-]{43}$" }
      - id: nonce_echoed
        assert:
          that: ${{ steps.login.id_token.claims.nonce == steps.login.authorize_parameters.nonce }}
          message: the ID token must carry the nonce sent to /authorize
      - id: sso
        needs: [login]
        web_auth: { browser: phone }
        expect:
          pages: [callback]
          id_token.claims.sub: ${{ vars.alice.user_id }}

    """
  }

  static func discovery(name: String) -> String {
    """
    # yaml-language-server: $schema=../schemas/scenario.schema.json
    scenario: \(name)
    tags: [bench, discovery]
    steps:
      - id: discovery
        http:
          url: .well-known/openid-configuration
        expect:
          status: 200
          body.issuer: ${{ tenant.issuer }}
          body.code_challenge_methods_supported: { contains: S256 }
      - id: jwks
        http:
          url: ${{ steps.discovery.body.jwks_uri }}
        expect:
          status: 200
          body.keys.0.alg: RS256

    """
  }

  static func userInfo(name: String) -> String {
    """
    # yaml-language-server: $schema=../schemas/scenario.schema.json
    scenario: \(name)
    tags: [bench, userinfo]
    requires: [userinfo]
    client: native
    steps:
      - id: login
        login:
          username: ${{ tenant.users.alice.email }}
          password: ${{ tenant.users.alice.password }}
          scope: openid profile email
      - id: info
        userinfo: { access_token: "${{ steps.login.access_token }}" }
        expect:
          sub: ${{ tenant.users.alice.user_id }}
          email: ${{ tenant.users.alice.email }}
      - id: bad_token
        needs: []
        userinfo: { access_token: not-a-token }
        expect:
          error.status: 401

    """
  }

  static func refreshRotation(name: String) -> String {
    """
    # yaml-language-server: $schema=../schemas/scenario.schema.json
    scenario: \(name)
    tags: [bench, renew]
    requires: [refresh_token_rotation]
    client: native
    vars:
      user: ${{ tenant.users.alice }}
    steps:
      - id: login
        login:
          username: ${{ vars.user.email }}
          password: ${{ vars.user.password }}
          scope: openid profile email offline_access
        expect:
          refresh_token: { exists: true }
      - id: renew
        renew: { refresh_token: "${{ steps.login.refresh_token }}" }
        expect:
          refresh_token: { exists: true, not_equals: "${{ steps.login.refresh_token }}" }
          id_token.claims.sub: ${{ vars.user.user_id }}
      - id: reuse
        renew: { refresh_token: "${{ steps.login.refresh_token }}" }
        expect:
          error.code: invalid_grant

    """
  }
}
