"""Catalog importers: several input formats, one validator, one all-or-nothing writer."""
