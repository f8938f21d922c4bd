import AuthFlowCore
import AuthFlowYAML

extension ParseContext {
  /// Checks an action's parameters against its signature: unknown and missing parameters, and
  /// literal values of the wrong type. Expressions are not checked here (their value is only known
  /// when the step runs).
  mutating func checkParameters(_ node: YAMLNode, of signature: ActionSignature, at key: Located<String>) {
    switch node {
    case .mapping(let pairs, _):
      checkMembers(pairs, of: signature.parameters, open: signature.acceptsAnyParameters, path: "", action: key)
    case _ where node.isNull:
      checkMembers([], of: signature.parameters, open: signature.acceptsAnyParameters, path: "", action: key)
    case _ where node.isExpression:
      return
    default:
      if let scalar = signature.scalarForm {
        // The short form names no parameter: messages name the action (`'a while' is not a
        // duration (for 'wait')`), not the hidden parameter it stands for.
        check(node, against: scalar, path: key.value, action: key.value)
      } else {
        report(.scalarNotAccepted(key.value, found: node))
      }
    }
  }

  private mutating func checkMembers(
    _ pairs: [YAMLPair], of parameters: [ParameterSignature], open: Bool, path: String, action: Located<String>
  ) {
    var given: Set<String> = []
    for (name, pair) in keyedPairs(pairs) {
      given.insert(name.value)
      if let parameter = parameters.first(where: { $0.name == name.value }) {
        check(pair.value, against: parameter, path: path + parameter.name, action: action.value)
      } else if !open {
        report(
          .unknownParameter(
            path + name.value, action: action.value, at: name.location,
            hint: Suggestion.hint(for: name.value, in: parameters.map(\.name))))
      }
    }
    for parameter in parameters where parameter.required && !given.contains(parameter.name) {
      report(
        .missingParameter(
          path + parameter.name, action: action.value, at: action.location,
          length: path.isEmpty ? action.value.count : 1,
          summary: parameter.summary))
    }
  }

  private mutating func check(
    _ node: YAMLNode, against parameter: ParameterSignature, path: String, action: String
  ) {
    check(node, against: parameter.type, path: path, action: action, maximum: parameter.maximumDuration)
  }

  private mutating func check(
    _ node: YAMLNode, against type: ParameterType, path: String, action: String,
    maximum: Duration = InputLimits.longestDuration
  ) {
    if node.isExpression {
      // A step id is read before any step runs (the validator checks it names an earlier step).
      if type == .step { report(.parameterType(path, action: action, expected: type, found: node)) }
      return
    }
    let value = node.scalar.map(\.value)
    switch type {
    case .any:
      return
    case .string:
      switch value {
      case .string?, .int?, .double?: return
      default: report(.parameterType(path, action: action, expected: type, found: node))
      }
    case .int:
      if case .int? = value { return }
      report(.parameterType(path, action: action, expected: type, found: node))
    case .number:
      switch value {
      case .int?, .double?: return
      default: report(.parameterType(path, action: action, expected: type, found: node))
      }
    case .bool:
      if case .bool? = value { return }
      report(.parameterType(path, action: action, expected: type, found: node))
    case .duration:
      guard let value, !node.isNull else {
        report(.parameterType(path, action: action, expected: type, found: node))
        return
      }
      switch DurationText.read(value, maximum: maximum) {
      case .duration: return
      case .tooLong: report(.durationTooLong(node.scalar?.text ?? "", for: path, maximum: maximum, at: node))
      case .invalid:
        report(.invalidDuration(node.scalar?.text ?? "", for: path, at: node.location, length: node.underlineLength))
      }
    case .clockShift:
      guard let value, !node.isNull, value.stringValue != nil || value.doubleValue != nil else {
        report(.parameterType(path, action: action, expected: type, found: node))
        return
      }
      let text = value.stringValue ?? ""
      let magnitude: Value = text.hasPrefix("-") ? .string(String(text.dropFirst())) : value
      switch DurationText.read(magnitude, maximum: InputLimits.longestClockShift) {
      case .duration: return
      case .tooLong:
        report(.durationTooLong(text, for: path, maximum: InputLimits.longestClockShift, at: node, signed: true))
      case .invalid:
        report(.invalidDuration(node.scalar?.text ?? "", for: path, at: node.location, length: node.underlineLength))
      }
    case .object(let parameters):
      guard case .mapping(let pairs, _) = node else {
        report(.parameterType(path, action: action, expected: type, found: node))
        return
      }
      if let parameters {
        checkMembers(
          pairs, of: parameters, open: false, path: path + ".", action: Located(action, at: node.location))
      }
    case .array(let element):
      guard case .sequence(let items, _) = node else {
        report(.parameterType(path, action: action, expected: type, found: node))
        return
      }
      for (index, item) in items.enumerated() {
        check(item, against: element, path: "\(path)[\(index)]", action: action)
      }
    case .map:
      guard case .mapping = node else {
        report(.parameterType(path, action: action, expected: type, found: node))
        return
      }
    case .step:
      guard case .string(let text)? = value, !text.isEmpty else {
        report(.parameterType(path, action: action, expected: type, found: node))
        return
      }
    case .oneOf(let choices):
      guard case .string(let text)? = value else {
        report(.parameterType(path, action: action, expected: type, found: node))
        return
      }
      if !choices.contains(text) {
        report(.notAChoice(text, parameter: path, action: action, choices: choices, at: node))
      }
    }
  }
}

extension YAMLNode {
  /// A string scalar that contains `${{`: its value is only known when the step runs.
  var isExpression: Bool {
    if case .scalar(let scalar) = self, case .string(let text) = scalar.value { return text.containsTemplateOpening }
    return false
  }
}
