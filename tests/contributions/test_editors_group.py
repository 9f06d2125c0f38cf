"""The catalog editors' group: on a fresh database it is there (a data migration makes it),
making it again changes nothing, and staff appoint and dismiss editors in the admin."""

from __future__ import annotations

import importlib
from typing import Any

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.urls import reverse

from contributions.models import EDITORS_GROUP
from contributions.services import is_editor
from tests.conftest import PASSWORD, _client_for

pytestmark = pytest.mark.django_db

MIGRATION = importlib.import_module("contributions.migrations.0002_catalog_editors_group")
REVIEW = reverse("contributions:review")


def test_the_migration_names_the_group_the_services_check() -> None:
    assert MIGRATION.EDITORS_GROUP == EDITORS_GROUP


def test_a_fresh_database_has_the_group_with_no_member() -> None:
    # the test database is built by running every migration, as a new site's is
    group = Group.objects.get(name=EDITORS_GROUP)
    assert group.user_set.count() == 0


def test_migrating_again_keeps_the_one_group_and_its_members(stranger: Any) -> None:
    group = Group.objects.get(name=EDITORS_GROUP)
    group.user_set.add(stranger)
    # back to before the group (unapplying keeps it) and forward again: the migration runs
    # on a database where the group exists
    call_command("migrate", "contributions", "0001", verbosity=0)
    assert Group.objects.filter(name=EDITORS_GROUP).count() == 1
    call_command("migrate", "contributions", verbosity=0)
    MIGRATION.create_group(apps, connection.schema_editor())
    groups = Group.objects.filter(name=EDITORS_GROUP)
    assert [g.pk for g in groups] == [group.pk]
    assert list(group.user_set.values_list("username", flat=True)) == [stranger.username]


def test_the_migration_makes_the_group_where_it_is_missing() -> None:
    Group.objects.filter(name=EDITORS_GROUP).delete()
    MIGRATION.create_group(apps, connection.schema_editor())
    assert Group.objects.filter(name=EDITORS_GROUP).count() == 1


def _user_change(admin: Client, user: Any, groups: list[int]) -> None:
    """The admin's user page saved with ``groups`` and every other field as it was."""
    url = reverse("admin:auth_user_change", args=[user.pk])
    page = admin.get(url)
    assert page.status_code == 200
    form = page.context["adminform"].form
    assert EDITORS_GROUP in {str(group) for group in form.fields["groups"].queryset}
    data: dict[str, Any] = {
        "username": user.username,
        "first_name": "",
        "last_name": "",
        "email": user.email,
        "is_active": "on",
        "groups": [str(pk) for pk in groups],
        "user_permissions": [],
        "last_login_0": "",
        "last_login_1": "",
        "date_joined_0": user.date_joined.strftime("%Y-%m-%d"),
        "date_joined_1": user.date_joined.strftime("%H:%M:%S"),
        "_save": "Save",
    }
    answer = admin.post(url, data)
    assert answer.status_code == 302, answer.context["adminform"].form.errors
    assert answer["Location"] == reverse("admin:auth_user_changelist")


def test_staff_appoint_and_dismiss_an_editor_in_the_admin(stranger: Any) -> None:
    boss = get_user_model().objects.create_superuser("boss", "boss@example.test", PASSWORD)
    admin = _client_for(boss)
    player = _client_for(stranger)
    group = Group.objects.get(name=EDITORS_GROUP)
    assert not is_editor(stranger)
    assert player.get(REVIEW).status_code == 403

    _user_change(admin, stranger, [group.pk])
    stranger.refresh_from_db()
    assert list(stranger.groups.all()) == [group]
    assert is_editor(stranger)
    assert player.get(REVIEW).status_code == 200

    # removing them from the group ends their rights at once (their session stays)
    _user_change(admin, stranger, [])
    assert not is_editor(stranger)
    assert player.get(REVIEW).status_code == 403


def test_the_group_lists_its_members_for_staff(stranger: Any) -> None:
    boss = get_user_model().objects.create_superuser("boss", "boss@example.test", PASSWORD)
    group = Group.objects.get(name=EDITORS_GROUP)
    group.user_set.add(stranger)
    admin = _client_for(boss)
    # the user list filtered by the group: who the editors are, at a glance
    found = admin.get(reverse("admin:auth_user_changelist"), {"groups__id__exact": group.pk})
    assert found.status_code == 200
    assert list(found.context["cl"].result_list) == [stranger]
