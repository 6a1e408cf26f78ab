"""A ``skew_join`` specification as text a user pastes: YAML for a properties file and a Jinja
``config()`` line for a model; both parse back to the same dict, and dbt reads the Jinja line back as
written. dbt renders a properties file's config values as Jinja, which changes a string holding ``{{``,
``{%``, ``{#`` or a carriage return (:func:`changed_by_dbt_in_yaml`): such a specification pins only in
the Jinja form."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import yaml

from skewjoin.errors import PlanError


class _ConfigDumper(yaml.SafeDumper):  # type: ignore[misc,unused-ignore]  # Any without PyYAML's stubs
    """Block style for mappings, flow style for lists of scalars (``[0, null]``), indented lists."""

    def increase_indent(self, flow: bool = False, indentless: bool = False) -> None:
        super().increase_indent(flow, False)


def _represent_list(dumper: yaml.SafeDumper, data: list[Any]) -> yaml.Node:
    flow = all(
        not isinstance(v, (dict, list)) or (isinstance(v, list) and all(not isinstance(x, (dict, list)) for x in v))
        for v in data
    )
    return dumper.represent_sequence("tag:yaml.org,2002:seq", data, flow_style=flow)


def _represent_str(dumper: yaml.SafeDumper, data: str) -> yaml.Node:
    # line breaks and control characters: double quotes with escapes, on one line
    style = '"' if any(not ch.isprintable() for ch in data) else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", data, style=style)


_ConfigDumper.add_representer(list, _represent_list)
_ConfigDumper.add_representer(str, _represent_str)


def to_yaml(config: Mapping[str, Any], key: str = "skew_join") -> str:
    """``skew_join:`` and *config* as YAML (``yaml.safe_load`` gives ``{key: config}`` back)."""
    text: str = yaml.dump(
        {key: dict(config)},
        Dumper=_ConfigDumper,
        sort_keys=False,
        allow_unicode=True,
        default_flow_style=False,
        width=1_000_000,
    )
    return text


#: what dbt's rendering of a properties file's values changes: Jinja's delimiters (a value holding them is
#: rendered, or fails to parse) and a carriage return (Jinja writes every line break as \n)
_RENDERED = ("{{", "{%", "{#", "\r")


def changed_by_dbt_in_yaml(config: Mapping[str, Any]) -> list[str]:
    """The strings of *config* (keys and values, nested) that dbt would change reading the YAML form.

    The twin of the macro ``_sj_changed_in_yaml`` ('auto''s record), held equal to it by a property test
    (tests/render/test_literal_twins.py)."""
    found: list[str] = []

    def walk(value: Any) -> None:
        if isinstance(value, str):
            if any(mark in value for mark in _RENDERED) and value not in found:
                found.append(value)
        elif isinstance(value, Mapping):
            for k, v in value.items():
                walk(k)
                walk(v)
        elif isinstance(value, (list, tuple)):
            for v in value:
                walk(v)

    walk(config)
    return found


_JINJA_ESCAPES = {"\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def jinja_string(value: str) -> str:
    """A Jinja string literal of *value*.

    Jinja decodes string literals with Python's ``unicode-escape`` rules, so
    backslashes, the quote and control characters are escaped and other
    characters (unicode included) are written as they are.
    """
    quote = '"' if "'" in value and '"' not in value else "'"
    out = []
    for ch in value:
        if ch in _JINJA_ESCAPES:
            out.append(_JINJA_ESCAPES[ch])
        elif ch == quote:
            out.append("\\" + ch)
        elif ord(ch) < 0x20 or ord(ch) == 0x7F or 0xD800 <= ord(ch) <= 0xDFFF:
            out.append(f"\\x{ord(ch):02x}" if ord(ch) < 0x100 else f"\\u{ord(ch):04x}")
        elif ch in ("\u2028", "\u2029", "\x85"):
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    return quote + "".join(out) + quote


def to_jinja(value: Any) -> str:
    """*value* (dicts, lists, strings, ints, floats, bools, None) as a Jinja expression."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise PlanError(f"{value!r} has no Jinja literal")
        return repr(value)
    if isinstance(value, str):
        return jinja_string(value)
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{to_jinja(str(k))}: {to_jinja(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(to_jinja(v) for v in value) + "]"
    raise PlanError(f"cannot write {type(value).__name__} {value!r} as Jinja")


def jinja_config_line(config: Mapping[str, Any]) -> str:
    """``{{ config(skew_join={...}) }}``: the first line of a model."""
    return "{{ config(skew_join=" + to_jinja(dict(config)) + ") }}"
