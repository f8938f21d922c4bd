import CLibXML2

/// One pass over libxml2's tree in document order, collecting what `HTMLDocument` holds.
struct HTMLTreeWalker {
  private struct PendingElement {
    var tag: String
    var attributes: [String: String]
    var start: Int
    var end: Int
  }

  private struct PendingControl {
    var form: Int?
    var field: HTMLFormField
  }

  private struct PendingLink {
    var url: String
    var start: Int
    var end: Int
  }

  let documentURL: String
  private(set) var baseURL: String
  private(set) var title: String?
  private(set) var forms: [HTMLForm] = []
  private var text = VisibleText()
  private var hiddenDepth = 0
  private var openForms: [Int] = []
  private var controls: [PendingControl] = []
  private var elements: [PendingElement] = []
  private var links: [PendingLink] = []
  private var sawBase = false

  init(documentURL: String) {
    self.documentURL = documentURL
    self.baseURL = documentURL
  }

  /// Walks the whole tree and assembles the document.
  static func document(from root: xmlNodePtr?, url: String) -> HTMLDocument {
    var walker = HTMLTreeWalker(documentURL: url)
    walker.walk(siblingsFrom: root)
    return walker.finish()
  }

  private mutating func finish() -> HTMLDocument {
    var forms = self.forms
    for control in controls {
      let owner = control.field.formOwner.flatMap { id in forms.firstIndex { $0.id == id } } ?? control.form
      if let owner { forms[owner].fields.append(control.field) }
    }
    let fullText = text.output
    return HTMLDocument(
      url: documentURL, baseURL: baseURL, title: title, forms: forms,
      links: links.map { HTMLLink(url: $0.url, text: String(VisibleText.slice(fullText, from: $0.start, to: $0.end))) },
      text: fullText,
      elements: elements.map {
        HTMLElement(
          tag: $0.tag, attributes: $0.attributes, textSlice: VisibleText.slice(fullText, from: $0.start, to: $0.end))
      })
  }

  private mutating func walk(siblingsFrom first: xmlNodePtr?) {
    var node = first
    while let current = node {
      switch current.pointee.type {
      case XML_ELEMENT_NODE:
        visit(element: current)
      case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
        if hiddenDepth == 0, let content = current.pointee.content {
          text.append(String(cString: content))
        }
      default:
        if current.pointee.type == XML_HTML_DOCUMENT_NODE || current.pointee.type == XML_DOCUMENT_NODE {
          walk(siblingsFrom: current.pointee.children)
        }
      }
      node = current.pointee.next
    }
  }

  private mutating func visit(element node: xmlNodePtr) {
    guard let rawName = node.pointee.name else { return }
    let tag = String(cString: rawName).lowercased()
    switch tag {
    case "script", "style", "template":
      return
    case "title":
      if title == nil { title = VisibleText.collapse(Self.textContent(of: node)) }
      return
    case "base":
      if !sawBase, let href = Self.attribute("href", of: node) {
        sawBase = true
        baseURL = URLResolution.resolve(href, against: documentURL) ?? documentURL
      }
      return
    case "input":
      addControl(Self.input(node))
      return
    case "select":
      addControl(Self.select(node))
      return
    case "textarea":
      addControl(Self.textarea(node))
      return
    case "head":
      // libxml2 keeps an element it does not know (`main`, `section`, …) that follows a `link`
      // before `<body>` inside `head`, where a browser would close `head` and show it: head's own
      // text stays hidden, its elements are read as a browser would place them.
      var child = node.pointee.children
      while let current = child {
        if current.pointee.type == XML_ELEMENT_NODE { visit(element: current) }
        child = current.pointee.next
      }
      return
    default:
      break
    }

    let attributes = Self.attributes(of: node)
    let hidden = attributes["hidden"] != nil || Self.isDisplayNone(attributes["style"])
    let inline = Self.inlineTags.contains(tag)
    if !inline { text.boundary() }
    if hidden { hiddenDepth += 1 }
    let start = text.offset

    if tag == "form" { openForms.append(openForm(attributes)) }
    if tag == "button" { addControl(Self.button(node, attributes: attributes)) }
    walk(siblingsFrom: node.pointee.children)
    if tag == "form" { openForms.removeLast() }

    let end = text.offset
    if hidden { hiddenDepth -= 1 }
    if !inline { text.boundary() }
    if tag == "a", let href = attributes["href"], let url = URLResolution.resolve(href, against: baseURL) {
      links.append(PendingLink(url: url, start: start, end: end))
    }
    if Self.isKept(tag: tag, attributes: attributes) {
      elements.append(PendingElement(tag: tag, attributes: attributes, start: start, end: end))
    }
  }

  private mutating func openForm(_ attributes: [String: String]) -> Int {
    let rawAction = attributes["action"]?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
    let action =
      rawAction.isEmpty ? documentURL : (URLResolution.resolve(rawAction, against: baseURL) ?? rawAction)
    let method: HTTPMethod = attributes["method"]?.lowercased() == "post" ? .post : .get
    let enctype = attributes["enctype"]?.lowercased() ?? ""
    forms.append(
      HTMLForm(
        id: attributes["id"], name: attributes["name"], action: action, method: method,
        enctype: ["multipart/form-data", "text/plain"].contains(enctype)
          ? enctype : "application/x-www-form-urlencoded"))
    return forms.count - 1
  }

  private mutating func addControl(_ field: HTMLFormField) {
    controls.append(PendingControl(form: openForms.last, field: field))
  }
}
