"""Spark SQL text: types, key values as literals, names and queries, as the macros write them.

Everything :mod:`skewjoin.planner`, :mod:`skewjoin.profiler` and the prune helpers write into a
query or a config goes through here, one rule each:

- :func:`normalize_type` and :func:`type_kind` classify a Spark type as ``_sj_normalize_type``
  and ``_sj_type_kind`` do (macros/_internal/types.sql);
- :func:`key_value` reads a key's ``cast(key as string)`` back as a config value;
  :func:`spark_literal` and :func:`quote_spark_string` write values so that no value from data
  can change the shape of a query (the escaping of ``_sj_quote_string``);
- :func:`spark_ident` writes a name as ``_sj_ident`` does (backticks for anything but a plain
  name that is no reserved word);
- :func:`is_query_text` tells a query from a table name as ``_sj_is_query_text`` does.

tests/render/test_literal_twins.py holds these equal to the
macros. The config as YAML and Jinja is :mod:`skewjoin.config_text`.
"""

from __future__ import annotations

import re
import sys
from decimal import Decimal, InvalidOperation

from skewjoin.errors import PlanError

#: A key value as the config carries it: integers and booleans as themselves,
#: strings as strings, every other type (decimal, double, date, timestamp) as
#: its exact text, which ``skew_join`` casts to the key's type.
KeyValue = int | bool | str

_NUMBER = re.compile(r"[+-]?([0-9]+([.][0-9]*)?|[.][0-9]+)([eE][+-]?[0-9]+)?")


_TYPE_ALIASES = {
    "integer": "int", "long": "bigint", "short": "smallint", "byte": "tinyint", "real": "float", "bool": "boolean",
    "decimal": "decimal(10,0)", "dec": "decimal(10,0)", "numeric": "decimal(10,0)", "timestamp_ltz": "timestamp",
    # Spark's default collation, which compares bytes: the plain string
    "string collate utf8_binary": "string",
}  # fmt: skip
_INTEGRAL_RANK = {"tinyint": 1, "smallint": 2, "int": 3, "bigint": 4}


def normalize_type(data_type: object) -> str:
    """``_sj_normalize_type``: lowercase, spaces collapsed, aliases resolved, ``decimal(p,s)``."""
    t = str(data_type).lower().strip()
    t = re.sub(r"\s+", " ", t)
    t = re.sub(r"\s*([(),])\s*", r"\1", t)
    if t in _TYPE_ALIASES:
        return _TYPE_ALIASES[t]
    m = re.fullmatch(r"(?:decimal|dec|numeric)\((\d+)(?:,(\d+))?\)", t)
    if m:
        return f"decimal({m.group(1)},{m.group(2) or '0'})"
    return t


def type_kind(data_type: object) -> str:
    """``_sj_type_kind``: integral | decimal | fractional | string | boolean | date | timestamp | other.

    Unlike :func:`skewjoin.literals.type_kind` (which classifies loosely), the
    type is normalized first and only the macro's exact forms count.
    """
    t = normalize_type(data_type)
    if t in _INTEGRAL_RANK:
        return "integral"
    if t.startswith("decimal("):
        return "decimal"
    if t in ("float", "double"):
        return "fractional"
    if t == "string" or re.fullmatch(r"(var)?char\(\d+\)", t):
        return "string"
    if t in ("boolean", "date", "timestamp"):
        return t
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


_INT_BITS = {"tinyint": 7, "smallint": 15, "int": 31, "bigint": 63}
_DATE_TEXT = re.compile(r"\s*[+-]?([0-9]{4,7})(?:-([0-9]{1,2})(?:-([0-9]{1,2})(?:[ T].*)?)?)?\s*", re.S)
_TIME_TEXT = re.compile(r"\s*T?([0-9]{1,2}):([0-9]{1,2})(?::([0-9]{1,2}))?.*", re.S)
_TIMESTAMP_TEXT = re.compile(
    r"\s*[+-]?([0-9]{4,7})(?:-([0-9]{1,2})(?:-([0-9]{1,2})"
    r"(?:[ T]([0-9]{1,2})(?::([0-9]{1,2})(?::([0-9]{1,2}))?)?.*)?)?)?\s*",
    re.S,
)


#: where a float's cast leaves its finite values: Infinity from its largest value plus half a step, zero
#: below half its smallest
_FLOAT_ROUNDS_AWAY = (3.4028235677973366e38, 7.006492321624085e-46)


