import Foundation

/// Parses the dates of `Expires`, `Retry-After` and `Date` with the tolerant algorithm of
/// RFC 6265 §5.1.1, which accepts IMF-fixdate, RFC 850 and asctime forms alike.
enum HTTPDate {
  static func parse(_ text: String) -> Date? {
    var time: (hour: Int, minute: Int, second: Int)?
    var day: Int?
    var month: Int?
    var year: Int?
    let tokens = text.split { !isDateToken($0) }
    for token in tokens {
      if time == nil, let parsed = parseTime(token) {
        time = parsed
      } else if day == nil, token.count <= 2, token.allSatisfy(\.isASCIIDigit), let value = Int(token) {
        day = value
      } else if month == nil, token.count >= 3, let index = months.firstIndex(of: token.prefix(3).lowercased()) {
        month = index + 1
      } else if year == nil, (2...4).contains(token.count), token.allSatisfy(\.isASCIIDigit), let value = Int(token) {
        year = value
      }
    }
    guard let time, let day, let month, var year else { return nil }
    if (70...99).contains(year) { year += 1900 } else if (0...69).contains(year) { year += 2000 }
    guard (1...31).contains(day), year >= 1601, time.hour <= 23, time.minute <= 59, time.second <= 59 else {
      return nil
    }
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
    let components = DateComponents(
      year: year, month: month, day: day, hour: time.hour, minute: time.minute, second: time.second)
    return calendar.date(from: components)
  }

  private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

  private static func isDateToken(_ character: Character) -> Bool {
    character.isLetter || character.isNumber || character == ":"
  }

  private static func parseTime(_ token: Substring) -> (hour: Int, minute: Int, second: Int)? {
    let parts = token.split(separator: ":", omittingEmptySubsequences: false)
    guard parts.count == 3, parts.allSatisfy({ (1...2).contains($0.count) && $0.allSatisfy(\.isASCIIDigit) }),
      let hour = Int(parts[0]), let minute = Int(parts[1]), let second = Int(parts[2])
    else { return nil }
    return (hour, minute, second)
  }
}

extension Character {
  var isASCIIDigit: Bool { isASCII && isNumber }
}
