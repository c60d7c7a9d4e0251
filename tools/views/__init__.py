"""Read-only views of content and games for `necro show`: faction cards, maps, positions."""
