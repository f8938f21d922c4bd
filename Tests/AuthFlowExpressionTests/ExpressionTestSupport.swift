import AuthFlowCore
import AuthFlowExpression
import Testing

/// A signed-looking compact JWS: `{"alg":"RS256","typ":"JWT"}.{"sub":"auth0|123","aud":"app"}.sig`.
let sampleJWT = "eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJhdXRoMHwxMjMiLCJhdWQiOiJhcHAifQ.c2ln"

let sampleRoots: [String: Value] = [
  "vars": [
    "user": ["email": "alice@example.com", "password": .secret("hunter2")],
    "count": 3,
    "ratio": 0.5,
    "name": "Alice",
    "list": [1, 2, 3],
    "empty": "",
    "nothing": nil,
  ],
  "steps": [
    "login": [
      "refresh_token": .secret("rt-123"),
      "id_token": JWTValue(raw: sampleJWT).map(Value.jwt) ?? nil,
      "expires_in": 86400,
      "status": 200,
    ],
    "sign-up": ["status": 201],
  ],
  "matrix": ["browser": "chrome"],
  "env": ["HOME": "/root"],
  "scenario": ["name": "Refresh"],
  "tenant": [:],
  "client": [:],
  "credentials": [:],
]

let sampleContext = EvaluationContext(roots: sampleRoots, now: { FunctionExample.clock })

enum TestFailure: Error, CustomStringConvertible {
  case parse(ExpressionError)
  case noExpression
  var description: String {
    switch self {
    case .parse(let error): return "parse error: \(error) at \(error.offset)"
    case .noExpression: return "no expression in the text"
    }
  }
}

/// Parses a template string; throws when it does not parse or holds no expression.
func template(_ text: String) throws -> TemplateString {
  switch TemplateString.parse(text) {
  case .success(let parsed?): return parsed
  case .success(nil): throw TestFailure.noExpression
  case .failure(let error): throw TestFailure.parse(error)
  }
}

/// Evaluates a template string in `context`.
func evaluate(_ text: String, in context: EvaluationContext = sampleContext) throws -> Value {
  try template(text).evaluate(in: context)
}

/// Evaluates a bare expression in `context`.
func evaluateBare(_ source: String, in context: EvaluationContext = sampleContext) throws -> Value {
  try Expr.parse(source).get().evaluate(in: context)
}

/// The error a template gives when parsed, else when evaluated; nil when it succeeds.
func error(in text: String, context: EvaluationContext = sampleContext) -> ExpressionError? {
  switch TemplateString.parse(text) {
  case .failure(let error): return error
  case .success(nil): return nil
  case .success(let parsed?):
    do throws(ExpressionError) {
      _ = try parsed.evaluate(in: context)
      return nil
    } catch {
      return error
    }
  }
}

/// A span marked by a caret line under the input: `^` at the offset, one `~` per further character.
///
/// ```
/// "${{ a + ) }}"
/// "        ^"      → offset 8, length 1
/// ```
struct Caret: Equatable, CustomStringConvertible {
  let offset: Int
  let length: Int

  init(_ marks: String) {
    let scalars = Array(marks.unicodeScalars)
    let start = scalars.firstIndex(of: "^") ?? -1
    offset = start
    length = start < 0 ? 0 : 1 + scalars[(start + 1)...].prefix { $0 == "~" }.count
  }

  init(offset: Int, length: Int) {
    self.offset = offset
    self.length = length
  }

  init(_ error: ExpressionError) {
    self.init(offset: error.offset, length: error.length)
  }

  var description: String {
    String(repeating: " ", count: max(0, offset)) + "^" + String(repeating: "~", count: max(0, length - 1))
  }
}
