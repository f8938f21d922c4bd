import Foundation

extension HTMLForm {
  /// The form data set, as a browser builds it when `submitter` is clicked: successful controls in
  /// document order, the submitter's name and value among them.
  ///
  /// - Parameter submitter: a submit button's name, value, id or label; nil for the default button
  ///   (the first submit button, as pressing Enter uses).
  public func entries(submitter: String? = nil) throws(FormError) -> URLParameters {
    let chosen = try submitterIndex(submitter)
    var pairs: [(String, String)] = []
    for (index, field) in fields.enumerated() {
      if index == chosen {
        if !field.name.isEmpty {
          if field.type == "image" {
            pairs += [(field.name + ".x", "0"), (field.name + ".y", "0")]
          } else {
            pairs.append((field.name, field.value))
          }
        }
      } else {
        pairs += field.entries
      }
    }
    return URLParameters(pairs)
  }

  /// The request submitting the form: GET puts the data set in the action's query; POST sends it
  /// as `application/x-www-form-urlencoded` (or `multipart/form-data`, `text/plain` when the form
  /// says so).
  public func submission(submitter: String? = nil) throws(FormError) -> HTTPRequest {
    let data = try entries(submitter: submitter)
    guard method == .post else {
      return HTTPRequest(method: .get, url: URLResolution.replacingQuery(of: action, with: data.formEncoded()))
    }
    switch enctype {
    case "multipart/form-data":
      let boundary = "authflow-" + UUID().uuidString.lowercased()
      return HTTPRequest(
        method: .post, url: action, headers: ["Content-Type": "multipart/form-data; boundary=\(boundary)"],
        body: Array(Self.multipart(data, boundary: boundary).utf8))
    case "text/plain":
      let text = data.map { "\($0.name)=\($0.value)\r\n" }.joined()
      return HTTPRequest(
        method: .post, url: action, headers: ["Content-Type": "text/plain;charset=UTF-8"], body: Array(text.utf8))
    default:
      return .form(.post, url: action, fields: data)
    }
  }

  /// The enabled submit button named `submitter` (by name, then value or id, then label), as
  /// ``submission(submitter:)`` chooses it; nil when `submitter` is nil and the form has none.
  public func submitButton(_ submitter: String?) throws(FormError) -> HTMLFormField? {
    try submitterIndex(submitter).map { fields[$0] }
  }

  private func submitterIndex(_ submitter: String?) throws(FormError) -> Int? {
    let buttons = fields.indices.filter { fields[$0].isSubmitButton && !fields[$0].disabled }
    guard let submitter else { return buttons.first }
    let match =
      buttons.first { fields[$0].name == submitter }
      ?? buttons.first { fields[$0].value == submitter || fields[$0].id == submitter }
      ?? buttons.first { fields[$0].label?.trimmingCharacters(in: .whitespaces) == submitter }
    guard let match else {
      throw .unknownSubmitter(submitter, buttons: buttons.map { Self.describeButton(fields[$0]) })
    }
    return match
  }

  private static func describeButton(_ field: HTMLFormField) -> String {
    let label = field.label.map { "\"\($0)\"" } ?? "unlabelled"
    return field.name.isEmpty ? label : "\(label) (\(field.name)=\(field.value))"
  }

  private static func multipart(_ data: URLParameters, boundary: String) -> String {
    var body = ""
    for pair in data {
      let name = pair.name.replacingOccurrences(of: "\"", with: "%22")
      body += "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(pair.value)\r\n"
    }
    return body + "--\(boundary)--\r\n"
  }
}
