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
}
