public import AuthFlowCore

/// Where a report object is written: the JSON report (`--reporter json:FILE`, read back by
/// `authflow report merge`), or the run's spool (``ScenarioSpool``), which keeps every field
/// exactly — durations to the attosecond, no result and a `null` result apart — so that a report
/// read back renders byte for byte as the one written.
public enum ReportForm: Sendable, Hashable {
  case report
  case spool
}

/// What a field's codec knows besides its own value: the form, the run's tenant (a scenario's
/// `tenant` is written in full in the JSON report, and read back as nil when it is the run's),
/// the scenario's file (a step's location is in it), and the report version being read.
public struct ReportCoding: Sendable {
  public var form: ReportForm
  public var runTenant: String
  public var file: String
  public var version: Int
  /// True while a model is written (not read): derived keys are computed only then.
  public internal(set) var writing = false
  /// While a scenario is written: the steps skipped because of each failed one (by `phase/id`).
  public internal(set) var skippedDependants: [String: [String]] = [:]

  public init(form: ReportForm, runTenant: String = "", file: String = "", version: Int = ReportModel.version) {
    self.form = form
    self.runTenant = runTenant
    self.file = file
    self.version = version
  }

  /// The spool's coding: every field, exactly.
  public static let spool = ReportCoding(form: .spool)
}

/// A value of a report that could not be read: where (the JSON path below the object being read)
/// and what was expected there. The path is built as the error goes up, so that reading a valid
/// report builds none.
public struct ReportDecodingError: Error, Sendable, Hashable {
  /// Path components from the outermost down: a key, or `[index]`.
  public var components: [String]
  public var expected: String

  public init(expected: String, at components: [String] = []) {
    self.expected = expected
    self.components = components
  }

  /// The error one level up, at `key` (or `[index]`).
  public func below(_ component: String) -> ReportDecodingError {
    ReportDecodingError(expected: expected, at: [component] + components)
  }

  /// `run.shard.selection`, `scenarios[0].steps[2].phase`.
  public func path(under parent: String = "") -> String {
    var path = parent
    for component in components {
      if component.hasPrefix("[") || path.isEmpty { path += component } else { path += "." + component }
    }
    return path
  }
}

/// A JSON value being read, or a key that is missing (nil).
public struct ReportReader: Sendable {
  public var value: Value?

  public init(_ value: Value?) { self.value = value }

  public var isNull: Bool { value?.isNull ?? false }

  /// The member `key` of this object (missing keys are reported when read).
  public func member(_ key: String) throws(ReportDecodingError) -> ReportReader {
    guard case .object(let members)? = value else { throw ReportDecodingError(expected: "an object") }
    return ReportReader(members[key])
  }

  /// Reads the member `key` with `body`, the error's path starting at `key`.
  public func read<T>(
    _ key: String, _ body: (ReportReader) throws(ReportDecodingError) -> T
  )
    throws(ReportDecodingError) -> T
  {
    let child = try member(key)
    do throws(ReportDecodingError) {
      guard child.value != nil else { throw ReportDecodingError(expected: "a value (the key is missing)") }
      return try body(child)
    } catch {
      throw error.below(key)
    }
  }

  public func string() throws(ReportDecodingError) -> String {
    guard case .string(let text)? = value else { throw ReportDecodingError(expected: "a string") }
    return text
  }

  public func int() throws(ReportDecodingError) -> Int {
    guard case .int(let number)? = value, number >= 0 else {
      throw ReportDecodingError(expected: "a whole number ≥ 0")
    }
    return number
  }

  public func bool() throws(ReportDecodingError) -> Bool {
    guard case .bool(let flag)? = value else { throw ReportDecodingError(expected: "true or false") }
    return flag
  }

  /// Each item read with `body`, the error's path at its index.
  public func array<T>(_ body: (ReportReader) throws(ReportDecodingError) -> T) throws(ReportDecodingError) -> [T] {
    guard case .array(let items)? = value else { throw ReportDecodingError(expected: "an array") }
    var read: [T] = []
    read.reserveCapacity(items.count)
    for (index, item) in items.enumerated() {
      do throws(ReportDecodingError) {
        read.append(try body(ReportReader(item)))
      } catch {
        throw error.below("[\(index)]")
      }
    }
    return read
  }
}

/// One key of a report object as the JSON Schema declares it: every key is required (`null`
/// when absent), none other is allowed.
public struct ReportKey: Sendable {
  public var name: String
  public var schema: Value
  public var description: String?

