"""Page-number pagination for the catalog API, strict about its own parameters.

DRF's default quietly falls back to the default size on ``page_size=abc`` and answers 404 on
``page=abc``; a client that sent a bad parameter should be told which one and why (400).
"""

from __future__ import annotations

from typing import Any

from django.core.paginator import Paginator
from django.utils.translation import gettext_lazy as _
from rest_framework.exceptions import ValidationError
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request
from rest_framework.response import Response

from catalog.query.paging import COUNT_CAP, CappedPaginator

DEFAULT_PAGE_SIZE = 50
MAX_PAGE_SIZE = 200

PAGE_SIZE_INVALID = _("Give a whole number from 1 to %(max)d.")
PAGE_INVALID = _("Give a whole page number from 1, or “last”.")
COUNT_EXACT_DESCRIPTION = _(
    "False when more rows match than “count”: counting stops after %(cap)d rows (or the end "
    "of the page asked for), “next” leads on, and page=last counts every row."
)


class CatalogPagination(PageNumberPagination):
    page_size = DEFAULT_PAGE_SIZE
    page_size_query_param = "page_size"
    max_page_size = MAX_PAGE_SIZE
    # Lazy, so the schema is translated when generated (?lang=ja); the stubs expect str.
    page_query_description = _("Page number, from 1.")  # type: ignore[assignment]
    page_size_query_description = _("Results per page (1 to 200, default 50).")  # type: ignore[assignment]

    def get_page_size(self, request: Request) -> int:
        raw = request.query_params.get(self.page_size_query_param, "")
        if raw == "":
            return self.page_size
        try:
            size = int(raw)
        except ValueError:
            size = 0
        if not 1 <= size <= MAX_PAGE_SIZE:
            raise ValidationError(
                {self.page_size_query_param: [PAGE_SIZE_INVALID % {"max": MAX_PAGE_SIZE}]},
                code="invalid",
            )
        return size

    def get_page_number(self, request: Request, paginator: Paginator) -> Any:
        raw = request.query_params.get(self.page_query_param, "") or "1"
        if raw in self.last_page_strings:
            return raw
        if not raw.isdigit() or int(raw) < 1:
            raise ValidationError({self.page_query_param: [PAGE_INVALID]}, code="invalid")
        return raw

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        parameters = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            if parameter["name"] == self.page_size_query_param:
                parameter["schema"].update({"minimum": 1, "maximum": MAX_PAGE_SIZE})
            elif parameter["name"] == self.page_query_param:
                parameter["schema"].update({"minimum": 1})
        return parameters


class CappedCountPagination(CatalogPagination):
    """The catalog's lists: a count read no further than 1,000 rows or the end of the page
    asked for (``catalog/query/paging.py``, issue 19), and ``count_exact`` to say which."""

    django_paginator_class = CappedPaginator

    def get_paginated_response(self, data: Any) -> Response:
        assert self.page is not None  # paginate_queryset ran first
        paginator = self.page.paginator
        more_than = paginator.more_than if isinstance(paginator, CappedPaginator) else None
        return Response(
            {
                "count": paginator.count if more_than is None else more_than,
                "count_exact": more_than is None,
                "next": self.get_next_link(),
                "previous": self.get_previous_link(),
                "results": data,
            }
        )

    def get_paginated_response_schema(self, schema: dict[str, Any]) -> dict[str, Any]:
        described = super().get_paginated_response_schema(schema)
        described["properties"]["count_exact"] = {
            "type": "boolean",
            "description": COUNT_EXACT_DESCRIPTION % {"cap": COUNT_CAP},
        }
        described["required"] = [*described["required"], "count_exact"]
        return described
