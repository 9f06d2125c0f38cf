"""The contributions pages, under /contribute/."""

from __future__ import annotations

from contributions.views import propose, review

app_name = "contributions"

urlpatterns = [*propose.urlpatterns, *review.urlpatterns]
