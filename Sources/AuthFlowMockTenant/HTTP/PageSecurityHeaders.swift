import Hummingbird

/// The headers every Universal Login page carries: no framing by other sites (clickjacking; RFC
/// 9700 §4.16), no MIME sniffing, no referrer to other sites (the page URLs carry the transaction
/// `state`), and no caching (pages can carry CSRF tokens and reset tickets).
///
/// `same-origin`, not `no-referrer`: under `no-referrer` a browser sends `Origin: null` with the
/// page's own form posts (Fetch §3.1 "serializing a request origin"), which the origin check of
/// ``TransactionBinding`` must refuse, so no real browser could sign in.
enum PageSecurityHeaders {
  /// Adds the headers; `frameAncestors` is the CSP `frame-ancestors` source list.
  static func apply(frameAncestors: String, to fields: inout HTTPFields) {
    if frameAncestors == "'none'" { RateLimitMiddleware.set("X-Frame-Options", "DENY", on: &fields) }
    RateLimitMiddleware.set("Content-Security-Policy", "frame-ancestors \(frameAncestors)", on: &fields)
    RateLimitMiddleware.set("X-Content-Type-Options", "nosniff", on: &fields)
    RateLimitMiddleware.set("Referrer-Policy", "same-origin", on: &fields)
    fields[.cacheControl] = "no-store"
  }
}
