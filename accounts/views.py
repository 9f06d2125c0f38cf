"""Account pages: sign-up, profiles and API tokens.

Log-in, log-out and the password pages are Django's own auth views (wired in ``urls.py``); only
what Django does not provide is written here.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import redirect, render
from django.template.response import TemplateResponse
from django.urls import NoReverseMatch
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_protect
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from accounts import mail_limits, selectors, services
from accounts.forms import SignupForm
from decks.models import Deck
from decks.selectors import decks_of_player

DECKS_PER_PAGE = 50


def bad_request_when_invalid(
    view: Callable[..., HttpResponseBase],
) -> Callable[..., HttpResponseBase]:
    """Answer 400 when a posted form comes back with errors.

    Django's auth views answer 200 to a rejected form; scripts and tests should be able to tell a
    refusal from a success by the status alone.
    """

    @functools.wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        response = view(request, *args, **kwargs)
        if request.method == "POST" and isinstance(response, TemplateResponse):
            form = (response.context_data or {}).get("form")
            if form is not None and form.is_bound and form.errors and response.status_code == 200:
                response.status_code = 400
        return response

    return wrapped


@csrf_protect
@never_cache
@require_http_methods(["GET", "HEAD", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("accounts:profile-self")
    if request.method == "POST":
        form = SignupForm(request.POST)
        if form.is_valid():
            wait = mail_limits.mail_form_wait(
                request=request, form="signup", email=form.cleaned_data["email"]
            )
            if wait is not None:
                form.add_error(None, mail_limits.mail_form_wait_message(wait))
                response = render(request, "accounts/signup.html", {"form": form}, status=429)
                response["Retry-After"] = str(int(wait))
                return response
            # hashed on both paths (new address or not), so the time taken does not tell either
            candidate = form.save(commit=False)
            try:
                services.signup_request(
                    candidate=candidate, base_url=request.build_absolute_uri("/").rstrip("/")
                )
            except services.UsernameTaken:
                form.add_error(
                    "username", form.instance.unique_error_message(type(candidate), ("username",))
                )
            else:
                return redirect("accounts:signup-sent")
        return render(request, "accounts/signup.html", {"form": form}, status=400)
    return render(request, "accounts/signup.html", {"form": SignupForm()})


class ThrottledPasswordResetView(auth_views.PasswordResetView):
    """Django's reset view, refusing (429) past the mail limits (accounts/mail_limits.py)."""

    def form_valid(self, form: Any) -> HttpResponse:
        wait = mail_limits.mail_form_wait(
            request=self.request, form="password-reset", email=form.cleaned_data["email"]
        )
        if wait is None:
            return super().form_valid(form)
        form.add_error(None, mail_limits.mail_form_wait_message(wait))
        response = self.render_to_response(self.get_context_data(form=form), status=429)
        response["Retry-After"] = str(int(wait))
        return response


@require_safe
def signup_sent(request: HttpRequest) -> HttpResponse:
    return render(request, "accounts/signup_sent.html")


@csrf_protect
@never_cache
@require_http_methods(["GET", "HEAD", "POST"])
def signup_confirm(request: HttpRequest, uidb64: str, token: str) -> HttpResponse:
    """A page with one button: mail scanners that open links must not confirm by a GET."""
    user = services.signup_confirmable(uidb64=uidb64, token=token)
    if user is None:
        return render(request, "accounts/signup_confirm.html", {"valid": False}, status=400)
    if request.method != "POST":
        return render(request, "accounts/signup_confirm.html", {"valid": True, "player": user})
    if not services.signup_confirm(user=user):
        return render(request, "accounts/signup_confirm.html", {"valid": False}, status=400)
    # two backends (axes, then the model one): name the one that knows this user
    login(request, user, backend="django.contrib.auth.backends.ModelBackend")
    messages.success(request, _("Welcome to DeckLab, %(name)s.") % {"name": user})
    return redirect("accounts:profile", username=user.get_username())


@dataclass(frozen=True)
class DeckRow:
    deck: Deck
    url: str


def _deck_url(deck: Deck) -> str:
    # The deck pages are built separately; until they exist the profile lists names unlinked.
    try:
        return deck.get_absolute_url()
    except NoReverseMatch:
        return ""


@require_safe
def profile(request: HttpRequest, username: str) -> HttpResponse:
    player = selectors.player_get(username=username)
    if player is None:
        raise Http404
    decks = decks_of_player(owner=player, viewer=request.user)
    page = Paginator(decks, DECKS_PER_PAGE).get_page(request.GET.get("page"))
    is_self = request.user.is_authenticated and request.user.pk == player.pk
    context = {
        "player": player,
        "is_self": is_self,
        "page": page,
        "rows": [DeckRow(deck=deck, url=_deck_url(deck)) for deck in page],
    }
    return render(request, "accounts/profile.html", context)


@require_safe
@login_required
def profile_self(request: HttpRequest) -> HttpResponse:
    return redirect("accounts:profile", username=request.user.get_username())


def _token_page(request: HttpRequest, *, new_key: str = "") -> HttpResponse:
    assert request.user.is_authenticated  # login_required on every caller
    context = {"token": selectors.token_for_user(user=request.user), "new_key": new_key}
    return render(request, "accounts/token.html", context)


@never_cache
@require_safe
@login_required
def token(request: HttpRequest) -> HttpResponse:
    return _token_page(request)


@never_cache
@require_POST
@login_required
def token_create(request: HttpRequest) -> HttpResponse:
    assert request.user.is_authenticated
    created = services.token_regenerate(user=request.user)
    # Shown in this response only (never stored in the session), and never cached.
    return _token_page(request, new_key=created.key)


@require_POST
@login_required
def token_revoke(request: HttpRequest) -> HttpResponse:
    assert request.user.is_authenticated
    if services.token_revoke(user=request.user):
        messages.success(request, _("Your API token was revoked; scripts using it are refused."))
    return redirect("accounts:token")
