"""The OAuth2 validator: standard OIDC claims from the Django user."""

from oauth2_provider.oauth2_validators import OAuth2Validator


class ConformanceValidator(OAuth2Validator):
    """Adds `email`, `email_verified` (scope `email`) and `name`, `given_name`, `family_name`,
    `preferred_username` (scope `profile`) to ID tokens and userinfo."""

    oidc_claim_scope = OAuth2Validator.oidc_claim_scope

    def get_additional_claims(self, request):
        user = request.user
        return {
            "email": user.email,
            "email_verified": bool(user.email),
            "name": user.get_full_name() or user.get_username(),
            "given_name": user.first_name,
            "family_name": user.last_name,
            "preferred_username": user.get_username(),
        }
