import AuthFlowHTTP
import Foundation
import Testing

@Suite struct CookieJarTests {
  let start = Date(timeIntervalSince1970: 1_700_000_000)

  func jar(_ headers: [String], from url: String) -> CookieJar {
    var jar = CookieJar()
    jar.receive(setCookie: headers, from: url, now: start)
    return jar
  }

  func names(_ jar: CookieJar, for url: String, at offset: TimeInterval = 0) -> [String] {
    jar.cookies(for: url, now: start.addingTimeInterval(offset)).map(\.name)
  }

  /// A tenant that sets a new cookie on every answer: the jar keeps what a browser keeps (180 a
  /// domain, 3,000 in all, the least recently set going first), and a cookie over 4 KiB is ignored
  /// without deleting its namesake.
  @Test func theJarIsBoundedAsABrowsersIs() {
    var jar = CookieJar()
    jar.receive(setCookie: (0..<200).map { "c\($0)=v" }, from: "https://one.example.com/", now: start)
    #expect(jar.all.count == CookieJar.maxPerDomain)
    #expect(jar.all.first?.name == "c20")
    #expect(jar.all.last?.name == "c199")
    for host in 0..<20 {
      jar.receive(setCookie: (0..<170).map { "h\($0)=v" }, from: "https://h\(host).example.com/", now: start)
    }
    #expect(jar.all.count == CookieJar.maxTotal)
    #expect(jar.all.last?.domain == "h19.example.com")
    #expect(!jar.all.contains { $0.domain == "one.example.com" })
    jar.receive(setCookie: ["h0=kept"], from: "https://h19.example.com/", now: start)
    jar.receive(
      setCookie: ["h0=\(String(repeating: "x", count: CookieJar.maxCookieBytes))"], from: "https://h19.example.com/",
      now: start)
    #expect(jar.all.last?.value == "kept")
    #expect(jar.all.count == CookieJar.maxTotal)
  }

  @Test func hostOnlyCookieStaysOnItsHost() {
    let jar = jar(["host=1"], from: "https://login.example.com/")
    #expect(names(jar, for: "https://login.example.com/x") == ["host"])
    #expect(names(jar, for: "https://sub.login.example.com/").isEmpty)
    #expect(names(jar, for: "https://example.com/").isEmpty)
  }

  @Test func domainCookieReachesSubdomains() {
    let jar = jar(["wide=1; Domain=.Example.com"], from: "https://login.example.com/")
    #expect(names(jar, for: "https://example.com/") == ["wide"])
    #expect(names(jar, for: "https://a.b.example.com/") == ["wide"])
    #expect(names(jar, for: "https://notexample.com/").isEmpty)
  }

  @Test func foreignDomainIsRejected() {
    let jar = jar(["evil=1; Domain=other.com"], from: "https://login.example.com/")
    #expect(jar.all.isEmpty)
  }

  @Test func pathMatchingFollowsRFC6265() {
    let jar = jar(["p=1; Path=/app", "d=1"], from: "https://example.com/app/login/start")
    #expect(names(jar, for: "https://example.com/app") == ["p"])
    #expect(names(jar, for: "https://example.com/app/x") == ["p"])
    #expect(names(jar, for: "https://example.com/application").isEmpty)
    #expect(names(jar, for: "https://example.com/app/login/other") == ["d", "p"])
  }

  @Test func secureCookiesNeedASecureContext() {
    let jar = jar(["s=1; Secure"], from: "https://example.com/")
    #expect(names(jar, for: "http://example.com/").isEmpty)
    #expect(names(jar, for: "https://example.com/") == ["s"])
    let local = self.jar(["s=1; Secure"], from: "http://127.0.0.1:8080/")
    #expect(names(local, for: "http://127.0.0.1:8080/") == ["s"])
  }

  @Test func maxAgeWinsOverExpiresAndBothExpire() {
    let jar = jar(
      ["short=1; Max-Age=60; Expires=Wed, 21 Oct 2099 07:28:00 GMT", "dated=1; Expires=Tue, 14 Nov 2023 22:15:00 GMT"],
      from: "https://example.com/")
    #expect(names(jar, for: "https://example.com/", at: 59) == ["short", "dated"])
    #expect(names(jar, for: "https://example.com/", at: 60) == ["dated"])
    #expect(names(jar, for: "https://example.com/", at: 100).isEmpty)
  }

  @Test func expiredCookieDeletesItsNamesake() {
    var jar = jar(["sid=1; Path=/"], from: "https://example.com/")
    jar.receive(setCookie: ["sid=; Max-Age=0; Path=/"], from: "https://example.com/", now: start)
    #expect(jar.all.isEmpty)
    jar.receive(setCookie: ["sid=2"], from: "https://example.com/", now: start)
    jar.receive(
      setCookie: ["sid=gone; Expires=Thu, 01 Jan 1970 00:00:00 GMT"], from: "https://example.com/", now: start)
    #expect(jar.all.isEmpty)
  }

  @Test func sameNameDomainAndPathReplaces() {
    var jar = jar(["sid=1"], from: "https://example.com/")
    jar.receive(setCookie: ["sid=2"], from: "https://example.com/", now: start)
    #expect(jar.cookieHeader(for: "https://example.com/", now: start) == "sid=2")
  }

  @Test func httpDateFormatsAllParse() {
    for date in ["Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994"] {
      let jar = jar(["a=1; Expires=\(date)"], from: "https://example.com/")
      #expect(jar.all.isEmpty, "\(date) is in the past, so the cookie is not stored")
    }
  }
}
