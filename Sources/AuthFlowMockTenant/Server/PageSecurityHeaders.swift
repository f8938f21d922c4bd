import Hummingbird

/// The headers every Universal Login page carries: no framing by other sites (clickjacking; RFC
/// 9700 §4.16), no MIME sniffing, no referrer (the page URLs carry the transaction `state`), and
/// no caching (pages can carry CSRF tokens and reset tickets).
enum PageSecurityHeaders {
  /// Adds the headers; `frameAncestors` is the CSP `frame-ancestors` source list.
  static func apply(frameAncestors: String, to fields: inout HTTPFields) {
    if frameAncestors == "'none'" { RateLimitMiddleware.set("X-Frame-Options", "DENY", on: &fields) }
    RateLimitMiddleware.set("Content-Security-Policy", "frame-ancestors \(frameAncestors)", on: &fields)
    RateLimitMiddleware.set("X-Content-Type-Options", "nosniff", on: &fields)
    RateLimitMiddleware.set("Referrer-Policy", "no-referrer", on: &fields)
    fields[.cacheControl] = "no-store"
  }
}
