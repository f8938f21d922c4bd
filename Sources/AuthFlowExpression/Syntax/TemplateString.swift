public import AuthFlowCore

/// A string that contains `${{ … }}`.
///
/// A string that is exactly one expression, surrounding whitespace allowed, keeps the expression's
/// type (`.whole`): `${{ steps.login.expires_in }}` is an int. Otherwise the expressions are
/// rendered into the text (`.interpolated`), see ``evaluate(in:)``. There is no escape for a
/// literal `${{` in text; write `${{ '${{' }}`.
public enum TemplateString: Sendable, Hashable {
  /// The whole string is one expression: it keeps the expression's type. `offset` is that of `${{`.
  case whole(Expr, offset: Int)
  /// Text and expressions interpolated into a string.
  case interpolated([TemplatePart])

  /// Parses `text`; `.success(nil)` when it contains no expression. Offsets in the result and in
  /// errors are unicode-scalar offsets from the start of `text`.
  public static func parse(_ text: String) -> Result<TemplateString?, ExpressionError> {
    guard text.utf8.containsTemplateOpening else { return .success(nil) }
    do throws(ExpressionError) {
      return .success(try parseParts(Array(text.utf8)))
    } catch {
      return .failure(error)
    }
  }

  private static func parseParts(_ bytes: [UInt8]) throws(ExpressionError) -> TemplateString {
    var parts: [TemplatePart] = []
    var cursor = SourceCursor(bytes: bytes)
    var textStart = 0
    while let byte = cursor.peek() {
      guard byte == UInt8(ascii: "$"), cursor.peek(1) == UInt8(ascii: "{"), cursor.peek(2) == UInt8(ascii: "{") else {
        cursor.advance()
        continue
      }
      if cursor.byte > textStart { parts.append(.text(cursor.text(from: textStart, to: cursor.byte))) }
      let open = cursor.scalar
      cursor.advance(3)
      var parser = try Parser(cursor: cursor, mode: .template(openOffset: open))
      let (expr, end) = try parser.parseComplete()
      parts.append(.expression(expr, offset: open))
      cursor = end
      textStart = cursor.byte
    }
    if cursor.byte > textStart { parts.append(.text(cursor.text(from: textStart, to: cursor.byte))) }
    var whole: (Expr, Int)?
    var count = 0
    var onlyWhitespaceText = true
    for part in parts {
      switch part {
      case .expression(let expr, let offset):
        whole = (expr, offset)
        count += 1
      case .text(let text):
        onlyWhitespaceText = onlyWhitespaceText && text.utf8.allSatisfy(\.isASCIIWhitespace)
      }
    }
    if count == 1, onlyWhitespaceText, let (expr, offset) = whole {
      return .whole(expr, offset: offset)
    }
    return .interpolated(parts)
  }

  /// The value of the template.
  ///
  /// `.whole` gives the expression's value, of any type. `.interpolated` gives a string: strings
  /// as they are, numbers and booleans as written in JSON, `null` as nothing (as GitHub Actions
  /// does), arrays and objects as compact JSON with sorted keys, a JWT as its compact text. When
  /// any interpolated value is or contains a secret, the result is `.secret(.string(…))`.
  public func evaluate(in context: EvaluationContext) throws(ExpressionError) -> Value {
    switch self {
    case .whole(let expr, _):
      return try expr.evaluate(in: context)
    case .interpolated(let parts):
      var text = ""
      var secret = false
      for part in parts {
        switch part {
        case .text(let literal):
          text += literal
        case .expression(let expr, _):
          let value = try expr.evaluate(in: context)
          secret = secret || value.containsSecret
          value.appendInterpolation(to: &text)
        }
      }
      return secret ? .secret(.string(text)) : .string(text)
    }
  }

  /// The offset of the first `${{ … }}` rendered into a longer string whose value is `null`: the
  /// text around it then stands for a value that is not there (`"tok-${{ steps.a.body.tokn }}"` is
  /// `"tok-"`). Nil for a whole-string expression, when every part read something, or when a part
  /// fails to evaluate (``evaluate(in:)`` reports that).
  public func interpolationReadingNothing(in context: EvaluationContext) -> Int? {
    guard case .interpolated(let parts) = self else { return nil }
    for case .expression(let expr, let offset) in parts where (try? expr.evaluate(in: context))?.isNull == true {
      return offset
    }
    return nil
  }

  /// The expressions of the template, in order.
  public var expressions: [Expr] {
    switch self {
    case .whole(let expr, _): return [expr]
    case .interpolated(let parts):
      return parts.compactMap { part in
        if case .expression(let expr, _) = part { return expr }
        return nil
      }
    }
  }
}

/// A piece of an interpolated string.
public enum TemplatePart: Sendable, Hashable {
  case text(String)
  /// An expression; `offset` is that of its `${{`.
  case expression(Expr, offset: Int)
}

extension UInt8 {
  fileprivate var isASCIIWhitespace: Bool {
    self == UInt8(ascii: " ") || self == UInt8(ascii: "\t") || self == UInt8(ascii: "\n") || self == UInt8(ascii: "\r")
  }
}

extension String.UTF8View {
  /// Whether `${{` occurs: a fast pre-check, so plain strings never build a scalar array.
  fileprivate var containsTemplateOpening: Bool {
    var matched = 0
    for byte in self {
      switch (matched, byte) {
      case (0, UInt8(ascii: "$")): matched = 1
      case (1, UInt8(ascii: "{")): matched = 2
      case (2, UInt8(ascii: "{")): return true
      case (_, UInt8(ascii: "$")): matched = 1
      default: matched = 0
      }
    }
    return false
  }
}