  public init(_ name: String, _ schema: Value, _ description: String? = nil) {
    self.name = name
    self.schema = schema
    self.description = description
  }
}

/// How one type of value is written, read, declared in the schema and redacted: the building
/// block of ``ReportField``.
public struct ReportCodec<T>: @unchecked Sendable {
  public var schema: Value
  /// The value as written in `coding.form`; nil leaves the key out (the spool's "no result").
  public var encode: (T, ReportCoding) -> Value?
  /// The value read back; `reader.value` is nil when the key is missing.
  public var decode: (ReportReader, ReportCoding) throws(ReportDecodingError) -> T
  /// The value with every text passed through a transform (redaction, terminal escaping); nil
  /// for values without text.
  public var mapTexts: ((T, (String) -> String) -> T)?
  /// True when a missing key is a value (`decode` gets a reader of nil): the spool leaves out a
  /// step's result when there is none.
  public var acceptsMissing: Bool

  public init(
    schema: Value, acceptsMissing: Bool = false, encode: @escaping (T, ReportCoding) -> Value?,
    decode: @escaping (ReportReader, ReportCoding) throws(ReportDecodingError) -> T,
    mapTexts: ((T, (String) -> String) -> T)? = nil
  ) {
    self.acceptsMissing = acceptsMissing
    self.schema = schema
    self.encode = encode
    self.decode = decode
    self.mapTexts = mapTexts
  }
}

/// One field of a report object, declared once: its key(s) and schema, how it is written to and
/// read from the JSON report and the spool, and which of its texts redaction passes over. The
/// report's encoder, decoder, JSON Schema, spool record and redaction are all this table walked
/// (``ReportObject``); adding a field is adding one to its object's table (docs/architecture.md,
/// "Adding a field to the report").
public struct ReportField<Model>: @unchecked Sendable {
  /// The keys it writes (one for most; `line` and `column` for a location).
  public var keys: [ReportKey]
  /// The forms it is written in: a field derived from others (`warnings`) is in the JSON report
  /// only, and not read back.
  public var forms: Set<ReportForm>
  /// The model's property it writes and reads; nil for a derived field.
  public var property: AnyKeyPath?
  var encode: (Model, ReportCoding, inout [String: Value]) -> Void
  /// Reads the field from the object being read; nil for a derived field.
  var decode: ((inout Model, ReportReader, ReportCoding) throws(ReportDecodingError) -> Void)?
  var mapTexts: ((inout Model, (String) -> String) -> Void)?

  public init(
    keys: [ReportKey], forms: Set<ReportForm> = [.report, .spool], property: AnyKeyPath? = nil,
    encode: @escaping (Model, ReportCoding, inout [String: Value]) -> Void,
    decode: ((inout Model, ReportReader, ReportCoding) throws(ReportDecodingError) -> Void)?,
    mapTexts: ((inout Model, (String) -> String) -> Void)? = nil
  ) {
    self.keys = keys
    self.forms = forms
    self.property = property
    self.encode = encode
    self.decode = decode
    self.mapTexts = mapTexts
  }

  /// The field at `key`, the model's property at `path`, written by `codec`. `since` is the first
  /// report version with the key: an older report is read without it (its object's `completing`
  /// fills it in).
  public static func field<T>(
    _ key: String, _ path: WritableKeyPath<Model, T>, _ codec: ReportCodec<T>, _ description: String? = nil,
    since: Int = 0
  ) -> ReportField {
    ReportField(
      keys: [ReportKey(key, codec.schema, description)], property: path,
      encode: { model, coding, members in
        if let value = codec.encode(model[keyPath: path], coding) { members[key] = value }
      },
      decode: { model, reader, coding throws(ReportDecodingError) in
        guard coding.version >= since else { return }
        let member = try reader.member(key)
        do throws(ReportDecodingError) {
          if member.value == nil && !codec.acceptsMissing {
            throw ReportDecodingError(expected: "a value (the key is missing)")
          }
          model[keyPath: path] = try codec.decode(member, coding)
        } catch {
          throw error.below(key)
        }
      },
      mapTexts: codec.mapTexts.map { mapTexts in
        { model, transform in model[keyPath: path] = mapTexts(model[keyPath: path], transform) }
      })
  }

  /// A key of the JSON report computed from the model's other fields (`warnings`,
  /// `skipped_dependants`): written, declared, never read back nor spooled.
  public static func derived(
    _ key: String, _ schema: Value, _ description: String? = nil, _ encode: @escaping (Model, ReportCoding) -> Value
  ) -> ReportField {
    ReportField(
      keys: [ReportKey(key, schema, description)], forms: [.report],
      encode: { model, coding, members in members[key] = encode(model, coding) }, decode: nil)
  }

