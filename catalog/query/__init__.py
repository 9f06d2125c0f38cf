"""The card search language: parse (``syntax``), per-game fields (``fields``), compile to a
database condition (``compile``), errors with positions (``errors``). See docs/search.md."""
