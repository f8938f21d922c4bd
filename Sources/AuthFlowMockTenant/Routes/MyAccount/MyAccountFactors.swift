/// The bridge from the My Account API to the MFA API: a factor verified through
/// `/me/v1/authentication-methods` becomes one of the user's MFA enrolments, so it is listed by
/// `/mfa/authenticators`, offered in `mfa_required`, challenged by `/mfa/challenge` and accepted by
/// the MFA grants (and the Universal Login MFA page); deleting the method removes it again.
struct MyAccountFactors {
  let tenant: MockTenant

  func add(_ factor: MFAEnrollment, userID: String) async {
    guard var user = tenant.withState({ $0.users.user(id: userID) }), !user.mfa.contains(factor) else { return }
    user.mfa.append(factor)
    tenant.withState { $0.users.update(user) }
  }

  func remove(_ factor: MFAEnrollment, userID: String) async {
    guard var user = tenant.withState({ $0.users.user(id: userID) }) else { return }
    user.mfa.removeAll { $0 == factor }
    tenant.withState { $0.users.update(user) }
  }
}
