"""An import in two steps: preview (read, check, show what would be added and merged; store
the text) and commit (read the stored text again and write it as one batch)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from catalog.models import Game
from collection import errors
from collection.interchange.dialects import BY_CODE, Dialect
from collection.interchange.read import Problem, ReadResult, read_collection_csv
from collection.interchange.write import Export, export_items
from collection.models import CollectionItem, ImportBatch
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
    *, owner: Any, content: str, game: Game | None, dialect_code: str = "", file_name: str = ""
) -> Preview:
    """Read and check the file; when clean, store it as a previewed batch to commit."""
    result = read_collection_csv(content, game=game, dialect_code=dialect_code)
    if result.problems:
        return Preview(batch=None, result=result, plan=[])
    plan = collection_plan(owner=owner, specs=result.specs)
    assert result.dialect is not None
    batch = ImportBatch.objects.create(
        owner=owner,
        game=game.slug if game else "",
        dialect=result.dialect.code,
        file_name=file_name[:255],
        content=content,
        row_count=len(result.specs),
        copy_count=sum(s.quantity for s in result.specs),
    )
    return Preview(batch=batch, result=result, plan=plan)


def collection_import_commit_batch(*, batch: ImportBatch) -> ImportBatch:
    """Write a previewed batch: its text is read again (the catalog may have changed since),
    and nothing is written unless every row is still clean."""
    if batch.status != ImportBatch.Status.PREVIEWED:
        raise errors.CollectionError("batch", errors.COMMIT_NOT_PREVIEWED)
    game = Game.objects.filter(slug=batch.game).first() if batch.game else None
    result = read_collection_csv(batch.content, game=game, dialect_code=batch.dialect)
    if result.problems:
        raise CollectionImportError(result.problems)
    return collection_import_commit(batch=batch, specs=result.specs)


def collection_export(*, owner: Any, dialect: Dialect, game: Game | None = None) -> Export:
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
    return export_items(ordered.iterator(chunk_size=2000), dialect)


def dialect_or_none(code: str) -> Dialect | None:
    return BY_CODE.get(code)
