"""Check documents against the JSON Schemas in schema/, reporting errors at the offending value."""
from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError, best_match
from referencing import Registry, Resource

from .. import paths
from ..diagnostics import Report, did_you_mean
from .files import Document

KINDS = {"faction": "faction", "map": "map", "ruleset": "ruleset", "neutral-unit": "neutral-unit",
         "neutral-spellbook": "neutral-spellbook", "loyalty-card": "loyalty-card", "token": "token"}


@lru_cache(maxsize=1)
def _validators() -> dict[str, Draft202012Validator]:
    folder = paths.schema_dir()
    resources = []
    schemas: dict[str, Any] = {}
    for f in sorted(folder.glob("*.schema.json")):
        s = json.loads(f.read_text(encoding="utf-8"))
        schemas[f.name] = s
        resources.append((s["$id"], Resource.from_contents(s)))
    registry: Registry = Registry().with_resources(resources)
    return {kind: Draft202012Validator(schemas[f"{name}.schema.json"], registry=registry)
            for kind, name in KINDS.items()}


def _message(err: ValidationError) -> str:
    where = "/".join(str(p) for p in err.absolute_path) or "(top level)"
    if err.validator == "additionalProperties":
        allowed = list(err.schema.get("properties", {}))
        extra = [k for k in err.instance if k not in err.schema.get("properties", {})] if isinstance(err.instance, dict) else []
        if extra:
            return f"unknown key '{extra[0]}' in {where}{did_you_mean(extra[0], allowed)}"
    if err.validator == "required":
        return f"{where}: {err.message}"
    choices = _choices(err)
    if choices and isinstance(err.instance, str):
        shown = ", ".join(choices) if len(choices) <= 30 else ", ".join(choices[:30]) + ", ..."
        return f"{where}: unknown value '{err.instance}'{did_you_mean(err.instance, choices)}; one of: {shown}"
    if err.validator in ("oneOf", "anyOf") and err.context:
        inner = best_match(err.context)
        return f"{where}: {inner.message}"
    return f"{where}: {err.message}"


def _choices(err: ValidationError) -> list[str]:
    """The allowed words when `err` is an enum or const mismatch (also inside anyOf/oneOf); else []."""
    if err.validator == "enum":
        return [str(v) for v in err.validator_value]
    if err.validator == "const":
        return [str(err.validator_value)]
    if err.validator in ("oneOf", "anyOf") and err.context:
        # every branch must be a word list for the value at this same place (e.g. a window or 'state')
        same = [e for e in err.context if e.relative_path == err.relative_path or not e.relative_path]
        if same and all(e.validator in ("enum", "const") for e in same):
            out: list[str] = []
            for e in same:
                out.extend(c for c in _choices(e) if c not in out)
            return out
    return []


def check(doc: Document, report: Report) -> bool:
    """True when the document matches its kind's schema; every violation is reported."""
    if not isinstance(doc.data, dict):
        report.error(doc.pos(), "not-a-mapping", "a content file must be a mapping with a 'kind' key")
        return False
    kind = doc.data.get("kind")
    if not isinstance(kind, str) or kind not in KINDS:
        report.error(doc.pos("kind") if "kind" in doc.data else doc.pos(), "unknown-kind",
                     f"unknown kind {kind!r}{did_you_mean(str(kind), KINDS)}; one of: {', '.join(sorted(KINDS))}"
                     if kind is not None else "missing key 'kind'")
        return False
    ok = True
    for err in _validators()[kind].iter_errors(doc.data):
        ok = False
        path = tuple(err.absolute_path)
        if err.validator == "additionalProperties" and isinstance(err.instance, dict):
            extra = [k for k in err.instance if k not in err.schema.get("properties", {})]
            pos = doc.positions.key_of(path + (extra[0],)) if extra else doc.positions.of(path)
        else:
            pos = doc.positions.of(path)
        report.error(pos, "schema", _message(err), "/".join(map(str, path)))
    return ok
