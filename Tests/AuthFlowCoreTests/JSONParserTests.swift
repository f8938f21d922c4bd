import AuthFlowCore
import Foundation
import Testing

@Suite("JSON parser")
struct JSONParserTests {
  @Test("Every kind of value, integers kept apart from other numbers")
  func kinds() throws {
    let value = try Value(
      jsonText: #" { "a": [1, -2, 3.5, 1e3, -0.25E-2, true, false, null], "b": {"c": ""}, "d": 9223372036854775808 } "#)
    #expect(
      value
        == .object([
          "a": .array([
            .int(1), .int(-2), .double(3.5), .double(1000), .double(-0.0025), .bool(true), .bool(false), .null,
          ]),
          "b": .object(["c": .string("")]),
          "d": .double(9_223_372_036_854_775_808),
        ]))
  }

  @Test("Escapes, surrogate pairs and raw UTF-8 are read as JSON says")
  func strings() throws {
    let value = try Value(jsonText: #"["\"\\\/\b\f\n\r\t", "\u00e9\u20AC", "\ud83d\ude00", "héllo €"]"#)
    #expect(value == .array([.string("\"\\/\u{08}\u{0C}\n\r\t"), .string("é€"), .string("😀"), .string("héllo €")]))
  }

  @Test("A repeated key keeps its last value")
  func repeatedKey() throws {
    #expect(try Value(jsonText: #"{"a":1,"a":2}"#) == .object(["a": .int(2)]))
  }

  @Test("Rejecting duplicates (JOSE headers and JWT claims) makes a repeated key an error, nested ones too")
  func repeatedKeyRejected() throws {
    #expect(throws: JSONSyntaxError.self) {
      try Value(json: Data(#"{"a":1,"a":2}"#.utf8), rejectingDuplicateKeys: true)
    }
    #expect(throws: JSONSyntaxError.self) {
      try Value(json: Data(#"{"o":{"b":1,"b":1}}"#.utf8), rejectingDuplicateKeys: true)
    }
    #expect(
      try Value(json: Data(#"{"a":{"a":1}}"#.utf8), rejectingDuplicateKeys: true)
        == .object(["a": .object(["a": .int(1)])]))
  }

  @Test(
    "Malformed JSON is an error with the byte offset, never a crash",
    arguments: [
      "", " ", "{", "[1,]", "{\"a\" 1}", "{\"a\":1,}", "01", "1.", "-", "1e", "tru", "nul", "\"abc", "\"a\u{01}b\"",
      #""\x""#, #""\u12""#, #""\ud800""#, #""\udc00""#, #""\ud800\u0041""#, "[1] 2", "{1:2}", "1e999", "[\"a\"",
    ])
  func malformed(_ text: String) {
    #expect(throws: JSONSyntaxError.self) { try Value(jsonText: text) }
  }

  @Test("Invalid UTF-8 inside a string is an error")
  func invalidUTF8() {
    let bytes: [UInt8] = [0x22, 0xC3, 0x28, 0x22]
    #expect(throws: JSONSyntaxError.self) { try Value(json: Data(bytes)) }
  }

  @Test("Nesting is bounded: deep input is an error, not a stack overflow")
  func depth() throws {
    let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
    let error = #expect(throws: JSONSyntaxError.self) { try Value(jsonText: deep) }
    #expect(error?.message.contains("nesting") == true)
    let fine = String(repeating: "[", count: 500) + String(repeating: "]", count: 500)
    #expect(throws: Never.self) { try Value(jsonText: fine) }
  }

  @Test("Agrees with JSONSerialization on a realistic token response")
  func agreesWithFoundation() throws {
    let text = #"""
      {"access_token":"eyJhbGciOi.x.y","expires_in":86400,"token_type":"Bearer","scope":"openid profile",
       "nested":{"list":[{"k":"v"},[],{}],"unicode":"\u00fc\u00df","float":0.5}}
      """#
    let value = try Value(jsonText: text)
    let foundation = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
    #expect(value.objectValue?["expires_in"] == .int(foundation?["expires_in"] as? Int ?? -1))
    #expect(value.objectValue?["scope"] == .string("openid profile"))
    #expect(value.jsonText() == (try Value(jsonText: value.jsonText())).jsonText())
  }
}

@Suite("JSON writer")
struct JSONWriterTests {
  @Test("Strings are escaped as JSON requires and read back unchanged, multi-byte text included")
  func escaping() throws {
    let texts = ["", "plain", "quote \" and \\ back", "lines\n\r\t", "\u{01}\u{1F}", "héllo €😀 \"x\"", "\u{7F}"]
    for text in texts {
      var output = ""
      Value.writeJSONString(text, into: &output)
      #expect(try Value(jsonText: output) == .string(text), "\(output)")
    }
    var control = ""
    Value.writeJSONString("a\u{01}b\u{1B}", into: &control)
    #expect(control == #""a\u0001b\u001b""#)
  }
}
