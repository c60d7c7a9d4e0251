"""The `necro` command line: validate content, play, replay, run scenarios."""
