import AuthFlowCore

/// The instances of a plan, in order: ``PlannedInstance``s held as they are (a suite that keeps
/// its scenarios), or packed — every text in one byte array, each instance one fixed-size entry
/// of 32 bytes, directories and tag lists stored once — and made into a ``PlannedInstance`` when
/// one is read.
///
/// `authflow run` plans from the index alone (``ScenarioSource/planned(embedded:)``): a
/// 100,000-scenario plan is about 70 bytes an instance packed, against about 300 as separate
/// values with their strings (docs/benchmarks.md).
public struct PlannedInstances: RandomAccessCollection, Sendable {
  private enum Storage: Sendable {
    case array([PlannedInstance])
    /// The index, and which of its entries are in this list (nil: all of them, in order).
    case packed(PlanIndex, selected: [UInt32]?)
  }

  private let storage: Storage

  /// The instances as they are.
  public init(_ instances: [PlannedInstance]) {
    storage = .array(instances)
  }

  init(index: PlanIndex, selected: [UInt32]? = nil) {
    storage = .packed(index, selected: selected)
  }

  public var startIndex: Int { 0 }

  public var endIndex: Int {
    switch storage {
    case .array(let instances): instances.count
    case .packed(let index, let selected): selected?.count ?? index.count
    }
  }

  public subscript(position: Int) -> PlannedInstance {
    switch storage {
    case .array(let instances): instances[position]
    case .packed(let index, let selected): index.instance(at: selected.map { Int($0[position]) } ?? position)
    }
  }

  /// Whether the instance at `position` moves the mock's clock, without making it.
  public func movesMockClock(at position: Int) -> Bool {
    switch storage {
    case .array(let instances): instances[position].movesMockClock
    case .packed(let index, let selected): index.movesMockClock(at: selected.map { Int($0[position]) } ?? position)
    }
  }

  /// True when the instances are packed (``PlanIndex``) rather than held one by one.
  public var isPacked: Bool {
    if case .packed = storage { return true }
    return false
  }

  /// The instances `isIncluded` takes, in order; a packed list stays packed.
  public func selecting(_ isIncluded: (PlannedInstance) -> Bool) -> PlannedInstances {
    switch storage {
    case .array(let instances):
      return PlannedInstances(instances.filter(isIncluded))
    case .packed(let index, let selected):
      var kept: [UInt32] = []
      for position in indices where isIncluded(self[position]) {
        kept.append(selected?[position] ?? UInt32(position))
      }
      return PlannedInstances(index: index, selected: kept.count == index.count ? nil : kept)
    }
  }
}

/// The packed form of a plan's instances (see ``PlannedInstances``): built once, file by file,
/// then only read.
final class PlanIndex: Sendable {
  /// One instance: where its texts are in ``text`` (the file as its directory, stored once, and
  /// the rest of its path), its matrix position, where its scenario starts, its tags.
  struct Entry: Sendable {
    var directory: UInt32
    var base: UInt32
    var name: UInt32
    /// The base's and the name's lengths, 16 bits each.
    var lengths: UInt32
    /// The matrix position; the top bit says the scenario moves the mock's clock.
    var index: UInt32
    var line: UInt32
    var column: UInt32
    var tags: UInt32
  }

  private let text: [UInt8]
  private let entries: [Entry]
  /// Each directory once, with its trailing `/` (empty for a bare file name).
  private let directories: [String]
  /// Each distinct list of tags once.
  private let tagLists: [[String]]

  private static let movesClockBit: UInt32 = 1 << 31

  fileprivate init(text: [UInt8], entries: [Entry], directories: [String], tagLists: [[String]]) {
    self.text = text
    self.entries = entries
    self.directories = directories
    self.tagLists = tagLists
  }

  var count: Int { entries.count }

  func movesMockClock(at position: Int) -> Bool { entries[position].index & Self.movesClockBit != 0 }

  func instance(at position: Int) -> PlannedInstance {
    let entry = entries[position]
    let file = directories[Int(entry.directory)] + string(at: entry.base, length: entry.lengths >> 16)
    return PlannedInstance(
      file: file, name: string(at: entry.name, length: entry.lengths & 0xFFFF),
      index: Int(entry.index & ~Self.movesClockBit),
      location: SourceLocation(file: file, line: Int(entry.line), column: Int(entry.column)),
      tags: tagLists[Int(entry.tags)], movesMockClock: entry.index & Self.movesClockBit != 0)
  }

