"""Search result pages that count no further than a page needs (issue 19).

An exact ``COUNT`` of a search that matches most of a 100,000-card game reads every matching
row: 17-200 ms at 211,000 printings (``-type:scheme``, ``boost:2 or boost:3``, bare
``unique:prints``, ``is:missing``; docs/benchmarks.md), many times the cost of the page of
rows itself. ``CappedPaginator`` reads the ids of the matching rows instead, at most
``COUNT_CAP`` of them or as many as reach past the page asked for, whichever is more (1-7 ms
for every documented form at that size):

- when that is all of them, the count is exact, and the page's rows are read by those ids:
  a primary-key look-up of at most that many rows, then sorted. The planner can then no
  longer walk a whole sort index hoping for matches it misjudged (``hp>=15`` on a game of
  100,000 cards: 26 matches, estimated at 4,700, read in 54-130 ms by walking the name
  index);
- otherwise more rows match: ``more_than`` says how many were read (the game page says
  "more than 1000 cards match", the API answers ``count_exact: false``), the page has a next
  one, and its rows are read in the query's own order, which finds a page quickly since the
  matches are many.

A page further on reads further ids, and ``page=last`` (the API) counts them all: only a
reader who asks for the end pays for the whole count. Cards shown and their order never
change, only whether the total is exact.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import cached_property
from typing import Any

from django.core.paginator import Paginator
from django.db.models import QuerySet

#: ids read at most to count a search (more when a later page is asked for)
COUNT_CAP = 1000
#: the page number that asks for the last page, whatever the count (as DRF's)
LAST_PAGE = "last"


class CappedPaginator(Paginator):
    """A Django ``Paginator`` whose ``count`` is exact up to ``COUNT_CAP`` matching rows (or
    the end of the page asked for), and a lower bound beyond (``count_is_exact`` False)."""

    def __init__(
        self,
        object_list: QuerySet[Any] | Sequence[Any],
        per_page: int,
        orphans: int = 0,
        allow_empty_first_page: bool = True,
        error_messages: dict[str, Any] | None = None,
        *,
        cap: int | None = None,
    ) -> None:
        super().__init__(object_list, per_page, orphans, allow_empty_first_page, error_messages)
        # rows to read at most (None: all of them); raised to the end of the page asked for
        self._reach: int | None = COUNT_CAP if cap is None else cap
        self._exact = True

    def count_everything(self) -> None:
        """Count every matching row (before the count is first read)."""
        self._reach = None

    def validate_number(self, number: Any) -> int:
        if number == LAST_PAGE:
            self.count_everything()
            return int(self.num_pages)
        try:
            wanted = int(number)
        except (TypeError, ValueError):
            wanted = 1
        if self._reach is not None and "count" not in self.__dict__:
            # the ids of the rows up to the end of this page: the page, and one more to know
            # that a next page exists
            self._reach = max(self._reach, wanted * self.per_page)
        checked: int = super().validate_number(number)
        return checked

    @cached_property
    def count(self) -> int:
        rows = self.object_list
        if not isinstance(rows, QuerySet):
            return len(rows)
        if self._reach is None:
            return rows.count()
        ids = list(
            rows.order_by().prefetch_related(None).values_list("pk", flat=True)[: self._reach + 1]
        )
        self._exact = len(ids) <= self._reach
        if self._exact:
            self.object_list = rows.filter(pk__in=ids)
        return len(ids)

    @property
    def count_is_exact(self) -> bool:
        self.count  # noqa: B018 -- reading it is what decides
        return self._exact

    @property
    def more_than(self) -> int | None:
        """None when ``count`` is exact; else more rows than this match (all that were read
        but the one that shows a next page exists)."""
        return None if self.count_is_exact else self.count - 1

    def get_elided_page_range(
        self, number: Any = 1, *, on_each_side: int = 3, on_ends: int = 2
    ) -> Iterator[Any]:
        yield from super().get_elided_page_range(number, on_each_side=on_each_side, on_ends=on_ends)
        if not self.count_is_exact:
            yield self.ELLIPSIS  # pages beyond the last one counted
