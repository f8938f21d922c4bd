import CLibXML2

/// Reading libxml2 nodes: attributes, text, and the form controls built from them.
extension HTMLTreeWalker {
  static let inlineTags: Set<String> = [
    "a", "abbr", "b", "bdi", "bdo", "cite", "code", "data", "dfn", "em", "font", "i", "kbd", "label", "mark", "q",
    "s", "samp", "small", "span", "strong", "sub", "sup", "time", "u", "var",
  ]

  private static let keptTags: Set<String> = ["h1", "h2", "h3", "h4", "h5", "h6", "p", "label", "li"]

  /// Elements worth finding by selector: those with an id, class or role, and headings/paragraphs.
  static func isKept(tag: String, attributes: [String: String]) -> Bool {
    keptTags.contains(tag) || attributes["id"] != nil || attributes["class"] != nil || attributes["role"] != nil
  }

  static func isDisplayNone(_ style: String?) -> Bool {
    guard let style else { return false }
    return style.lowercased().filter { !$0.isWhitespace }.contains("display:none")
  }

  /// Every attribute, names lowercased, values with entities decoded.
  static func attributes(of node: xmlNodePtr) -> [String: String] {
    var result: [String: String] = [:]
    var attribute = node.pointee.properties
    while let current = attribute {
      if let name = current.pointee.name {
        let key = String(cString: name).lowercased()
        if result[key] == nil { result[key] = value(of: current) }
      }
      attribute = current.pointee.next
    }
    return result
  }

  /// One attribute's value, or nil when absent (an attribute without a value is "").
  static func attribute(_ name: String, of node: xmlNodePtr) -> String? {
    var attribute = node.pointee.properties
    while let current = attribute {
      if let rawName = current.pointee.name, String(cString: rawName).caseInsensitiveEquals(name) {
        return value(of: current)
      }
      attribute = current.pointee.next
    }
    return nil
  }

  private static func value(of attribute: xmlAttrPtr) -> String {
    var text = ""
    var child = attribute.pointee.children
    while let current = child {
      if let content = current.pointee.content { text += String(cString: content) }
      child = current.pointee.next
    }
    return text
  }

  /// The concatenated text of every descendant text node, as written.
  static func textContent(of node: xmlNodePtr) -> String {
    var text = ""
    appendText(of: node.pointee.children, to: &text)
    return text
  }

  private static func appendText(of first: xmlNodePtr?, to text: inout String) {
    var node = first
    while let current = node {
      switch current.pointee.type {
      case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
        if let content = current.pointee.content { text += String(cString: content) }
      case XML_ELEMENT_NODE:
        appendText(of: current.pointee.children, to: &text)
      default:
        break
      }
      node = current.pointee.next
    }
  }

  static func input(_ node: xmlNodePtr) -> HTMLFormField {
    let attributes = attributes(of: node)
    let type = attributes["type"]?.lowercased() ?? "text"
    let isCheckable = type == "checkbox" || type == "radio"
    let value = attributes["value"] ?? (isCheckable ? "on" : "")
    return HTMLFormField(
      control: .input, type: type.isEmpty ? "text" : type, name: attributes["name"] ?? "", value: value,
      checked: isCheckable && attributes["checked"] != nil, disabled: attributes["disabled"] != nil,
      id: attributes["id"], label: type == "submit" ? value : nil, formOwner: attributes["form"])
  }

  static func button(_ node: xmlNodePtr, attributes: [String: String]) -> HTMLFormField {
    let type = attributes["type"]?.lowercased() ?? "submit"
    return HTMLFormField(
      control: .button, type: ["submit", "reset", "button"].contains(type) ? type : "submit",
      name: attributes["name"] ?? "", value: attributes["value"] ?? "", disabled: attributes["disabled"] != nil,
      id: attributes["id"], label: VisibleText.collapse(textContent(of: node)), formOwner: attributes["form"])
  }

  static func textarea(_ node: xmlNodePtr) -> HTMLFormField {
    let attributes = attributes(of: node)
    var value = textContent(of: node)
    if value.hasPrefix("\n") { value.removeFirst() }
    return HTMLFormField(
      control: .textarea, type: "textarea", name: attributes["name"] ?? "", value: value,
      disabled: attributes["disabled"] != nil, id: attributes["id"], formOwner: attributes["form"])
  }

  static func select(_ node: xmlNodePtr) -> HTMLFormField {
    let attributes = attributes(of: node)
    let multiple = attributes["multiple"] != nil
    var options: [HTMLFormField.Option] = []
    collectOptions(from: node.pointee.children, into: &options)
    if !multiple {
      if let selected = options.lastIndex(where: \.selected) {
        for index in options.indices { options[index].selected = index == selected }
      } else if !options.isEmpty {
        options[0].selected = true
      }
    }
    return HTMLFormField(
      control: .select, type: multiple ? "select-multiple" : "select-one", name: attributes["name"] ?? "",
      value: options.first(where: \.selected)?.value ?? "", disabled: attributes["disabled"] != nil,
      id: attributes["id"], options: options, formOwner: attributes["form"])
  }

  private static func collectOptions(from first: xmlNodePtr?, into options: inout [HTMLFormField.Option]) {
    var node = first
    while let current = node {
      if current.pointee.type == XML_ELEMENT_NODE, let rawName = current.pointee.name {
        let tag = String(cString: rawName).lowercased()
        if tag == "option" {
          let text = VisibleText.collapse(textContent(of: current))
          let disabled = attribute("disabled", of: current) != nil
          if !disabled {
            options.append(
              HTMLFormField.Option(
                value: attribute("value", of: current) ?? text, text: text,
                selected: attribute("selected", of: current) != nil))
          }
        } else {
          collectOptions(from: current.pointee.children, into: &options)
        }
      }
      node = current.pointee.next
    }
  }
}
