/// Splits a `multipart/*` body at its boundary delimiters (RFC 2046 §5.1.1).
enum MultipartBody {
  /// The body parts between `--boundary` lines, without the line break that belongs to each
  /// delimiter; the preamble and epilogue are dropped. A part that is never closed runs to the end.
  /// One pass over the lines, comparing at most the boundary's length on each.
  static func parts(of body: ArraySlice<UInt8>, boundary: String) -> [ArraySlice<UInt8>] {
    let delimiter = Array(("--" + boundary).utf8)
    var parts: [ArraySlice<UInt8>] = []
    var partStart: Int?
    var lineStart = body.startIndex
    while lineStart < body.endIndex {
      let lineEnd = body[lineStart...].firstIndex(of: MIMEBytes.lf) ?? body.endIndex
      let line = body[lineStart..<lineEnd]
      if line.count >= delimiter.count, line.prefix(delimiter.count).elementsEqual(delimiter) {
        let rest = line.dropFirst(delimiter.count)
        let isClose = rest.starts(with: [UInt8(ascii: "-"), UInt8(ascii: "-")])
        if isClose || MIMEBytes.trimmed(rest).isEmpty {
          if let start = partStart {
            // The CRLF before the delimiter belongs to it.
            var end = lineStart
            if end > start, body[end - 1] == MIMEBytes.lf { end -= 1 }
            if end > start, body[end - 1] == MIMEBytes.cr { end -= 1 }
            parts.append(body[start..<max(start, end)])
          }
          if isClose { return parts }
          partStart = min(lineEnd + 1, body.endIndex)
        }
      }
      lineStart = lineEnd + 1
    }
    if let start = partStart, start < body.endIndex { parts.append(body[start...]) }
    return parts
  }
}
