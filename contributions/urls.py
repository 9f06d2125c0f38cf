"""The contributions pages, under /contribute/."""

from __future__ import annotations

from contributions.views import history, merge, propose, review

app_name = "contributions"

urlpatterns = [
    *propose.urlpatterns,
    *history.urlpatterns,
    *merge.urlpatterns,
    *review.urlpatterns,
]
