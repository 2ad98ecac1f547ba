"""The Textual user interface: screens and widgets over the play layer (no rules decided here)."""
