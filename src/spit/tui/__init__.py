"""The Textual user interface: screens and widgets over the play layer (no rules decided here)."""

#: the title menu's styles and those of the screens it opens, which name it as their
#: ``CSS_PATH``: Textual reads it when the first of them opens, not at start-up
#: (``spit play`` shows its board without parsing it; ``SpitApp`` has ``spit.tcss``)
MENUS_CSS_PATH = "menus.tcss"
