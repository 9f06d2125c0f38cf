"""The catalog editors' group, there on every database from its first migration.

Who may review proposals is decided by membership of this group (contributions.services.
is_editor); staff add and remove members in the admin. Without the group on a fresh database
staff would first have to create it by hand, with exactly the right name, before they could
appoint anyone. Running the migration again (or on a database where staff already made the
group) leaves the group and its members as they are.
"""

from __future__ import annotations

from typing import Any

from django.db import migrations

#: contributions.models.EDITORS_GROUP, written out: a migration is frozen history and must not
#: change meaning if the constant is ever renamed (tests/contributions/test_editors_group.py
#: checks the two agree)
EDITORS_GROUP = "catalog-editors"


def create_group(apps: Any, schema_editor: Any) -> None:
    group_model = apps.get_model("auth", "Group")
    group_model.objects.using(schema_editor.connection.alias).get_or_create(name=EDITORS_GROUP)


class Migration(migrations.Migration):
    dependencies = [
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contributions", "0001_initial"),
    ]

    # Unapplying keeps the group: it may hold the editors staff appointed since.
    operations = [migrations.RunPython(create_group, migrations.RunPython.noop, elidable=False)]