  private func string(at offset: UInt32, length: UInt32) -> String {
    String(decoding: text[Int(offset)..<Int(offset + length)], as: UTF8.self)
  }

  /// What the loader keeps of one scenario file until every file is loaded: its path (the
  /// loader's own string) and the rest in one byte array — where its scenario starts, its tags,
  /// whether it moves the mock's clock, its instances' names (none for a file with errors).
  struct FileRecord: Sendable {
    var file: String
    private var bytes: [UInt8] = []

    init(file: String, location: SourceLocation, tags: [String], movesMockClock: Bool, names: [String]) {
      self.file = file
      // Exactly the bytes written below: an array grown by appending would hold up to twice that.
      let texts = tags + names + (location.file == file ? [] : [location.file])
      bytes.reserveCapacity(17 + texts.reduce(0) { $0 + 4 + $1.utf8.count })
      append(UInt32(clamping: location.line))
      append(UInt32(clamping: location.column))
      bytes.append(movesMockClock ? 1 : 0)
      append(UInt32(tags.count))
      for tag in tags { append(tag) }
      append(UInt32(names.count))
      for name in names { append(name) }
      // The location's file, when it is not the scenario's own (the parser never makes one).
      if location.file != file { append(location.file) }
    }

    /// The record's fields, read back.
    var fields: (location: SourceLocation, tags: [String], movesMockClock: Bool, names: [String]) {
      var offset = 0
      let line = Int(read32(&offset))
      let column = Int(read32(&offset))
      let moves = bytes[offset] == 1
      offset += 1
      let tags = (0..<read32(&offset)).map { _ in readString(&offset) }
      let names = (0..<read32(&offset)).map { _ in readString(&offset) }
      let locationFile = offset < bytes.count ? readString(&offset) : file
      return (SourceLocation(file: locationFile, line: line, column: column), tags, moves, names)
    }

    /// The tags alone.
    var tags: [String] { fields.tags }

    private mutating func append(_ value: UInt32) {
      withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    private mutating func append(_ text: String) {
      append(UInt32(text.utf8.count))
      bytes.append(contentsOf: text.utf8)
    }

    private func read32(_ offset: inout Int) -> UInt32 {
      var value: UInt32 = 0
      for shift in 0..<4 { value |= UInt32(bytes[offset + shift]) << UInt32(8 * shift) }
      offset += 4
      return value
    }

    private func readString(_ offset: inout Int) -> String {
      let length = Int(read32(&offset))
      defer { offset += length }
      return String(decoding: bytes[offset..<(offset + length)], as: UTF8.self)
    }
  }

  /// Builds the plan from each file's instances in turn: packed, or — from the first text too
  /// long to pack (a name over 65,535 bytes) — every instance as it is.
  struct Builder {
    /// How many files will be added, when known (0: not known). Once the first ones show what a
    /// file takes, the arrays are sized for all of them: grown by doubling instead, they held up
    /// to twice their contents, and three times while one was copied to a larger buffer — the
    /// peak of a 100,000-file run (docs/benchmarks.md).
    var expectedFiles = 0
    private var filesAdded = 0
    private var text: [UInt8] = []
    private var entries: [Entry] = []
    private var directories: [String] = []
    private var directoryNumbers: [String: UInt32] = [:]
    private var tagLists: [[String]] = []
    private var tagListNumbers: [[String]: UInt32] = [:]
    /// Once a file did not fit: every instance so far, and every one after, unpacked.
    private var unpacked: [PlannedInstance]?

    /// Adds the instances of one scenario file: their names, in matrix order.
    mutating func add(
      file: String, location: SourceLocation, tags: [String], movesMockClock: Bool, names: [String]
    ) {
      guard !names.isEmpty else { return }
      if unpacked == nil,
        fits(file: file, location: location, names: names)
      {
        return addPacked(file: file, location: location, tags: tags, movesMockClock: movesMockClock, names: names)
      }
      if unpacked == nil { unpacked = Array(PlannedInstances(index: index())) }
      unpacked?.append(
        contentsOf: names.enumerated().map { index, name in
          PlannedInstance(
            file: file, name: name, index: index, location: location, tags: tags, movesMockClock: movesMockClock)
        })
    }

