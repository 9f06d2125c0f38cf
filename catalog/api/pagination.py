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

DEFAULT_PAGE_SIZE = 50
MAX_PAGE_SIZE = 200

PAGE_SIZE_INVALID = _("Give a whole number from 1 to %(max)d.")
PAGE_INVALID = _("Give a whole page number from 1, or “last”.")


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
