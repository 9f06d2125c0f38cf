"""From a rule citation ("unmatched.md:18") to what a reader follows: the rules reference
page's address (``/rules/<game>/#<anchor>``) and the rule's title in each language, as the
page shows it. The pages (``games_ui``) and the API (legality problems) both read these."""

from __future__ import annotations

from django.urls import reverse

from games.reference import CITATION, Rule, anchor_of, game_of_digest, rule_for

LANGUAGES = ("en", "ja")


def rule_path(cite: object) -> str:
    """The rules reference page (and anchor) a citation points at; "" when none does."""
    found = CITATION.fullmatch(str(cite))
    if not found:
        return ""
    return path_for(found["digest"], found["line"])


def path_for(digest: str, line: str | None) -> str:
    target = anchor_of(digest, int(line) if line else None)
    if target is None:
        return ""
    slug, anchor = target
    url = reverse("games:rules", args=[slug])
    return f"{url}#{anchor}" if anchor else url


def rule_of(cite: object) -> Rule | None:
    """The rule of the reference a citation points at (None: no rule covers it)."""
    found = CITATION.fullmatch(str(cite))
    if not found or not found["line"]:
        return None
    slug = game_of_digest(found["digest"])
    return rule_for(slug, int(found["line"])) if slug else None


def rule_titles(cite: object) -> dict[str, str] | None:
    """The cited rule's title in English and Japanese; None when no rule covers it."""
    rule = rule_of(cite)
    return {language: rule.title(language) for language in LANGUAGES} if rule else None
