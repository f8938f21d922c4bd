public import AuthFlowCore

// The codecs report fields are written with. A codec of text (`text`, `optionalText`, `texts`)
// is what redaction passes over; the others hold no free text.

extension ReportCodec where T == String {
  /// Free text: scrubbed by redaction.
  public static var text: ReportCodec {
    ReportCodec(
      schema: ["type": "string"], encode: { text, _ in .string(text) },
      decode: { reader, _ throws(ReportDecodingError) in try reader.string() }, mapTexts: { text, map in map(text) })
  }

  /// A string from a fixed vocabulary (not redacted), with its schema.
  public static func constant(_ schema: Value) -> ReportCodec {
    ReportCodec(
      schema: schema, encode: { text, _ in .string(text) },
      decode: { reader, _ throws(ReportDecodingError) in try reader.string() })
  }
}

extension ReportCodec where T == String? {
  /// Free text or `null`: scrubbed by redaction.
  public static var optionalText: ReportCodec {
    ReportCodec(
      schema: ["type": ["string", "null"]], encode: { text, _ in text.map(Value.string) ?? .null },
      decode: { reader, _ throws(ReportDecodingError) in reader.isNull ? nil : try reader.string() },
      mapTexts: { text, map in text.map(map) })
  }
}

extension ReportCodec where T == [String] {
  /// A list of texts (tags, step ids, exchanges): each scrubbed by redaction.
  public static var texts: ReportCodec {
    ReportCodec(
      schema: ["type": "array", "items": ["type": "string"]], encode: { texts, _ in .array(texts.map(Value.string)) },
      decode: { reader, _ throws(ReportDecodingError) in
        try reader.array { item throws(ReportDecodingError) in try item.string() }
      },
      mapTexts: { texts, map in texts.map(map) })
  }
}

extension ReportCodec where T == Int {
  /// A whole number ≥ 0.
  public static var count: ReportCodec {
    ReportCodec(
      schema: ["type": "integer", "minimum": 0], encode: { number, _ in .int(number) },
      decode: { reader, _ throws(ReportDecodingError) in try reader.int() })
  }
}

extension ReportCodec where T == Bool {
  public static var boolean: ReportCodec {
    ReportCodec(
      schema: ["type": "boolean"], encode: { flag, _ in .bool(flag) },
      decode: { reader, _ throws(ReportDecodingError) in try reader.bool() })
  }
}

extension ReportCodec where T: RawRepresentable, T.RawValue == String {
  /// One of `cases`, by raw value; `expected` says what a wrong one should have been. With a
  /// `definition`, the schema is a `$ref` to it (the report's `status`).
  public static func oneOf(_ cases: [T], expected: String, definition: String? = nil) -> ReportCodec {
    ReportCodec(
      schema: definition.map { ["$ref": .string("#/$defs/\($0)")] }
        ?? ["enum": .array(cases.map { .string($0.rawValue) })],
      encode: { item, _ in .string(item.rawValue) },
      decode: { reader, _ throws(ReportDecodingError) in
        guard let item = T(rawValue: try reader.string()) else { throw ReportDecodingError(expected: expected) }
        return item
      })
  }
}

extension ReportCodec where T == Duration {
  /// Whole milliseconds in the JSON report (`duration_ms`); in the spool exactly, as
  /// `[seconds, attoseconds]`, so a report read back renders as the one written.
  public static var duration: ReportCodec {
    ReportCodec(
      schema: ["type": "integer", "minimum": 0],
      encode: { duration, coding in
        switch coding.form {
        case .report: return .int(duration.milliseconds)
        case .spool:
          let (seconds, attoseconds) = duration.components
          return .array([.int(Int(seconds)), .int(Int(attoseconds))])
        }
      },
      decode: { reader, coding throws(ReportDecodingError) in
        switch coding.form {
        case .report: return .milliseconds(try reader.int())
        case .spool:
          guard let parts = reader.value?.arrayValue, parts.count == 2, case .int(let seconds) = parts[0],
            case .int(let attoseconds) = parts[1]
          else { throw ReportDecodingError(expected: "[seconds, attoseconds]") }
          return Duration(secondsComponent: Int64(seconds), attosecondsComponent: Int64(attoseconds))
        }
      })
  }
}

extension ReportCodec {
  /// A list of report objects.
  public static func list<Element>(of object: ReportObject<Element>) -> ReportCodec where T == [Element] {
    let codec = object.codec
    return ReportCodec(
      schema: ["type": "array", "items": codec.schema],
      encode: { items, coding in .array(items.map { codec.encode($0, coding) ?? .null }) },
      decode: { reader, coding throws(ReportDecodingError) in
        try reader.array { item throws(ReportDecodingError) in try codec.decode(item, coding) }
      },
      mapTexts: { items, map in items.map { object.mappingTexts($0, map) } })
  }

  /// A report object or `null`.
  public static func optional<Wrapped>(_ object: ReportObject<Wrapped>) -> ReportCodec where T == Wrapped? {
    let codec = object.codec
    return ReportCodec(
      schema: ["oneOf": [["type": "null"], codec.schema]],
      encode: { item, coding in item.map { codec.encode($0, coding) ?? .null } ?? .null },
      decode: { reader, coding throws(ReportDecodingError) in reader.isNull ? nil : try codec.decode(reader, coding) },
      mapTexts: { item, map in item.map { object.mappingTexts($0, map) } })
  }
}

extension Duration {
  /// Whole milliseconds, rounded: the JSON report's `duration_ms`.
  public var milliseconds: Int {
    Int((Double(components.seconds) * 1000 + Double(components.attoseconds) / 1e15).rounded())
  }
}
