import Foundation

/// The `date` of a SEARCH `SINCE` key: `07-Dec-2026`.
enum IMAPSearchDate {
  private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

  /// The calendar day of `date` in UTC. Servers compare SINCE with the day of a message's
  /// INTERNALDATE in their own time zone, so callers that need an exact cut-off should search a
  /// day earlier and filter.
  static func format(_ date: Date) -> String {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
    let parts = calendar.dateComponents([.year, .month, .day], from: date)
    let day = parts.day ?? 1
    let month = months[min(max((parts.month ?? 1) - 1, 0), 11)]
    let year = parts.year ?? 1970
    return (day < 10 ? "0\(day)" : "\(day)") + "-\(month)-\(year)"
  }
}
