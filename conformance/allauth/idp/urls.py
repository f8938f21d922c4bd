from django.urls import include, path

urlpatterns = [
    # allauth.account: /accounts/login/, /accounts/signup/, /accounts/login/code/, /accounts/password/reset/ …
    path("accounts/", include("allauth.urls")),
    # allauth.idp.oidc: /.well-known/openid-configuration, /.well-known/jwks.json, /identity/o/authorize,
    # /identity/o/api/token, /identity/o/api/userinfo, /identity/o/api/revoke, /identity/o/logout …
    path("", include("allauth.idp.urls")),
]
