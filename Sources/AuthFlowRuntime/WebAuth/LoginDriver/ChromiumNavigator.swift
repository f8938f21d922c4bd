import AuthFlowCore
import AuthFlowHTTP

/// The login driver's browser when it is chromium (`browser: chromium`): one tab of the run's
/// chromium, in the browser context of the step's named browser. Pages are read as rendered;
/// forms are filled and submitted in the page, so its scripts run as they would for a person.
struct ChromiumNavigator: PageNavigator {
  var page: ChromiumPage
  /// A page with no form yet is read again for this long (a script may still be drawing it).
  var settleLimit: Duration
  /// The tenant's `login_pages` and `forms`: a page they name is settled, whatever the heuristics say.
  var profile = LoginPageProfile()

  var httpBrowser: Browser? { nil }

  func open(_ url: String) async throws(ActionError) -> PageLoad {
    let load: ChromiumPageLoad
    do {
      load = try await page.navigate(url)
    } catch {
      throw .environment(error.message)
    }
    return try await settled(load)
  }

  func post(_ url: String, fields: URLParameters) async throws(ActionError) -> PageLoad {
    throw .flow(ChromiumNavigatorMessages.postAuthorization)
  }

  func submit(_ submission: PageSubmission) async throws(ActionError) -> PageLoad {
    guard let index = submission.document.forms.firstIndex(of: submission.form) else {
      throw .environment(ChromiumNavigatorMessages.formLost)
    }
    var load: ChromiumPageLoad
    do {
      load = try await page.submit(formIndex: index, values: submission.fields, submitter: submission.submitter)
      // The same page, unchanged and with nothing to say: a script may still be signing in.
      if case .page(let document, _) = load, document.url == submission.document.url,
        document.errorMessages.isEmpty, document.errorHeading == nil,
        let changed = try await page.awaitChange(from: document, limit: settleLimit)
      {
        load = changed
      }
    } catch {
      throw .environment(error.message)
    }
    return try await settled(load)
  }

  /// The load as the driver sees it: a 5xx document is the tenant failing (as in the HTML
  /// driver); a page without any form and without anything that names its kind is read again
  /// until a form shows or ``settleLimit`` passes.
  private func settled(_ load: ChromiumPageLoad) async throws(ActionError) -> PageLoad {
    switch load {
    case .callback(let url):
      return .callback(url)
    case .page(var document, let status):
      if status >= 500 {
        throw .environment(WebAuthMessages.serverError(status, url: SensitiveData.maskURL(document.url)))
      }
      let clock = ContinuousClock()
      let deadline = clock.now.advanced(by: settleLimit)
      while document.forms.isEmpty, PageKind.classify(document, profile: profile) == .unknown, clock.now < deadline,
        !Task.isCancelled
      {
        try? await Task.sleep(for: .milliseconds(100))
        do {
          document = try await page.document()
        } catch {
          throw .environment(error.message)
        }
      }
      return .page(document, status: status)
    }
  }
}

enum ChromiumNavigatorMessages {
  static let postAuthorization =
    "an authorization request sent by POST (`method: POST`) is sent by the built-in driver; leave out `browser: chromium`"
  static let formPost =
    "a form_post authorization response is read by the built-in driver; leave out `browser: chromium`"
  static let formLost = "the form to submit is not among the page's forms any more (the page changed under the driver)"
}
