def userinfo(claims, user):
    """The standard claims the Django user has (scopes profile and email)."""
    claims["name"] = user.get_full_name() or user.get_username()
    claims["given_name"] = user.first_name
    claims["family_name"] = user.last_name
    claims["email"] = user.email
    claims["email_verified"] = True
    return claims