  /// A location written as `line` and `column`, its file being the scenario's (``ReportCoding/file``).
  public static func lineAndColumn(_ path: WritableKeyPath<Model, SourceLocation>) -> ReportField {
    ReportField(
      keys: [ReportKey("line", ReportCodec<Int>.count.schema), ReportKey("column", ReportCodec<Int>.count.schema)],
      property: path,
      encode: { model, _, members in
        members["line"] = .int(model[keyPath: path].line)
        members["column"] = .int(model[keyPath: path].column)
      },
      decode: { model, reader, coding throws(ReportDecodingError) in
        model[keyPath: path] = SourceLocation(
          file: coding.file, line: try reader.read("line") { line throws(ReportDecodingError) in try line.int() },
          column: try reader.read("column") { column throws(ReportDecodingError) in try column.int() })
      },
      mapTexts: { model, transform in model[keyPath: path].file = transform(model[keyPath: path].file) })
  }
}

/// A report object: its fields in order, the name its schema has among the report's `$defs`
/// (nil: written inline), the coding its fields' nested objects get (a step's file is its
/// scenario's), and what completes a model read from an older version.
public struct ReportObject<Model>: @unchecked Sendable {
  public var definition: String?
  public var fields: [ReportField<Model>]
  /// The model every read starts from (its fields are then read over it); nil for an object
  /// that is written only (derived from the others, as the conformance plans' tables are).
  var blank: Model?
  var nested: (Model, ReportCoding) -> ReportCoding
  var completing: (inout Model, ReportCoding) throws(ReportDecodingError) -> Void

  public init(
    definition: String? = nil, blank: Model?, fields: [ReportField<Model>],
    nested: @escaping (Model, ReportCoding) -> ReportCoding = { $1 },
    completing: @escaping (inout Model, ReportCoding) throws(ReportDecodingError) -> Void = { _, _ in }
  ) {
    self.definition = definition
    self.blank = blank
    self.fields = fields
    self.nested = nested
    self.completing = completing
  }

  /// The keys of the JSON report's object, in declaration order.
  public var keys: [ReportKey] { fields.filter { $0.forms.contains(.report) }.flatMap(\.keys) }

  /// The model as a JSON object in `coding.form`.
  public func value(of model: Model, _ coding: ReportCoding) -> Value {
    var writing = coding
    writing.writing = true
    let inner = nested(model, writing)
    var members: [String: Value] = [:]
    members.reserveCapacity(fields.count + 1)
    for field in fields where field.forms.contains(coding.form) { field.encode(model, inner, &members) }
    return .object(members)
  }

  /// The model read from a JSON object written in `coding.form`; every key there must be there.
  public func decode(_ reader: ReportReader, _ coding: ReportCoding) throws(ReportDecodingError) -> Model {
    guard case .object? = reader.value else { throw ReportDecodingError(expected: "an object") }
    guard var model = blank else { throw ReportDecodingError(expected: "nothing: this object is derived, not read") }
    for field in fields where field.forms.contains(coding.form) {
      try field.decode?(&model, reader, nested(model, coding))
    }
    try completing(&model, coding)
    return model
  }

  /// The model with `transform` applied to every text its fields declare.
  public func mappingTexts(_ model: Model, _ transform: (String) -> String) -> Model {
    var copy = model
    for field in fields { field.mapTexts?(&copy, transform) }
    return copy
  }

  /// The codec of this object as a member: a `$ref` to its definition, or the object inline.
  public var codec: ReportCodec<Model> {
    ReportCodec(
      schema: definition.map { ["$ref": .string("#/$defs/\($0)")] } ?? schema,
      encode: { model, coding in value(of: model, coding) },
      decode: { reader, coding throws(ReportDecodingError) in try decode(reader, coding) },
      mapTexts: { model, transform in mappingTexts(model, transform) })
  }

  /// The object's JSON Schema: every key required, no other allowed.
  public var schema: Value { Self.schema(of: keys) }

  public static func schema(of keys: [ReportKey]) -> Value {
    var properties: [String: Value] = [:]
    for key in keys {
      var schema = key.schema
      if let description = key.description, case .object(var members) = schema {
        members["description"] = .string(description)
        schema = .object(members)
      }
      properties[key.name] = schema
    }
    return [
      "type": "object", "additionalProperties": false, "required": .array(keys.map { .string($0.name) }),
      "properties": .object(properties),
    ]
  }
}
