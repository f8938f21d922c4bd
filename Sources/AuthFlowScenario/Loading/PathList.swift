/// File paths packed end to end: their UTF-8 bytes in one array and where each ends in another,
/// each read back as a `String` when it is used.
///
/// What a search of a directory finds is held until every file is loaded; at 100,000 files an
/// array of `String`s took 9.6 MB (a heap object of 96 bytes a path) at the peak of the run's
/// loading, this about 4 MB (docs/benchmarks.md).
struct PathList: RandomAccessCollection, Sendable, Equatable {
  private var bytes: [UInt8] = []
  private var ends: [Int] = []
  /// Whether every byte is ASCII, where byte order and `String` order agree.
  private var isASCII = true

  init() {}

  init(_ paths: some Sequence<String>) {
    for path in paths { append(path) }
  }

  var startIndex: Int { 0 }
  var endIndex: Int { ends.count }

  subscript(position: Int) -> String {
    String(decoding: utf8(at: position), as: UTF8.self)
  }

  mutating func append(_ path: String) {
    bytes.append(contentsOf: path.utf8)
    ends.append(bytes.count)
    if isASCII, !path.utf8.allSatisfy({ $0 < 0x80 }) { isASCII = false }
  }

  mutating func append(contentsOf other: PathList) {
    let base = bytes.count
    bytes.append(contentsOf: other.bytes)
    ends.append(contentsOf: other.ends.lazy.map { base + $0 })
    isASCII = isASCII && other.isASCII
  }

  /// Whether a path starts with `prefix`, read as bytes (no `String` made).
  func contains(pathStartingWith prefix: Substring) -> Bool {
    let needle = Array(prefix.utf8)
    return indices.contains { utf8(at: $0).starts(with: needle) }
  }

  /// The paths in `String` order (as `[String].sorted()` gives them).
  func sorted() -> PathList {
    let order =
      isASCII
      ? indices.sorted { utf8(at: $0).lexicographicallyPrecedes(utf8(at: $1)) } : indices.sorted { self[$0] < self[$1] }
    var sorted = PathList()
    sorted.isASCII = isASCII
    sorted.bytes.reserveCapacity(bytes.count)
    sorted.ends.reserveCapacity(ends.count)
    for position in order {
      sorted.bytes.append(contentsOf: utf8(at: position))
      sorted.ends.append(sorted.bytes.count)
    }
    return sorted
  }

  /// The paths of `isIncluded`, in order.
  func filter(_ isIncluded: (String) -> Bool) -> PathList {
    var kept = PathList()
    for position in indices where isIncluded(self[position]) { kept.append(self[position]) }
    return kept
  }

  private func utf8(at position: Int) -> ArraySlice<UInt8> {
    bytes[(position == 0 ? 0 : ends[position - 1])..<ends[position]]
  }
}
