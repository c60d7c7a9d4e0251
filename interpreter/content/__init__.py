"""Content: YAML files -> checked documents -> a compiled, frozen model the engine runs."""
from .build import Content, load_content  # noqa: F401
