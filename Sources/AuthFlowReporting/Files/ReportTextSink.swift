/// Where a file reporter writes its text as it renders it: appended in pieces and handed on in
/// chunks (``chunkSize``), so that the report of a long run — one section per scenario — is never
/// one string in memory. ``ReportOutput/write(toFile:_:)`` makes one and says where the chunks go.
public struct ReportTextSink {
  /// How much text is gathered before it is handed on.
  public static let chunkSize = 64 * 1024

  private var pending = ""
  private var pendingBytes = 0
  private let deliver: (String) -> Void

  /// A sink handing each chunk to `deliver`, in order.
  public init(deliver: @escaping (String) -> Void) {
    self.deliver = deliver
  }

  /// Appends `text`.
  public mutating func write(_ text: String) {
    pending += text
    pendingBytes += text.utf8.count
    if pendingBytes >= Self.chunkSize { flush() }
  }

  /// Hands on what is gathered.
  public mutating func flush() {
    guard pendingBytes > 0 else { return }
    deliver(pending)
    pending = ""
    pendingBytes = 0
  }

  /// The whole text `render` writes, as one string (tests, and outputs kept in memory).
  public static func collect(_ render: (inout ReportTextSink) -> Void) -> String {
    var text = ""
    withoutActuallyEscaping({ (chunk: String) in text += chunk }) { deliver in
      var sink = ReportTextSink(deliver: deliver)
      render(&sink)
      sink.flush()
    }
    return text
  }
}
