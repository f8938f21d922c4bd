public import AuthFlowCore

/// One parameter of an action: its name, type, whether it must be given, and what it does.
public struct ParameterSignature: Sendable, Hashable {
  /// The key under the action (`scope`, `refresh_token`).
  public var name: String
  /// What values it takes.
  public var type: ParameterType
  /// True when a step must give it.
  public var required: Bool
  /// One line for error messages, completions and the JSON Schema's `description`.
  public var summary: String
  /// The longest value a `.duration` parameter takes (``InputLimits/longestDuration`` unless said).
  public var maximumDuration: Duration
  /// A condition that holds when its value is truthy (`assert`'s `that`): validation refuses a
  /// string there, which would hold whenever it is not empty (``ScenarioValidator``).
  public var isCondition: Bool
  /// Text for people (`assert`'s `message`): a `${{ … }}` in it that reads nothing renders empty,
  /// where in any other parameter it fails the step (an interpolated part of a URL or an id that
  /// is not there asks for something else).
  public var isFreeText: Bool
  /// For a mapping of login-form values (`web_auth`'s `login`): the names the login driver fills
  /// by itself. A key outside them and outside what the tenants' `forms` and `login_pages` name
  /// is refused before anything runs (``ProjectConfig/check(_:profiles:catalog:)``): it would fill
  /// nothing and the page would ask again. Nil: not form values.
  public var formValues: [String]?

  public init(
    _ name: String, _ type: ParameterType, required: Bool = false, summary: String = "",
    maximumDuration: Duration = InputLimits.longestDuration, isCondition: Bool = false, isFreeText: Bool = false,
    formValues: [String]? = nil
  ) {
    self.name = name
    self.type = type
    self.required = required
    self.summary = summary
    self.maximumDuration = maximumDuration
    self.isCondition = isCondition
    self.isFreeText = isFreeText
    self.formValues = formValues
  }
}
