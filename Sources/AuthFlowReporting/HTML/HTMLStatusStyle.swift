import AuthFlowResults

/// How the HTML report shows each status: its CSS class (colours in ``HTMLAssets/style``) and
/// its label. The one place a new status (a `warning` outcome) needs a line.
enum HTMLStatusStyle {
  /// `st-passed`, …; `st-notrun` (nil) for a step that was not run: one of a scenario that never
  /// started.
  static func cssClass(_ status: Status?) -> String {
    guard let status else { return "st-notrun" }
    return "st-\(status.rawValue)"
  }

  static func label(_ status: Status?) -> String {
    status?.rawValue ?? "not run"
  }

  /// The statuses the filters offer, in summary order.
  static let filterOrder: [Status] = Status.reportOrder
}
