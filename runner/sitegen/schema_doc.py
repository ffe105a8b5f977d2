"""The submission schema reference, generated from the `Submission` pydantic model's JSON schema."""

from __future__ import annotations

import json
from typing import Any

from runner.submissions.config import Submission


def _type_parts(prop: dict[str, Any] | bool) -> list[dict[str, str | None]]:
    """Readable type alternatives of one JSON-schema property; model references carry an anchor."""
    if isinstance(prop, bool):
        return [{"text": "any", "anchor": None}]
    if "$ref" in prop:
        name = prop["$ref"].rsplit("/", 1)[-1]
        return [{"text": name, "anchor": f"model-{name}"}]
    if "anyOf" in prop or "oneOf" in prop:
        parts: list[dict[str, str | None]] = []
        for option in prop.get("anyOf", prop.get("oneOf", [])):
            parts += _type_parts(option)
        return parts
    if "const" in prop:
        return [{"text": json.dumps(prop["const"]), "anchor": None}]
    if "enum" in prop:
        return [{"text": " | ".join(json.dumps(v) for v in prop["enum"]), "anchor": None}]
    kind = prop.get("type", "any")
    if kind == "array":
        inner = _type_parts(prop.get("items", {}))
        return [
            {
                "text": f"list[{' | '.join(str(p['text']) for p in inner)}]",
                "anchor": inner[0]["anchor"] if len(inner) == 1 else None,
            }
        ]
    if kind == "object" and "additionalProperties" in prop:
        inner = _type_parts(prop["additionalProperties"])
        return [{"text": f"map[str, {' | '.join(str(p['text']) for p in inner)}]", "anchor": None}]
    text = str(kind)
    if "format" in prop:
        text += f" ({prop['format']})"
    if "pattern" in prop:
        text += f" matching {prop['pattern']}"
    limits = [
        f"{k} {prop[k]}"
        for k in ("minimum", "maximum", "exclusiveMinimum", "minLength", "maxLength")
        if k in prop
    ]
    if limits:
        text += f" ({', '.join(limits)})"
    return [{"text": text, "anchor": None}]


def _model(name: str, schema: dict[str, Any]) -> dict[str, Any]:
    required = set(schema.get("required", []))
    fields = []
    for field, prop in schema.get("properties", {}).items():
        default = prop.get("default")
        fields.append(
            {
                "name": field,
                "type": _type_parts(prop),
                "required": field in required,
                "default": None if "default" not in prop else json.dumps(default),
                "description": prop.get("description", ""),
            }
        )
    return {
        "name": name,
        "anchor": f"model-{name}",
        "description": schema.get("description", ""),
        "fields": fields,
    }


def schema_models() -> list[dict[str, Any]]:
    """The Submission model first, then every nested model in name order."""
    schema = Submission.model_json_schema()
    defs: dict[str, Any] = schema.pop("$defs", {})
    return [_model("Submission", schema)] + [_model(n, defs[n]) for n in sorted(defs)]
