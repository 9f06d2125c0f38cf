"""An import in two steps: preview (read, check, show what would be added and merged; store
the text) and commit (read the stored text again and write it as one batch)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from catalog.models import Game
from collection import errors
from collection.interchange.dialects import BY_CODE, Dialect
from collection.interchange.mappings import column_mapping_for, column_mapping_remember
from collection.interchange.read import (
    MAX_PROBLEMS,
    Problem,
    ReadResult,
    first_row,
    mapping_problems,
    read_collection_csv,
)
from collection.interchange.write import Export, export_items
from collection.limits import collection_room_check, collection_room_problem
from collection.models import MAX_QUANTITY, CollectionItem, ImportBatch
from collection.services import AddOutcome, collection_import_commit, collection_plan


class CollectionImportError(Exception):
    def __init__(self, problems: Sequence[Problem]) -> None:
        super().__init__(str(errors.IMPORT_REFUSED))
        self.problems = list(problems)


@dataclass
class Preview:
    batch: ImportBatch | None
    result: ReadResult
    plan: list[AddOutcome]

    @property
    def new_items(self) -> int:
        return sum(1 for o in self.plan if not o.merged)

    @property
    def merged_items(self) -> int:
        return sum(1 for o in self.plan if o.merged)

    @property
    def copies(self) -> int:
        return sum(o.spec.quantity for o in self.plan)


def collection_import_preview(
    *,
    owner: Any,
    content: str,
    game: Game | None,
    dialect_code: str = "",
    file_name: str = "",
    mapping: Mapping[str, Any] | None = None,
) -> Preview:
    """Read and check the file; when clean, store it as a previewed batch to commit.

    A header no format or clear column name explains is read with ``mapping`` (the player's
    say of which column holds what), remembered for that header; without one, with the
    mapping the player gave that header before, if any."""
    result = read_collection_csv(content, game=game, dialect_code=dialect_code, mapping=mapping)
    if result.mapping:
        column_mapping_remember(owner=owner, header=result.header, mapping=result.mapping)
    elif result.needs_mapping and not mapping and not dialect_code:
        remembered = column_mapping_for(owner=owner, header=result.header)
        if remembered:
            result = read_collection_csv(content, game=game, mapping=remembered)
    if result.problems:
        return Preview(batch=None, result=result, plan=[])
    plan = collection_plan(owner=owner, specs=result.specs)
    # the preview promises what the commit will do: no item beyond its bound
    result.problems.extend(_total_problems(result, plan))
    if result.problems:
        return Preview(batch=None, result=result, plan=[])
    # a collection's size is bounded (collection/limits.py): said before anything is stored
    full = collection_room_problem(owner=owner, new_items=sum(1 for o in plan if not o.merged))
    if full:
        result.problems.append(Problem(line=0, column="", message=full))
        return Preview(batch=None, result=result, plan=[])
    assert result.dialect is not None
    batch = ImportBatch.objects.create(
        owner=owner,
        game=game.slug if game else "",
        dialect=result.dialect.code,
        mapping=result.mapping,
        file_name=file_name[:255],
        content=content,
        row_count=len(result.specs),
        copy_count=sum(s.quantity for s in result.specs),
    )
    return Preview(batch=batch, result=result, plan=plan)


def collection_import_remember_mapping(
    *, owner: Any, content: str, mapping: Mapping[str, Any]
) -> list[str]:
    """Remember a mapping for the header of ``content`` (a big file's, before a worker reads
    it); what is wrong with the mapping, if anything."""
    header = first_row(content)
    columns, wrong = mapping_problems(header, mapping)
    if header and not wrong:
        column_mapping_remember(owner=owner, header=header, mapping=columns)
    return wrong


def collection_import_commit_batch(
    *, batch: ImportBatch, on_writing: Callable[[], None] | None = None
) -> ImportBatch:
    """Write a previewed batch: its text is read again (the catalog may have changed since),
    and nothing is written unless every row is still clean. ``on_writing()`` is called once
    the file is read and checked (a job's bar)."""
    if batch.status != ImportBatch.Status.PREVIEWED:
        raise errors.CollectionError("batch", errors.COMMIT_NOT_PREVIEWED)
    game = Game.objects.filter(slug=batch.game).first() if batch.game else None
    result = read_collection_csv(
        batch.content, game=game, dialect_code=batch.dialect, mapping=batch.mapping or None
    )
    if result.problems:
        raise CollectionImportError(result.problems)
    # the collection may have changed since the preview: the same bounds, the same report
    over = _total_problems(result, collection_plan(owner=batch.owner, specs=result.specs))
    if over:
        raise CollectionImportError(over)
    # the collection may have grown since the preview: its size is bounded again here
    collection_room_check(owner=batch.owner, specs=result.specs)
    if on_writing is not None:
        on_writing()
    return collection_import_commit(batch=batch, specs=result.specs)


def _total_problems(result: ReadResult, plan: Sequence[AddOutcome]) -> list[Problem]:
    """Items the file would take beyond the bound of copies, each at its first line."""
    index = result.columns.get("quantity")
    column = result.header[index] if index is not None and index < len(result.header) else ""
    return [
        Problem(
            result.lines.get(o.spec.identity, result.header_line),
            column,
            str(errors.IMPORT_ABOVE_BOUND % {"have": o.before, "max": MAX_QUANTITY}),
        )
        for o in plan
        if o.after > MAX_QUANTITY
    ][:MAX_PROBLEMS]


def collection_export(
    *,
    owner: Any,
    dialect: Dialect,
    game: Game | None = None,
    on_progress: Callable[[int], None] | None = None,
) -> Export:
    """The collection in a dialect; ``on_progress(items_written)`` every chunk (a job's bar)."""
    items = CollectionItem.objects.filter(owner=owner).select_related(
        "printing__card__game", "printing__card_set"
    )
    if game is not None:
        items = items.filter(printing__card__game=game)
    ordered = items.order_by(
        "printing__card__game__sort_order",
        "printing__card_set__code",
        "printing__collector_number",
        "printing__variant",
        "printing__card__code",
        "condition",
        "finish",
        "language",
        "binder",
    )
    rows: Iterable[CollectionItem] = ordered.iterator(chunk_size=2000)
    if on_progress is not None:
        rows = _counted(rows, on_progress, every=2000)
    return export_items(rows, dialect)


def _counted(
    rows: Iterable[CollectionItem], on_progress: Callable[[int], None], *, every: int
) -> Iterator[CollectionItem]:
    for done, row in enumerate(rows, start=1):
        if done % every == 0:
            on_progress(done)
        yield row


def dialect_or_none(code: str) -> Dialect | None:
    return BY_CODE.get(code)
