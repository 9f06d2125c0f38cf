"""Collection CSV files: DeckLab's own and the dialects of other tools, read and written.

``dialects`` says what each format's columns and words are; ``read`` turns a file into
checked item specs (or every problem with its line and column); ``write`` exports.
"""

from __future__ import annotations
