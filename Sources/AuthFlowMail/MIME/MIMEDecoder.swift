/// Decodes an RFC 5322 / MIME message into a ``DecodedMessage``.
///
/// Header fields are unfolded and looked up case-insensitively; bodies are decoded from
/// quoted-printable or base64 and from UTF-8, US-ASCII, ISO-8859-1 or windows-1252 (anything else
/// as UTF-8 with replacement characters); `multipart/*` entities are walked to ``MIMELimits/depth``.
/// Malformed content is decoded as well as it can be; only a resource limit throws.
public enum MIMEDecoder {
  /// Decodes `raw`, a message as received (CRLF or LF line ends).
  public static func decode(_ raw: [UInt8], limits: MIMELimits = MIMELimits()) throws(MIMEError) -> DecodedMessage {
    guard raw.count <= limits.messageBytes else { throw .messageTooLarge(raw.count, limit: limits.messageBytes) }
    var walker = PartWalker(limits: limits)
    let headers = try walker.walk(raw[...], depth: 0, defaultType: .textPlain)
    var text = walker.text
    if text == nil, let html = walker.html { text = HTMLText.text(fromHTML: html) }
    let from = headers.values("From").flatMap { AddressList.addresses(in: EncodedWords.decode($0)) }
    return DecodedMessage(
      headers: headers,
      from: from.first ?? "",
      to: headers.values("To").flatMap { AddressList.addresses(in: EncodedWords.decode($0)) },
      cc: headers.values("Cc").flatMap { AddressList.addresses(in: EncodedWords.decode($0)) },
      subject: headers["Subject"].map(EncodedWords.decode) ?? "",
      date: headers["Date"],
      messageID: headers["Message-ID"].map(stripAngles),
      text: text ?? "",
      html: walker.html,
      attachmentNames: walker.attachmentNames
    )
  }

  private static func stripAngles(_ value: String) -> String {
    var result = Substring(value.trimmingSpace())
    if result.hasPrefix("<") { result = result.dropFirst() }
    if result.hasSuffix(">") { result = result.dropLast() }
    return String(result)
  }
}

/// Walks the entity tree, keeping the first inline text and HTML bodies it meets.
private struct PartWalker {
  let limits: MIMELimits
  var partCount = 0
  var text: String?
  var html: String?
  var attachmentNames: [String] = []

  init(limits: MIMELimits) {
    self.limits = limits
  }

  /// Decodes one entity and, for a multipart, its children; returns the entity's headers.
  mutating func walk(
    _ entity: ArraySlice<UInt8>, depth: Int, defaultType: ContentType
  ) throws(MIMEError)
    -> MIMEHeaders
  {
    partCount += 1
    guard partCount <= limits.parts else { throw .tooManyParts(partCount, limit: limits.parts) }
    let (headerBytes, body) = MIMEBytes.splitEntity(entity)
    guard headerBytes.count <= limits.headerBytes else {
      throw .headerTooLarge(headerBytes.count, limit: limits.headerBytes)
    }
    let headers = MIMEHeaders(parsing: headerBytes)
    let type =
      headers["Content-Type"].map(ContentType.init(parsing:)).flatMap { $0.value.contains("/") ? $0 : nil }
      ?? defaultType
    if type.isMultipart, let boundary = type.boundary {
      guard depth < limits.depth else { throw .nestingTooDeep(depth + 1, limit: limits.depth) }
      let childDefault: ContentType = type.value == "multipart/digest" ? .messageRFC822 : .textPlain
      let parts = MultipartBody.parts(of: body, boundary: boundary)
      if parts.isEmpty {
        // A boundary that never appears: read the body as text rather than lose it.
        keep(body, type: .textPlain, headers: headers)
      }
      for part in parts {
        _ = try walk(part, depth: depth + 1, defaultType: childDefault)
      }
    } else {
      keep(body, type: type, headers: headers)
    }
    return headers
  }

  private mutating func keep(_ body: ArraySlice<UInt8>, type: ContentType, headers: MIMEHeaders) {
    let disposition = headers["Content-Disposition"].map(ContentType.init(parsing:))
    let name = disposition?.parameters["filename"] ?? type.parameters["name"]
    if disposition?.value == "attachment" || name != nil {
      attachmentNames.append(name.map(EncodedWords.decode) ?? "")
      return
    }
    guard type.value == "text/plain" || type.value == "text/html" || type.value == "text" else { return }
    if type.value == "text/html" ? html != nil : text != nil { return }
    let decoded = TransferEncoding(named: headers["Content-Transfer-Encoding"]).decode(body)
    let string = Charset(named: type.charset).decode(decoded)
    if type.value == "text/html" { html = string } else { text = string }
  }
}
