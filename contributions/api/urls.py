"""The contributions API's routes (mounted under /api/v1/)."""

from __future__ import annotations

from django.urls import URLPattern, path

from contributions.api import views

app_name = "contributions-api"

urlpatterns: list[URLPattern] = [
    path("proposals/", views.ProposalCollectionApi.as_view(), name="proposal-list"),
    path("proposals/<int:proposal_id>/", views.ProposalDetailApi.as_view(), name="proposal-detail"),
    path(
        "proposals/<int:proposal_id>/withdraw/",
        views.ProposalWithdrawApi.as_view(),
        name="proposal-withdraw",
    ),
    path(
        "proposals/<int:proposal_id>/resubmit/",
        views.ProposalResubmitApi.as_view(),
        name="proposal-resubmit",
    ),
    path(
        "proposals/<int:proposal_id>/approve/",
        views.ProposalApproveApi.as_view(),
        name="proposal-approve",
    ),
    path(
        "proposals/<int:proposal_id>/reject/",
        views.ProposalRejectApi.as_view(),
        name="proposal-reject",
    ),
    path("proposals/<int:proposal_id>/ask/", views.ProposalAskApi.as_view(), name="proposal-ask"),
    path("review/<slug:game>/", views.ReviewQueueApi.as_view(), name="review-queue"),
    path(
        "games/<slug:game>/sheet-template/",
        views.SheetTemplateApi.as_view(),
        name="sheet-template",
    ),
    path("games/<slug:game>/sheet-check/", views.SheetCheckApi.as_view(), name="sheet-check"),
    path(
        "games/<slug:game>/cards/<slug:code>/history/",
        views.CardHistoryApi.as_view(),
        name="card-history",
    ),
    path("changes/<int:change_id>/revert/", views.ChangeRevertApi.as_view(), name="change-revert"),
]
