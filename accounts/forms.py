"""The account forms: Django's auth forms dressed for Bootstrap, and sign-up with an e-mail.

Styling lives here rather than in a template filter so every page (ours and Django's auth views)
renders fields the same way through ``accounts/_form.html``.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import (
    AuthenticationForm,
    PasswordChangeForm,
    PasswordResetForm,
    SetPasswordForm,
    UserCreationForm,
)
from django.utils.translation import gettext_lazy as _

# Single-segment paths under /accounts/ that a profile URL (/accounts/<username>/) must not hide.
RESERVED_USERNAMES = frozenset(
    {"me", "login", "logout", "signup", "password", "reset", "token", "admin", "api"}
)

USERNAME_RESERVED = _("That name is reserved. Please choose another.")


class BootstrapMixin:
    """Gives every widget Bootstrap's classes, and marks the fields that failed validation."""

    fields: dict[str, forms.Field]
    errors: Any

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for field in self.fields.values():
            widget = field.widget
            base = "form-check-input" if isinstance(widget, forms.CheckboxInput) else "form-control"
            widget.attrs["class"] = f"{widget.attrs.get('class', '')} {base}".strip()

    def full_clean(self) -> None:
        super().full_clean()  # type: ignore[misc]
        # Bootstrap shows feedback only next to an .is-invalid control.
        for name in self.errors:
            if name in self.fields:
                widget = self.fields[name].widget
                widget.attrs["class"] = f"{widget.attrs.get('class', '')} is-invalid".strip()


class SignupForm(BootstrapMixin, UserCreationForm):
    """Username, e-mail (required) and the password twice; the e-mail is confirmed by mail."""

    email = forms.EmailField(
        label=_("E-mail address"),
        max_length=254,
        help_text=_("Used only to reset a forgotten password."),
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
    )

    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        fields = ("username", "email")

    def clean_username(self) -> str:
        # Django's check returns None after recording a case-insensitive duplicate.
        username = super().clean_username()
        if username and username.lower() in RESERVED_USERNAMES:
            raise forms.ValidationError(USERNAME_RESERVED, code="reserved")
        return username

    def clean_email(self) -> str:
        # No "already registered" error here: that would tell anyone who owns an address.
        # accounts.services.signup_request mails the address's owner instead.
        return get_user_model().objects.normalize_email(self.cleaned_data["email"])


class LoginForm(BootstrapMixin, AuthenticationForm):
    pass


class PasswordChangeBootstrapForm(BootstrapMixin, PasswordChangeForm):
    pass


class PasswordResetBootstrapForm(BootstrapMixin, PasswordResetForm):
    pass


class SetPasswordBootstrapForm(BootstrapMixin, SetPasswordForm):
    pass
