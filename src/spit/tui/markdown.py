"""Pages of Markdown (rules, keys, help), in ASCII when the terminal needs it."""

from __future__ import annotations

from textual.widgets import Markdown

from spit.play.texts import to_ascii


class AsciiMarkdown(Markdown):
    """Markdown with ASCII list bullets, for ``--ascii`` and terminals without Unicode."""

    BULLETS = ["* ", "- ", "+ ", "* ", "- "]  # noqa: RUF012  (Textual's own name)


def page(text: str, ascii_only: bool) -> Markdown:
    """A Markdown widget for ``text``: bullets and suits in ASCII if ``ascii_only``."""
    if ascii_only:
        return AsciiMarkdown(to_ascii(text))
    return Markdown(text)
