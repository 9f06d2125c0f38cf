"""Accounts URLs, mounted at /accounts/.

The fixed paths come first: ``<username>/`` would otherwise swallow them (and the sign-up form
refuses those names, see ``forms.RESERVED_USERNAMES``).

The password templates deliberately avoid Django's default names: the admin ships templates
under those names for its own password pages, and a project-level template with the same name
would start rendering in the admin.
"""

from __future__ import annotations

from django.contrib.auth import views as auth_views
from django.urls import URLPattern, URLResolver, path, reverse_lazy

from accounts import forms, views
from accounts.views import bad_request_when_invalid

app_name = "accounts"

login_view = auth_views.LoginView.as_view(
    template_name="registration/login.html",
    authentication_form=forms.LoginForm,
    redirect_authenticated_user=True,
)
# Django's LogoutView accepts POST only: a link or an image tag must not log anyone out.
logout_view = auth_views.LogoutView.as_view()
password_change = auth_views.PasswordChangeView.as_view(
    template_name="registration/password_change.html",
    form_class=forms.PasswordChangeBootstrapForm,
    success_url=reverse_lazy("accounts:password-change-done"),
)
password_change_done = auth_views.PasswordChangeDoneView.as_view(
    template_name="registration/password_changed.html"
)
password_reset = views.ThrottledPasswordResetView.as_view(
    template_name="registration/password_reset.html",
    form_class=forms.PasswordResetBootstrapForm,
    email_template_name="registration/password_reset_email.txt",
    subject_template_name="registration/password_reset_subject.txt",
    success_url=reverse_lazy("accounts:password-reset-sent"),
)
password_reset_sent = auth_views.PasswordResetDoneView.as_view(
    template_name="registration/password_reset_sent.html"
)
password_reset_confirm = auth_views.PasswordResetConfirmView.as_view(
    template_name="registration/password_reset_new.html",
    form_class=forms.SetPasswordBootstrapForm,
    success_url=reverse_lazy("accounts:password-reset-complete"),
)
password_reset_complete = auth_views.PasswordResetCompleteView.as_view(
    template_name="registration/password_reset_finished.html"
)

urlpatterns: list[URLPattern | URLResolver] = [
    path("signup/", views.signup, name="signup"),
    path("signup/sent/", views.signup_sent, name="signup-sent"),
    path("signup/confirm/<uidb64>/<token>/", views.signup_confirm, name="signup-confirm"),
    path("login/", bad_request_when_invalid(login_view), name="login"),
    path("logout/", logout_view, name="logout"),
    path("password/change/", bad_request_when_invalid(password_change), name="password-change"),
    path("password/change/done/", password_change_done, name="password-change-done"),
    path("password/reset/", bad_request_when_invalid(password_reset), name="password-reset"),
    path("password/reset/sent/", password_reset_sent, name="password-reset-sent"),
    path(
        "password/reset/<uidb64>/<token>/",
        bad_request_when_invalid(password_reset_confirm),
        name="password-reset-confirm",
    ),
    path("password/reset/done/", password_reset_complete, name="password-reset-complete"),
    path("me/", views.profile_self, name="profile-self"),
    path("me/token/", views.token, name="token"),
    path("me/token/new/", views.token_create, name="token-create"),
    path("me/token/revoke/", views.token_revoke, name="token-revoke"),
    path("<str:username>/", views.profile, name="profile"),
]
