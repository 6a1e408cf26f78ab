"""Key values as text: Spark SQL literals and identifiers, and the config as YAML and Jinja.

Everything :mod:`skewjoin.planner` and :mod:`skewjoin.profiler` write into a
query or a config goes through here:

- :func:`type_kind` classifies a Spark type as the package's macros do;
  :func:`key_value` reads a key's ``cast(key as string)`` back as a config
  value; :func:`spark_literal`, :func:`quote_spark_string` and
  :func:`spark_ident` write values and names so that no value from data can
  change the shape of a query (the escaping of the ``_sj_quote_string`` macro);
- :func:`to_yaml`, :func:`to_jinja` and :func:`jinja_config_line` write a
  ``skew_join`` specification that parses back to the same dict.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from decimal import Decimal, InvalidOperation
from typing import Any

import yaml

from skewjoin.errors import PlanError

#: A key value as the config carries it: integers and booleans as themselves,
#: strings as strings, every other type (decimal, double, date, timestamp) as
#: its exact text, which ``skew_join`` casts to the key's type.
KeyValue = int | bool | str

_NUMBER = re.compile(r"[+-]?([0-9]+([.][0-9]*)?|[.][0-9]+)([eE][+-]?[0-9]+)?")
_PLAIN_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def type_kind(data_type: str) -> str:
    """integral | decimal | fractional | string | boolean | date | timestamp | other (as the macros classify)."""
    t = re.sub(r"\s+", "", data_type.lower())
    if t in ("tinyint", "smallint", "int", "integer", "bigint", "long", "short", "byte"):
        return "integral"
    if t.startswith(("decimal", "numeric", "dec(")) or t == "dec":
        return "decimal"
    if t in ("float", "double", "real"):
        return "fractional"
    if t == "string" or re.fullmatch(r"(var)?char\(\d+\)", t):
        return "string"
    if t in ("boolean", "bool"):
        return "boolean"
    if t == "date":
        return "date"
    if t in ("timestamp", "timestamp_ltz"):
        return "timestamp"
    return "other"


def is_complex_type(data_type: str) -> bool:
    """Arrays, maps, structs and variants cannot be declared as hot keys."""
    t = data_type.strip().lower()
    return t.startswith(("array", "map", "struct", "variant", "object"))


def key_value(text: str, data_type: str) -> KeyValue:
    """The config value for a key whose ``cast(key as string)`` is *text*."""
    kind = type_kind(data_type)
    if kind == "integral":
        return int(text)
    if kind == "boolean":
        if text.lower() not in ("true", "false"):
            raise PlanError(f"boolean key text {text!r} is neither true nor false")
        return text.lower() == "true"
    return text


def declarable(value: KeyValue, data_type: str) -> bool:
    """Can ``skew_join`` take *value* as a hot key of *data_type*?

    The macro validates numbers by pattern, so a double NaN or Infinity cannot be declared.
    """
    if type_kind(data_type) in ("decimal", "fractional"):
        return bool(_NUMBER.fullmatch(str(value).strip()))
    return True


def quote_spark_string(value: str) -> str:
    """A Spark SQL string literal for *value*: one token whatever it holds.

    The same escaping as the package's ``_sj_quote_string`` macro: backslash
    first, then quotes and control characters (Spark SQL literals use
    backslash escapes, and adjacent literals concatenate), and the ``$`` of
    ``${`` as a unicode escape (Spark substitutes ``${name}`` in the statement
    text before parsing, inside literals too).
    """
    s = value.replace("\\", "\\\\").replace("'", "\\'").replace('"', '\\"')
    s = s.replace("\n", "\\n").replace("\r", "\\r").replace("\t", "\\t").replace("\x00", "\\u0000")
    s = s.replace("${", "\\u0024{")
    return f"'{s}'"


def spark_literal(value: KeyValue, data_type: str) -> str:
    """A Spark SQL literal of *value* compared against a column of *data_type*."""
    kind = type_kind(data_type)
    if kind == "integral":
        if isinstance(value, bool) or not isinstance(value, int):
            raise PlanError(f"{value!r} is not an integer")
        return str(value)
    if kind == "boolean":
        if not isinstance(value, bool):
            raise PlanError(f"{value!r} is not a boolean")
        return "true" if value else "false"
    text = str(value)
    if kind == "decimal":
        try:
            Decimal(text)
        except InvalidOperation as exc:
            raise PlanError(f"{text!r} is not a decimal number") from exc
        if not _NUMBER.fullmatch(text):
            raise PlanError(f"{text!r} is not a decimal number")
        return text
    if kind == "string":
        return quote_spark_string(text)
    type_text = re.sub(r"\s+", "", data_type.lower())
    if not re.fullmatch(r"[a-z_][a-z0-9_]*(\([0-9, ]*\))?", type_text):
        raise PlanError(f"cannot write a literal of type {data_type!r}")
    return f"cast({quote_spark_string(text)} as {type_text})"


def spark_ident(name: str) -> str:
    """*name* as a Spark SQL identifier (backticks unless it is a plain name)."""
    if _PLAIN_IDENT.fullmatch(name):
        return name
    return "`" + name.replace("`", "``") + "`"


# -- the config as YAML and Jinja ---------------------------------------------------------


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
