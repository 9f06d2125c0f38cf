"""Unmatched's deck extras (``decks.extras``): the official product a deck was started from,
which carries its data notes, and the sidekick chosen where the hero offers a choice (Buffy's
"Giles or Xander", unmatched.md:6). What they mean for legality is judged in ``deck.py``."""

from __future__ import annotations

from typing import Any

from django.utils import translation
from django.utils.translation import gettext_lazy

from decks.extras import Extra, ExtraError
from games.official import official_product
from games.unmatched import GAME
from games.unmatched.official import OFFICIAL_KEY, SIDEKICK_KEY, sidekick_choice

NOT_A_PRODUCT = gettext_lazy("“%(value)s” is not an official Unmatched hero deck with data notes.")
NOT_A_NAME = gettext_lazy("The sidekick is a fighter's name (at most 80 characters).")
NO_SUCH_OPTION = gettext_lazy("Choose one of: %(options)s.")


class OfficialDeck(Extra):
    key = OFFICIAL_KEY
    label = gettext_lazy("Official deck")
    text_keys = ("official", "公式デッキ")
    # the editor shows the note too, beside the legality panel that cites it
    editor_template = display_template = "games/unmatched/official_display.html"

    def clean(self, value: Any) -> str:
        if value in (None, ""):
            return ""
        if not isinstance(value, str) or official_product(GAME.slug, value) is None:
            raise ExtraError(NOT_A_PRODUCT % {"value": str(value)[:40]})
        return value

    def parse_text(self, text: str) -> str:
        return self.clean(text.strip())

    def to_text(self, value: Any) -> str:
        return str(value or "")

    def context(self, value: Any) -> dict[str, Any]:
        product = official_product(GAME.slug, value) if isinstance(value, str) else None
        language = translation.get_language() or "en"
        notes = [(n.text(language), n.source) for n in product.notes] if product else []
        return {"product": product, "notes": notes}


class Sidekick(Extra):
    key = SIDEKICK_KEY
    label = gettext_lazy("Sidekick chosen")
    text_keys = ("sidekick", "サイドキック")
    editor_template = "games/unmatched/sidekick_editor.html"
    display_template = "games/unmatched/sidekick_display.html"

    def clean(self, value: Any) -> str:
        if value in (None, ""):
            return ""
        if not isinstance(value, str) or len(value) > 80:
            raise ExtraError(NOT_A_NAME)
        return value.strip()

    def parse_text(self, text: str) -> str:
        return self.clean(text.strip())

    def to_text(self, value: Any) -> str:
        return str(value or "")

    def from_post(self, current: Any, data: Any) -> str:
        return self.clean(data.get("sidekick", ""))

    def deck_context(self, deck: Any, value: Any) -> dict[str, Any]:
        """The choice the deck's official product offers (none for a custom deck)."""
        extras = deck.extras if isinstance(deck.extras, dict) else {}
        code = extras.get(OFFICIAL_KEY)
        choice = sidekick_choice(official_product(GAME.slug, code) if code else None)
        language = translation.get_language() or "en"
        options = [(o.value, o.label(language)) for o in choice.options] if choice else []
        shown = next((label for v, label in options if v == value), value or "")
        return {"chosen": value or "", "shown": shown, "options": options}


EXTRAS = (OfficialDeck(), Sidekick())
