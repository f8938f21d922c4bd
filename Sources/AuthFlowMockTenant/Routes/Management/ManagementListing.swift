import AuthFlowCore
import Hummingbird

/// The query options every Management API v2 list shares: `page` (0-based) and `per_page`
/// (default 50, at most 100), `include_totals` (an object `{"start","limit",<items>}` instead of a
/// bare array), `fields`/`include_fields`, and `sort=<field>:1|-1`. auth0-python's generated client
/// sends `include_totals=true` and pages until it gets an empty page, so both must be honoured.
struct ManagementListing {
  var page = 0
  var perPage = 50
  var includeTotals = false
  var fields: Fields?
  /// `(field, ascending)`.
  var sort: (field: String, ascending: Bool)?

  static let maximumPerPage = 100

  /// Reads the query, or the Management API's 400 for a bad value.
  init(query: RequestParameters) throws(ManagementError) {
    if let text = query.string("page") {
      guard let page = Int(text), page >= 0 else { throw ManagementError.queryValidation("page", "an integer ≥ 0") }
      self.page = page
    }
    if let text = query.string("per_page") {
      guard let perPage = Int(text), (1...Self.maximumPerPage).contains(perPage) else {
        throw ManagementError.queryValidation("per_page", "an integer from 1 to \(Self.maximumPerPage)")
      }
      self.perPage = perPage
    }
    if let text = query.string("include_totals") {
      guard let flag = Bool(text.lowercased()) else {
        throw ManagementError.queryValidation("include_totals", "a boolean")
      }
      includeTotals = flag
    }
    fields = try Fields(query: query)
    if let text = query.string("sort") {
      let parts = text.split(separator: ":", maxSplits: 1).map(String.init)
      guard parts.count == 2, !parts[0].isEmpty, parts[1] == "1" || parts[1] == "-1" else {
        throw ManagementError.queryValidation("sort", "<field>:1 or <field>:-1")
      }
      sort = (parts[0], parts[1] == "1")
    }
  }

  /// One page of `items` (already in the default order), shaped as the query asked.
  func respond(_ items: [Value], key: String) -> Value {
    var ordered = items
    if let sort {
      ordered.sort { left, right in
        let a = left.member(sort.field)?.jsonText(revealSecrets: true) ?? ""
        let b = right.member(sort.field)?.jsonText(revealSecrets: true) ?? ""
        return sort.ascending ? a < b : a > b
      }
    }
    // `page` is any integer ≥ 0 from the query: a page past Int.max items is past the end.
    let (product, overflow) = page.multipliedReportingOverflow(by: perPage)
    let offset = overflow ? Int.max : product
    let start = min(offset, ordered.count)
    let slice = ordered[start..<min(start + perPage, ordered.count)].map { fields?.apply(to: $0) ?? $0 }
    guard includeTotals else { return .array(Array(slice)) }
    return .object([
      "start": .int(offset), "limit": .int(perPage), "total": .int(ordered.count), key: .array(Array(slice)),
    ])
  }

  /// `fields=a,b` with `include_fields` (default true): which members of an object to keep.
  struct Fields {
    var names: Set<String>
    var include: Bool

    init?(query: RequestParameters) throws(ManagementError) {
      guard let list = query.string("fields") else { return nil }
      names = Set(list.split(separator: ",").map { String($0).trimmingWhitespace() })
      include = true
      if let text = query.string("include_fields") {
        guard let flag = Bool(text.lowercased()) else {
          throw ManagementError.queryValidation("include_fields", "a boolean")
        }
        include = flag
      }
    }

    func apply(to value: Value) -> Value {
      guard let members = value.objectValue else { return value }
      return .object(members.filter { names.contains($0.key) == include })
    }
  }
}

extension ManagementError {
  static func queryValidation(_ name: String, _ expected: String) -> ManagementError {
    ManagementError(
      status: .badRequest, message: "Query validation error: '\(name)' must be \(expected)",
      errorCode: "invalid_query_string")
  }
}