    /// Adds the instances of a file the loader kept as a record.
    mutating func add(_ record: FileRecord) {
      let fields = record.fields
      add(
        file: record.file, location: fields.location, tags: fields.tags, movesMockClock: fields.movesMockClock,
        names: fields.names)
    }

    /// The plan: packed, unless a text did not fit.
    func build() -> PlannedInstances {
      unpacked.map(PlannedInstances.init) ?? PlannedInstances(index: index())
    }

    /// Whether every text of the file fits an entry (checked before any of it is added).
    private func fits(file: String, location: SourceLocation, names: [String]) -> Bool {
      let base = file.utf8.lastIndex(of: UInt8(ascii: "/")).map { file.utf8[file.utf8.index(after: $0)...] }
      let texts = text.count + file.utf8.count + names.reduce(0) { $0 + $1.utf8.count }
      return location.file == file && (base?.count ?? file.utf8.count) <= 0xFFFF
        && names.count < Int(PlanIndex.movesClockBit) && names.allSatisfy { $0.utf8.count <= 0xFFFF }
        && texts <= Int(UInt32.max)
    }

    private mutating func addPacked(
      file: String, location: SourceLocation, tags: [String], movesMockClock: Bool, names: [String]
    ) {
      let slash = file.utf8.lastIndex(of: UInt8(ascii: "/"))
      let directory = slash.map { String(file[...$0]) } ?? ""
      let base = slash.map { String(file[file.utf8.index(after: $0)...]) } ?? file
      let directoryNumber = number(of: directory)
      let tagNumber = number(of: tags)
      let baseOffset = append(base)
      let baseLength = UInt32(base.utf8.count)
      for (index, name) in names.enumerated() {
        entries.append(
          Entry(
            directory: directoryNumber, base: baseOffset, name: append(name),
            lengths: baseLength << 16 | UInt32(name.utf8.count),
            index: UInt32(index) | (movesMockClock ? PlanIndex.movesClockBit : 0),
            line: UInt32(clamping: location.line), column: UInt32(clamping: location.column), tags: tagNumber))
      }
      filesAdded += 1
      if filesAdded == Self.sampleFiles, expectedFiles > filesAdded { reserveForExpectedFiles() }
    }

    /// Files added before the arrays are sized for ``expectedFiles``.
    static let sampleFiles = 64

    /// Room for ``expectedFiles`` files taking what the first ones took on average, a sixteenth
    /// more; a file past that grows the array as before.
    private mutating func reserveForExpectedFiles() {
      func room(_ count: Int) -> Int {
        let estimate = Double(count) * Double(expectedFiles) / Double(filesAdded)
        return Int(min(estimate * 17 / 16, Double(Int32.max)))
      }
      entries.reserveCapacity(room(entries.count))
      text.reserveCapacity(room(text.count))
    }

    /// The packed entries so far. Copied to their exact sizes when more than an eighth of an
    /// array is spare (arrays grown by appending hold up to twice their contents); shared when
    /// sized for the files to come.
    private func index() -> PlanIndex {
      func exact<Element>(_ array: [Element]) -> [Element] {
        array.capacity - array.count <= array.count / 8 ? array : array.withUnsafeBufferPointer { Array($0) }
      }
      return PlanIndex(text: exact(text), entries: exact(entries), directories: directories, tagLists: tagLists)
    }

    private mutating func append(_ string: String) -> UInt32 {
      let offset = UInt32(text.count)
      text.append(contentsOf: string.utf8)
      return offset
    }

    private mutating func number(of directory: String) -> UInt32 {
      if let known = directoryNumbers[directory] { return known }
      let number = UInt32(directories.count)
      directories.append(directory)
      directoryNumbers[directory] = number
      return number
    }

    private mutating func number(of tags: [String]) -> UInt32 {
      if let known = tagListNumbers[tags] { return known }
      let number = UInt32(tagLists.count)
      tagLists.append(tags)
      tagListNumbers[tags] = number
      return number
    }
  }
}
