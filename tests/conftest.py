"""Shared fixtures: the catalog files loaded once per test database, and a cast of users."""

from __future__ import annotations
