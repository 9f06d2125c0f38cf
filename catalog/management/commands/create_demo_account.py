"""manage.py create_demo_account --password PW [--username demo]

The account scripts/run prints at start-up, so a visitor can try catalog uploads and the admin.
Idempotent: running it again with the same password changes nothing; a new password replaces
the old one. The account is staff and superuser: it is meant for a local demonstration, never
for a public server.
"""

from __future__ import annotations

from argparse import ArgumentParser
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

DEFAULT_USERNAME = "demo"
MIN_PASSWORD_LENGTH = 8
SHORT_PASSWORD = f"The demo password must have at least {MIN_PASSWORD_LENGTH} characters."


class Command(BaseCommand):
    help = "Create or refresh the demo account (staff and superuser) with the given password."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("--username", default=DEFAULT_USERNAME)
        parser.add_argument("--password", required=True)

    def handle(self, *args: Any, **options: Any) -> None:
        username: str = options["username"]
        password: str = options["password"]
        if len(password) < MIN_PASSWORD_LENGTH:
            raise CommandError(SHORT_PASSWORD)
        user_model = get_user_model()
        with transaction.atomic():
            lookup = {user_model.USERNAME_FIELD: username}
            user = user_model.objects.filter(**lookup).first()
            created = user is None
            if user is None:
                user = user_model(**lookup)
            changed = created
            if not (user.is_staff and user.is_superuser and user.is_active):
                user.is_staff = user.is_superuser = user.is_active = True
                changed = True
            if not user.check_password(password):
                user.set_password(password)
                changed = True
            if changed:
                user.save()
        state = "created" if created else ("updated" if changed else "unchanged")
        self.stdout.write(f"Demo account {username!r} {state}.")
