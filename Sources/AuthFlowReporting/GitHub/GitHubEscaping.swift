/// The escaping GitHub Actions workflow commands need
/// (`::error file=…,line=…,title=…::message`).
enum GitHubEscaping {
  /// The message after `::`: `%`, `\r`, `\n` are percent-encoded.
  static func data(_ text: String) -> String {
    text.replacingOccurrences(of: "%", with: "%25")
      .replacingOccurrences(of: "\r", with: "%0D")
      .replacingOccurrences(of: "\n", with: "%0A")
  }

  /// A property value (`file=`, `title=`): as ``data(_:)``, plus `:` and `,`.
  static func property(_ text: String) -> String {
    data(text).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
  }

  /// `::error file=a,line=3::message` with escaped properties and message.
  static func command(_ name: String, properties: [(String, String)], message: String) -> String {
    let list = properties.map { "\($0.0)=\(property($0.1))" }.joined(separator: ",")
    return "::\(name)\(list.isEmpty ? "" : " " + list)::\(data(message))"
  }
}
