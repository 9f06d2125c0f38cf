"""Forms of the collection pages: bounded, and every refusal names its field (400)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from collection.interchange.dialects import DIALECTS, GENERIC
from collection.interchange.read import MAX_BYTES
from collection.models import MAX_BINDER, MAX_QUANTITY, MAX_WISH_QUANTITY
from collection.vocab import Condition, finishes_for, language_label, languages_for


class AddForm(forms.Form):
    """Copies of one printing (the card page), or a set's or product's contents."""

    printing = forms.IntegerField(min_value=1, required=False, widget=forms.HiddenInput)
    quantity = forms.IntegerField(label=_("Copies"), min_value=1, max_value=MAX_QUANTITY, initial=1)
    condition = forms.ChoiceField(
        label=_("Condition"), choices=Condition.choices, initial=Condition.NEAR_MINT
    )
    finish = forms.ChoiceField(label=_("Finish"), choices=())
    language = forms.ChoiceField(label=_("Language"), choices=())
    binder = forms.CharField(label=_("Binder"), max_length=MAX_BINDER, required=False)

    def __init__(self, *args: Any, game_slug: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        finish = self.fields["finish"]
        language = self.fields["language"]
        assert isinstance(finish, forms.ChoiceField) and isinstance(language, forms.ChoiceField)
        finish.choices = list(finishes_for(game_slug))
        language.choices = [(code, language_label(code)) for code in languages_for(game_slug)]


class QuantityForm(forms.Form):
    quantity = forms.IntegerField(min_value=0, max_value=MAX_QUANTITY)


class MoveForm(forms.Form):
    binder = forms.CharField(max_length=MAX_BINDER, required=False)


class WishQuantityForm(forms.Form):
    quantity = forms.IntegerField(min_value=0, max_value=MAX_WISH_QUANTITY)


class ImportForm(forms.Form):
    game = forms.ChoiceField(
        label=_("Game"), choices=(), widget=forms.Select(attrs={"class": "form-select"})
    )
    format = forms.ChoiceField(
        label=_("Format"),
        required=False,
        choices=(),
        widget=forms.Select(attrs={"class": "form-select"}),
        help_text=_("Recognised by the header row; choose it when the page asks which it is."),
    )
    file = forms.FileField(
        label=_("CSV file"),
        required=False,
        widget=forms.ClearableFileInput(attrs={"class": "form-control", "accept": ".csv,.txt"}),
    )
    text = forms.CharField(
        label=_("…or paste the CSV"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 6, "class": "form-control font-monospace"}),
        max_length=MAX_BYTES,
        strip=False,
    )

    typed = forms.CharField(
        label=_("…or type a list, one card per line (3 Flame Fox (MT1) 001)"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 6, "class": "form-control"}),
        max_length=MAX_BYTES,
    )

    def __init__(self, *args: Any, games: list[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        game = self.fields["game"]
        assert isinstance(game, forms.ChoiceField)
        game.choices = games
        chosen = self.fields["format"]
        assert isinstance(chosen, forms.ChoiceField)
        chosen.choices = [
            ("", _("Recognise it by its header")),
            *((d.code, d.label) for d in DIALECTS),
            (GENERIC.code, GENERIC.label),
        ]

    def clean_file(self) -> Any:
        upload = self.cleaned_data.get("file")
        if upload is not None and upload.size > MAX_BYTES:
            raise forms.ValidationError(
                _("The file is larger than %(max)d MB.") % {"max": MAX_BYTES >> 20}
            )
        return upload

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        given = [k for k in ("file", "text", "typed") if cleaned.get(k)]
        if len(given) != 1:
            raise forms.ValidationError(
                _("Choose a CSV file, paste its text or type a list: one of the three.")
            )
        return cleaned


EXPORT_CHOICES = [(d.code, d.label) for d in DIALECTS]
