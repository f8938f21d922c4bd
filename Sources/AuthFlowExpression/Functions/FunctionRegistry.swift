/// The functions expressions can call, by name.
///
/// `standard` holds the built-ins of this module; modules with more (`totp`, which needs
/// HMAC-SHA1) extend it with ``adding(_:)``. The static checker reads the same registry, so every
/// registered name is known to `authflow validate`.
public struct FunctionRegistry: Sendable {
  public var functions: [String: any ExpressionFunction]

  /// Builds a registry; the first function of a name wins.
  public init(_ functions: [any ExpressionFunction]) {
    self.functions = Dictionary(functions.map { (type(of: $0).name, $0) }, uniquingKeysWith: { first, _ in first })
  }

  /// The registry with `more` added; a function of the same name replaces the existing one.
  public func adding(_ more: [any ExpressionFunction]) -> FunctionRegistry {
    var copy = self
    for function in more { copy.functions[type(of: function).name] = function }
    return copy
  }

  /// The function called `name`, if any.
  public func function(named name: String) -> (any ExpressionFunction)? {
    functions[name]
  }

  /// Every name, sorted.
  public var names: [String] { functions.keys.sorted() }

  /// Every function, sorted by name.
  public var sorted: [any ExpressionFunction] {
    functions.sorted { $0.key < $1.key }.map(\.value)
  }

  /// The built-in functions, in alphabetical order.
  public static let standard = FunctionRegistry([
    Base64URLDecodeFunction(),
    Base64URLEncodeFunction(),
    ContainsFunction(),
    DefaultFunction(),
    DifferenceFunction(),
    EndsWithFunction(),
    EntropyBitsFunction(),
    IntFunction(),
    JoinFunction(),
    JSONFunction(),
    JWTFunction(),
    KeysFunction(),
    LenFunction(),
    LowerFunction(),
    MatchesFunction(),
    NowFunction(),
    RandomEmailFunction(),
    RandomPasswordFunction(),
    RandomPhoneFunction(),
    SecretFunction(),
    SplitFunction(),
    StartsWithFunction(),
    StringFunction(),
    ToJSONFunction(),
    UpperFunction(),
    URLQueryFunction(),
    UUIDFunction(),
  ])
}
