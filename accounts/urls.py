from __future__ import annotations

from django.urls import path

from accounts.apis import GuestCreateApi, LoginApi, LogoutApi, MeApi, RegisterApi, WsTicketApi

urlpatterns = [
    path("auth/guest/", GuestCreateApi.as_view(), name="auth-guest"),
    path("auth/register/", RegisterApi.as_view(), name="auth-register"),
    path("auth/login/", LoginApi.as_view(), name="auth-login"),
    path("auth/logout/", LogoutApi.as_view(), name="auth-logout"),
    path("auth/ws-ticket/", WsTicketApi.as_view(), name="auth-ws-ticket"),
    path("me/", MeApi.as_view(), name="me"),
]