def fits_type(text: str, data_type: str) -> bool:
    """Whether *text* (a number's already checked by pattern) is a value of *data_type* that Spark's cast
    takes as it is written: an integer in range; a decimal with at most precision - scale whole digits and at
    most scale digits after the point (trailing zeros aside); a finite float or double the type holds, zero
    only when written as zero; a date Spark reads that the calendar has; a timestamp whose date the calendar
    has and whose clock is in range (or a time alone in range); other types: True. The twin of the macro
    ``_sj_value_fits``."""
    t = normalize_type(data_type)
    kind = type_kind(t)
    if kind == "integral":
        bits = _INT_BITS[t]
        return -(2**bits) <= int(text.strip()) < 2**bits
    if kind == "decimal":
        m = re.fullmatch(r"decimal\((\d+),(\d+)\)", t)
        assert m is not None
        exponent = re.search(r"[eE]([+-]?[0-9]+)$", text.strip())
        if exponent is not None and abs(int(exponent.group(1))) > 100:
            return False
        whole, _, fraction = _plain_number(text.strip()).lstrip("+-").partition(".")
        whole = whole.lstrip("0")
        scale = int(m.group(2))
        # every digit kept: a cast would round 1.15 to 1.2 in a decimal(5,1), another key
        return len(fraction.rstrip("0")) <= scale and len(whole) <= int(m.group(1)) - scale
    if kind == "fractional":
        # a number the type's cast keeps finite, and not zero unless written as zero (the macro's comment)
        value = abs(float(text.strip()))
        finite = value < _FLOAT_ROUNDS_AWAY[0] if t == "float" else value <= sys.float_info.max
        below = _FLOAT_ROUNDS_AWAY[1] if t == "float" else 0.0
        zero = re.sub(r"[eE].*", "", text).replace("0", "").replace(".", "").strip("+- ") == ""
        return finite and (zero or value > below)
    if kind in ("date", "timestamp"):
        d = (_DATE_TEXT if kind == "date" else _TIMESTAMP_TEXT).fullmatch(text)
        if d is not None:
            fields = d.groups()
            year, month, day = int(fields[0]), int(fields[1] or 1), int(fields[2] or 1)
            leap = (year % 4 == 0 and year % 100 != 0) or year % 400 == 0
            days = [31, 29 if leap else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
            date_ok = 1 <= month <= 12 and 1 <= day <= days[month - 1]
            clock_fields = fields[3:]
        elif kind == "timestamp" and (t := _TIME_TEXT.fullmatch(text)) is not None:
            # a time alone ([T]h[h]:m[m][:s[s]], then anything), which Spark puts on today
            date_ok, clock_fields = True, t.groups()
        else:
            return False
        clock = [int(f or 0) for f in clock_fields]
        in_range = not clock or (clock[0] < 24 and clock[1] < 60 and clock[2] < 60)
        return date_ok and in_range
    return True


#: the spellings of NaN and the infinities a float or double key takes (the macros' ``_sj_special_float``)
_SPECIAL_FLOATS = {"nan", "inf", "+inf", "infinity", "+infinity", "-inf", "-infinity"}


def declarable(value: KeyValue, data_type: str) -> bool:
    """Can ``skew_join`` take *value* as a hot key of *data_type*? (The macros' ``_sj_literal`` writes a
    literal for it; tests/render/test_literal_twins.py holds the two equal.)

    Numbers are validated by pattern; a float or double key also takes NaN and the infinities, which Spark's
    join matches like any value (NaN with NaN).
    """
    kind = type_kind(data_type)
    text = str(value).strip()
    if kind == "fractional" and text.lower() in _SPECIAL_FLOATS:
        return True
    if kind in ("decimal", "fractional") and not _NUMBER.fullmatch(text):
        return False
    if kind == "integral" and not re.fullmatch(r"[+-]?[0-9]+", text):
        return False
    return fits_type(text, data_type)


_ESCAPED_CODES = {"'": 39, "\\": 92, "\n": 10, "\r": 13, "\t": 9, "\x00": 0}


def quote_spark_string(value: str) -> str:
    """A Spark SQL string expression for *value*: the same text in either literal mode, whatever it holds.

    The twin of the package's ``_sj_quote_string`` macro: text that needs no
    escape as one literal; otherwise its plain runs as literals and each quote,
    backslash, newline, carriage return, tab, NUL and the ``$`` of ``${`` as
    ``chr(n)``, joined with ``concat()``. No backslash escape
    (``spark.sql.parser.escapedStringLiterals=true`` keeps a literal's
    backslashes as written) and no ``${`` (Spark substitutes ``${name}`` in
    the statement text before parsing, inside literals too).
    """
    if "${" not in value and not any(ch in value for ch in _ESCAPED_CODES):
        return f"'{value}'"
    parts: list[str] = []
    run = ""
    for i, ch in enumerate(value):
        dollar = ch == "$" and value[i + 1 : i + 2] == "{"
        if ch in _ESCAPED_CODES or dollar:
            if run:
                parts.append(f"'{run}'")
                run = ""
            parts.append(f"chr({36 if dollar else _ESCAPED_CODES[ch]})")
        else:
            run += ch
    if run:
        parts.append(f"'{run}'")
    return parts[0] if len(parts) == 1 else f"concat({', '.join(parts)})"


def quote_option_string(value: str) -> str:
    """A Spark SQL string literal token for *value*, where the grammar takes a literal and no
    expression (a table's OPTIONS): backslash escapes, and the ``$`` of ``${`` as a unicode escape."""
    s = value.replace("\\", "\\\\").replace("'", "\\'").replace('"', '\\"')
    s = s.replace("\n", "\\n").replace("\r", "\\r").replace("\t", "\\t").replace("\x00", "\\u0000")
    s = s.replace("${", "\\u0024{")
    return f"'{s}'"


def _plain_number(text: str) -> str:
    """*text* (a number) without an exponent: ``1.2E-7`` -> ``0.00000012``; text with none as it is."""
    m = re.fullmatch(r"([+-]?)([0-9]*)(?:[.]([0-9]*))?[eE]([+-]?[0-9]+)", text)
    if m is None:
        return text
    whole = m.group(2)
    digits = whole + (m.group(3) or "")
    point = len(whole) + int(m.group(4))
    if point <= 0:
        plain = "0." + "0" * -point + digits
    elif point >= len(digits):
        plain = digits + "0" * (point - len(digits))
    else:
        plain = digits[:point] + "." + digits[point:]
    return m.group(1) + re.sub(r"^0+(?=[0-9])", "", plain)


def spark_literal(value: KeyValue, data_type: str) -> str:
    """A Spark SQL literal of *value* compared against a column of *data_type*: the twin of the macro
    ``_sj_config_literal``, held equal to it by a property test (tests/render/test_literal_twins.py)."""
    kind = type_kind(data_type)
    if kind == "integral":
        if isinstance(value, bool) or not isinstance(value, int):
            raise PlanError(f"{value!r} is not an integer")
        if not fits_type(str(value), data_type):
            raise PlanError(f"{value!r} is out of the range of {data_type}")
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
        if not fits_type(text, data_type):
            raise PlanError(f"{text!r} is not a value of {data_type} (too many digits before or after the point)")
        # Spark reads a number with an exponent as a double: the plain text (the macros' _sj_plain_number)
        return _plain_number(text)
    if kind == "string":
        return quote_spark_string(text)
    if kind == "fractional" and not declarable(text, data_type):
        raise PlanError(f"{text!r} is not a number")
    if kind in ("date", "timestamp") and not fits_type(text, data_type):
        raise PlanError(f"{text!r} is not a {kind}")
    type_text = re.sub(r"\s+", "", data_type.lower())
    if not re.fullmatch(r"[a-z_][a-z0-9_]*(\([0-9, ]*\))?", type_text):
        raise PlanError(f"cannot write a literal of type {data_type!r}")
    return f"cast({quote_spark_string(text)} as {type_text})"


_RESERVED_WORDS = frozenset(
    """all and any as between both case cast check collate column constraint create cross current_date current_time
    current_timestamp current_user date distinct else end except false fetch for foreign from full grant group having
    in inner intersect interval into is join key lateral leading left like limit minus natural not null of on only or
    order outer primary references right select semi anti session_user some table then time timestamp to trailing
    true union unique user using values when where window with value range rows row partition position year month
    day hour minute second comment default delete update insert merge drop alter rollup cube sets by filter over
    qualify escape exists if returns type""".split()
)


def spark_ident(name: str) -> str:
    """``_sj_ident``: *name* bare when it is a plain identifier and no reserved word, else in backticks."""
    if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name) and name.lower() not in _RESERVED_WORDS:
        return name
    return "`" + name.replace("`", "``") + "`"


def is_query_text(text: str) -> bool:
    """``_sj_is_query_text``: a query (as opposed to a table name)."""
    head = re.sub(r"^(\s|--[^\n]*\n|/\*.*?\*/)*", "", text, flags=re.S).lower()
    return re.match(r"(select|with|values|from|table)\b|\(", head) is not None
