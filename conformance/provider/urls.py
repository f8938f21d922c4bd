"""URLs: the provider under /o/ (discovery, JWKS, authorize, token, userinfo, revoke, logout) and
Django's login form at /accounts/login/, which /o/authorize/ sends unauthenticated browsers to."""

from django.contrib.auth import views as auth_views
from django.urls import include, path

urlpatterns = [
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("o/", include("oauth2_provider.urls", namespace="oauth2_provider")),
]
