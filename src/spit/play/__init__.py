"""The play controller without Textual: sessions, keys, narration, playback."""
