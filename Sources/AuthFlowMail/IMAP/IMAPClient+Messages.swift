public import Foundation

extension IMAPClient {
  /// The messages to `address` in one session: connect, log in, select, `NOOP`, search, fetch
  /// each newest first up to ``IMAPConfiguration/Limits/maxMessagesPerSearch``, log out.
  ///
  /// A message that disappears between the search and its fetch is left out.
  public static func messages(
    to address: String, since date: Date?, configuration: IMAPConfiguration
  ) async throws(IMAPError) -> [IMAPMessage] {
    let client = IMAPClient(configuration: configuration)
    do throws(IMAPError) {
      try await client.connect()
      try await client.login()
      try await client.select()
      try await client.noop()
      let uids = try await client.searchUIDs(to: address, since: date)
      var messages: [IMAPMessage] = []
      for uid in uids.sorted(by: >).prefix(max(0, configuration.limits.maxMessagesPerSearch)) {
        if let raw = try await client.fetchIfPresent(uid: uid) {
          messages.append(IMAPMessage(uid: uid, raw: raw))
        }
      }
      // The messages are in hand: a failed goodbye does not lose them.
      try? await client.logout()
      return messages
    } catch {
      await client.close()
      throw error.redacting(configuration.password)
    }
  }

  /// The UID of the newest message in the mailbox (one below its `UIDNEXT`; 0 when it is empty):
  /// a message delivered later has a larger one, as long as the mailbox keeps its UIDVALIDITY.
  /// One session: connect, log in, select, log out.
  public static func lastUID(configuration: IMAPConfiguration) async throws(IMAPError) -> UInt32 {
    let client = IMAPClient(configuration: configuration)
    do throws(IMAPError) {
      try await client.connect()
      try await client.login()
      guard let next = try await client.select() else {
        throw IMAPError(
          .protocolError, "the server's SELECT answer has no [UIDNEXT n] (RFC 3501 §6.3.1 requires one)",
          command: "SELECT")
      }
      try? await client.logout()
      return next > 0 ? next - 1 : 0
    } catch {
      await client.close()
      throw error.redacting(configuration.password)
    }
  }
}
