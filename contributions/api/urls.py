"""The contributions API's routes (mounted under /api/v1/)."""

from __future__ import annotations

from django.urls import URLPattern, path

from contributions.api import history, merges, proposals, review, sheets

app_name = "contributions-api"

urlpatterns: list[URLPattern] = [
    path("proposals/", proposals.ProposalCollectionApi.as_view(), name="proposal-list"),
    path(
        "proposals/<int:proposal_id>/",
        proposals.ProposalDetailApi.as_view(),
        name="proposal-detail",
    ),
    path(
        "proposals/<int:proposal_id>/withdraw/",
        proposals.ProposalWithdrawApi.as_view(),
        name="proposal-withdraw",
    ),
    path(
        "proposals/<int:proposal_id>/resubmit/",
        proposals.ProposalResubmitApi.as_view(),
        name="proposal-resubmit",
    ),
    path(
        "proposals/<int:proposal_id>/approve/",
        review.ProposalApproveApi.as_view(),
        name="proposal-approve",
    ),
    path(
        "proposals/<int:proposal_id>/reject/",
        review.ProposalRejectApi.as_view(),
        name="proposal-reject",
    ),
    path("proposals/<int:proposal_id>/ask/", review.ProposalAskApi.as_view(), name="proposal-ask"),
    path("review/<slug:game>/", review.ReviewQueueApi.as_view(), name="review-queue"),
    path(
        "games/<slug:game>/sheet-template/",
        sheets.SheetTemplateApi.as_view(),
        name="sheet-template",
    ),
    path("games/<slug:game>/sheet-check/", sheets.SheetCheckApi.as_view(), name="sheet-check"),
    path(
        "games/<slug:game>/cards/<slug:code>/history/",
        history.CardHistoryApi.as_view(),
        name="card-history",
    ),
    path("changes/<int:change_id>/revert/", review.ChangeRevertApi.as_view(), name="change-revert"),
    path("games/<slug:game>/merges/", merges.MergeCollectionApi.as_view(), name="merge-list"),
    path("merges/<int:change_id>/revert/", merges.MergeRevertApi.as_view(), name="merge-revert"),
]
