"""Engine parameters as typed data: defaults and bounds, shown in the UI and validated in
the API (every problem named by its field)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

Kind = Literal["int", "float", "bool", "choice"]


@dataclass(frozen=True)
class Param:
    name: str
    #: English, marked with N_() so the Django side can translate it (see i18n.py)
    label: str
    kind: Kind
    default: Any
    minimum: float | None = None
    maximum: float | None = None
    choices: tuple[tuple[str, str], ...] = ()
    help: str = ""

    def clean(self, raw: Any) -> Any:
        """The value, coerced and checked; raises ValueError with the reason."""
        if self.kind == "bool":
            if isinstance(raw, bool):
                return raw
            if isinstance(raw, str) and raw.lower() in {"true", "false", "on", "off", "1", "0"}:
                return raw.lower() in {"true", "on", "1"}
            raise ValueError("expected true or false")
        if self.kind == "choice":
            if raw not in {code for code, _label in self.choices}:
                codes = ", ".join(code for code, _label in self.choices)
                raise ValueError(f"expected one of: {codes}")
            return raw
        try:
            if isinstance(raw, bool):
                raise TypeError
            number = int(raw) if self.kind == "int" else float(raw)
            if self.kind == "int" and isinstance(raw, float) and raw != int(raw):
                raise TypeError
        except (TypeError, ValueError):
            raise ValueError(
                "expected a whole number" if self.kind == "int" else "expected a number"
            ) from None
        if self.minimum is not None and number < self.minimum:
            raise ValueError(f"must be at least {self.minimum:g}")
        if self.maximum is not None and number > self.maximum:
            raise ValueError(f"must be at most {self.maximum:g}")
        return number


class ParamErrors(ValueError):
    def __init__(self, errors: dict[str, str]) -> None:
        self.errors = errors
        super().__init__("; ".join(f"{k}: {v}" for k, v in errors.items()))


@dataclass(frozen=True)
class ParamSpec:
    params: tuple[Param, ...] = field(default_factory=tuple)

    @property
    def defaults(self) -> dict[str, Any]:
        return {p.name: p.default for p in self.params}

    def clean(self, raw: Mapping[str, Any] | None) -> dict[str, Any]:
        """Defaults overlaid with ``raw``; unknown or bad values raise ParamErrors naming
        every field at once."""
        raw = dict(raw or {})
        known = {p.name: p for p in self.params}
        errors = {name: "unknown parameter" for name in raw if name not in known}
        values = self.defaults
        for name, value in raw.items():
            if name in known:
                try:
                    values[name] = known[name].clean(value)
                except ValueError as exc:
                    errors[name] = str(exc)
        if errors:
            raise ParamErrors(errors)
        return values
