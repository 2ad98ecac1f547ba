"""Files on disk: paths, settings, records, replays, saved games, the archiver."""
