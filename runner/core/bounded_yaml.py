"""YAML for files a stranger wrote: safe loading with limits on size, nesting depth and aliases."""

from __future__ import annotations

from typing import Any

import yaml

from runner.core.errors import TaurecError

__all__ = ["MAX_YAML_BYTES", "MAX_YAML_DEPTH", "YamlLimitError", "check_yaml_limits"]

MAX_YAML_BYTES = 64 * 1024
MAX_YAML_DEPTH = 32


class YamlLimitError(TaurecError):
    """A YAML document over a limit (size, depth, an alias): refused before it is built."""


def check_yaml_limits(
    text: str, *, max_bytes: int = MAX_YAML_BYTES, max_depth: int = MAX_YAML_DEPTH
) -> None:
    """Raise YamlLimitError for a document too large, too deep, or using anchors and aliases.

    Only the event stream is read (linear time, no recursion, nothing built), so an anchor bomb
    or ten thousand nested brackets fail in microseconds instead of hanging or overflowing the
    stack. Configs never need aliases: refusing them outright is the simplest bound.
    """
    size = len(text.encode("utf-8"))
    if size > max_bytes:
        raise YamlLimitError(f"{size} bytes: larger than the {max_bytes}-byte limit")
    depth = 0
    try:
        for event in yaml.parse(text, Loader=yaml.SafeLoader):
            if isinstance(event, yaml.AliasEvent):
                line = event.start_mark.line + 1 if event.start_mark else "?"
                raise YamlLimitError(
                    f"line {line}: alias *{event.anchor}: anchors and aliases are not allowed"
                )
            if isinstance(event, yaml.NodeEvent) and event.anchor is not None:
                line = event.start_mark.line + 1 if event.start_mark else "?"
                raise YamlLimitError(
                    f"line {line}: anchor &{event.anchor}: anchors and aliases are not allowed"
                )
            if isinstance(event, yaml.CollectionStartEvent):
                depth += 1
                if depth > max_depth:
                    line = event.start_mark.line + 1 if event.start_mark else "?"
                    raise YamlLimitError(f"line {line}: nested deeper than {max_depth} levels")
            elif isinstance(event, yaml.CollectionEndEvent):
                depth -= 1
    except yaml.YAMLError:
        return  # the loader reports syntax errors with its own message


def safe_load_bounded(text: str, *, loader: type[yaml.SafeLoader] = yaml.SafeLoader) -> Any:
    """`check_yaml_limits`, then load with a safe loader."""
    check_yaml_limits(text)
    return yaml.load(text, Loader=loader)  # always a SafeLoader subclass
