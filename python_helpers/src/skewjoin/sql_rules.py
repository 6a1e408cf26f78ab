"""The macros' SQL-text rules in Python, for the Python twins of the macros
(:mod:`skewjoin.pruning`): the common key type and casts
(macros/_internal/types.sql; the type classification itself is in
:mod:`skewjoin.literals`), literals (literals.sql), SQL text
(render.sql, expressions.sql, relations.sql) and the errors' wording
(errors.sql, arguments.sql). Each function is named after the macro it
follows and must render what it renders, character for character
(integration_tests/unit/test_prune_parity.py checks them against the macros).
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import NoReturn

from skewjoin.errors import PruneSpecError
from skewjoin.literals import _INTEGRAL_RANK, _NUMBER, normalize_type, quote_spark_string, type_kind

# -- types (macros/_internal/types.sql) --------------------------------------------------

_INTEGRAL_DIGITS = {"tinyint": 3, "smallint": 5, "int": 10, "bigint": 20}
_NUMERIC_KINDS = ("integral", "decimal", "fractional")


def decimal_parts(data_type: str) -> tuple[int, int]:
    """``_sj_decimal_parts``: (precision, scale) of a decimal, or of an integral type seen as one."""
    t = normalize_type(data_type)
    if t in _INTEGRAL_DIGITS:
        return _INTEGRAL_DIGITS[t], 0
    m = re.fullmatch(r"decimal\((\d+),(\d+)\)", t)
    if m is None:
        raise ValueError(f"{data_type!r} is not a decimal type")
    return int(m.group(1)), int(m.group(2))


def common_type(left_type: str, right_type: str, ansi: bool = True) -> str | None:
    """``_sj_common_type``: the type Spark compares ``left = right`` in; None when the
    macro refuses to mirror the comparison."""
    lt, rt = normalize_type(left_type), normalize_type(right_type)
    lk, rk = type_kind(lt), type_kind(rt)
    if "collate" in lt or "collate" in rt:
        return None
    if lk == "string" and rk == "string":
        return "string"
    if lt == rt:
        return lt
    if lk == "integral" and rk == "integral":
        return lt if _INTEGRAL_RANK[lt] >= _INTEGRAL_RANK[rt] else rt
    if lk in ("integral", "decimal") and rk in ("integral", "decimal"):
        lp, rp = decimal_parts(lt), decimal_parts(rt)
        scale = max(lp[1], rp[1])
        precision = max(lp[0] - lp[1], rp[0] - rp[1]) + scale
        if precision > 38:
            scale = max(scale - (precision - 38), 0)
            precision = 38
        return f"decimal({precision},{scale})"
    if lk in _NUMERIC_KINDS and rk in _NUMERIC_KINDS:
        if not ansi and "double" not in (lt, rt) and "decimal" not in (lk, rk):
            return "float"
        return "double"
    if (lk, rk) in (("date", "timestamp"), ("timestamp", "date")):
        return "timestamp"
    if "string" in (lk, rk):
        other, other_kind = (rt, rk) if lk == "string" else (lt, lk)
        if other_kind in ("boolean", "date", "timestamp"):
            return other
        if other_kind == "integral":
            return "bigint" if ansi else other
        if other_kind == "fractional":
            return "double" if ansi else other
        if other_kind == "decimal" and ansi:
            return "double"
    return None


def cast_expr(expr: str, from_type: str, to_type: str) -> str:
    """``_sj_cast``: *expr* as a value of *to_type*, never raising (a string is read with try_cast)."""
    f, t = normalize_type(from_type), normalize_type(to_type)
    if f == t or (type_kind(f) == "string" and t == "string"):
        return expr
    if type_kind(f) == "string":
        return f"try_cast({expr} as {t})"
    return f"cast({expr} as {t})"


def prune_target_type(big_type: str, common: str) -> str | None:
    """``_sj_prune_target_type``: the big column's own type when casting it to the join's common
    type is one-to-one (the predicate is then on the bare column), else None."""
    bk, ck = type_kind(big_type), type_kind(common)
    big = normalize_type(big_type)
    if bk == "string" and ck == "string":
        return "string"
    if big == normalize_type(common):
        return big
    if bk in ("integral", "decimal") and ck in ("integral", "decimal"):
        return big
    if big == "float" and common == "double":
        return "float"
    if bk == "date" and ck == "timestamp":
        return "date"
    return None


# -- literals and names (macros/_internal/literals.sql) ----------------------------------


def sql_literal(value: str | None, data_type: str) -> str | None:
    """``_sj_literal`` for a value read back as text: a typed literal, or None when *value* is not
    valid for the type."""
    t = normalize_type(data_type)
    if value is None:
        return f"cast(null as {t})"
    kind = type_kind(t)
    if kind in _NUMERIC_KINDS:
        text = str(value).strip()
        if isinstance(value, bool) or not _NUMBER.fullmatch(text):
            return None
        if kind == "integral" and not re.fullmatch(r"[+-]?[0-9]+", text):
            return None
        return f"cast({text} as {t})"
    if kind == "boolean":
        text = str(value).lower().strip()
        return text if text in ("true", "false") else None
    if kind == "string":
        return quote_spark_string(str(value))
    return f"cast({quote_spark_string(str(value))} as {t})"


def prune_literal(text: str, data_type: str) -> str:
    """``_sj_prune_literal``: a key's text as a literal of *data_type* (NaN and the infinities of
    a float or double as a cast string); :class:`PruneSpecError` when it is none."""
    lit = sql_literal(text, data_type)
    if lit is None and type_kind(data_type) == "fractional" and text in ("NaN", "Infinity", "-Infinity"):
        lit = f"cast({quote_spark_string(text)} as {normalize_type(data_type)})"
    if lit is None:
        raise PruneSpecError(f"the key value {text} read from Spark is not a valid {data_type} literal")
    return lit


def comment_text(text: str) -> str:
    """``_sj_comment_text``: *text* safe inside a ``/* */`` comment (no comment marks, no ``${``)."""
    return text.replace("*/", "* /").replace("/*", "/ *").replace("${", "$ {")


# -- SQL text (macros/_internal/render.sql, expressions.sql, relations.sql) --------------

_LITERAL_SPLIT = re.compile(r"""('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")""", re.S)
_REF = re.compile(r"(?<![\w.`])([A-Za-z_]\w*|`[^`]+`)\s*\.\s*([A-Za-z_]\w*|`[^`]+`)")


def split_literals(text: str) -> list[str]:
    """``_sj_split_literals``: [text, literal, text, ...]; odd positions are string literals."""
    return _LITERAL_SPLIT.split(text)


def indent(text: str, width: int) -> str:
    """``_sj_indent``: *text* indented by *width* spaces, string literals untouched."""
    pad = " " * width
    parts = split_literals(text)
    out = [part if i % 2 else re.sub(r"\n(?=[^\n])", "\n" + pad, part) for i, part in enumerate(parts)]
    return pad + "".join(out)


def with_ctes(ctes: Sequence[tuple[str, str]], body: str) -> str:
    """``_sj_with_ctes``."""
    if not ctes:
        return body
    texts = [f"{name} as (\n{indent(sql, 4)}\n)" for name, sql in ctes]
    return "with\n\n" + ",\n\n".join(texts) + "\n\n" + body


def expr_refs(text: str) -> list[tuple[str, str]]:
    """``_sj_expr_refs``: (alias, column) of each ``alias.column`` outside string literals."""
    refs = []
    for i, part in enumerate(split_literals(text)):
        if i % 2 == 0:
            refs += [(m.group(1).strip("`"), m.group(2).strip("`")) for m in _REF.finditer(part)]
    return refs


# -- errors and argument checks (macros/_internal/errors.sql, arguments.sql) --------------


def fail(request: str, argument: str, problem: str, example: str) -> NoReturn:
    text = re.sub(r"\s*\n\s*", " ", problem.strip())
    raise PruneSpecError(
        f"skewjoin prune, request {request!r}, argument `{argument}`: {text}\n  Right form, for example: {example}"
    )


def edit_distance(a: str, b: str) -> int:
    """``_sj_edit_distance``: insertions, deletions, substitutions and swaps of neighbours."""
    before: list[int] = []
    previous = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        current = [i]
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            best = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                best = min(best, before[j - 2] + 1)
            current.append(best)
        before, previous = previous, current
    return previous[len(b)]


def did_you_mean(value: object, allowed: Sequence[str]) -> str:
    """``_sj_did_you_mean``: " (did you mean 'x'?)" for a near miss, else ''."""
    if not isinstance(value, str):
        return ""
    wanted = value.lower().strip()
    best_word, best_distance = None, 99
    for word in allowed:
        d = edit_distance(wanted, word.lower())
        if d < best_distance:
            best_word, best_distance = word, d
    if best_word is not None and 0 < best_distance <= 2 and best_distance * 2 < len(best_word):
        return f" (did you mean '{best_word}'?)"
    return ""


def show_value(value: object, limit: int = 200) -> str:
    """A value as a message shows it (YAML flow style for lists and mappings)."""
    if isinstance(value, (list, dict)):
        shown = json.dumps(value, ensure_ascii=False, default=str)
    else:
        shown = "null" if value is None else str(value)
    return shown[:limit]
