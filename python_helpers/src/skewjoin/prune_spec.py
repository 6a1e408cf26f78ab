"""The ``skewjoin prune`` request, checked before anything runs (the macros' ``_sj_prune_spec``).

A spec file (YAML or JSON) holds one request or a list of them; each is
checked as ``prune_predicate`` checks its arguments (macros/pruning/prune_spec.sql,
macros/_internal/arguments.sql, expressions.sql): the big table and its
alias, each small relation's relation, ``on``, alias, filter and join type,
``max_values`` and ``fallback``. No query here. A bad request is a
:class:`~skewjoin.errors.PruneSpecError` naming the request, the argument,
what is wrong and the right form.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from skewjoin.errors import PruneSpecError
from skewjoin.literals import is_query_text
from skewjoin.pruning import DEFAULT_FALLBACK, DEFAULT_MAX_VALUES, FALLBACKS, PRUNE_JOIN_TYPES
from skewjoin.sql_rules import did_you_mean, fail, show_value, split_literals

_JOIN_TYPE_SPELLINGS = {
    "inner": "inner", "inner join": "inner", "join": "inner",
    "left": "left", "left outer": "left", "left join": "left", "left outer join": "left",
    "right": "right", "right outer": "right", "right join": "right", "right outer join": "right",
    "full": "full", "full outer": "full", "full join": "full", "full outer join": "full", "outer": "full",
    "left semi": "left semi", "semi": "left semi", "left semi join": "left semi", "semi join": "left semi",
    "left anti": "left anti", "anti": "left anti", "left anti join": "left anti", "anti join": "left anti",
}  # fmt: skip
_REFUSED_WHY = {
    "left": "a left join keeps every big row, with NULLs where nothing matches",
    "full": "a full join keeps every big row, with NULLs where nothing matches",
    "left anti": "a left anti join returns exactly the big rows that match nothing",
}


def normalize_join_type(request: str, argument: str, join_type: object) -> str:
    """``_sj_normalize_join_type``: the join type any spelling means (inner, left, right, full,
    left semi, left anti)."""
    key = re.sub(r"\s+", " ", str(join_type).lower().strip())
    if key not in _JOIN_TYPE_SPELLINGS:
        problem = (
            f"unknown join type '{join_type}'{did_you_mean(key, list(_JOIN_TYPE_SPELLINGS))}; supported: "
            f"{', '.join(PRUNE_JOIN_TYPES)} (also spelled with `outer` and `join`, as in SQL: 'left outer join')"
        )
        fail(request, argument, problem, f"{argument.rsplit('.', 1)[-1]}: right")
    return _JOIN_TYPE_SPELLINGS[key]


def prune_join_type(request: str, argument: str, join_type: object, label: str) -> str:
    """``_sj_prune_join_type``: the join type of ``big <join_type> small``; refused when the join
    keeps the big rows that match nothing (left, full, left anti)."""
    jt = normalize_join_type(request, argument, join_type)
    if jt in _REFUSED_WHY:
        problem = (
            f"refused: the join `big {jt} join {label}` preserves the big table ({_REFUSED_WHY[jt]}), so a predicate "
            f"built from the keys of {label} would drop rows the join must return. Rule: the big table may be pruned "
            "by a small table only when the big side is not preserved (inner, right or left semi join, written as "
            f"`big <join_type> small`). For this join, leave {label} out of `small` (or filter the big table by a "
            "condition of its own)"
        )
        fail(
            request,
            argument,
            problem,
            f"no value of {argument}: drop {label} from small (a {jt} join keeps every "
            "big row, so nothing can be pruned by it)",
        )
    return jt


def _alias_ok(alias: object) -> bool:
    return (
        isinstance(alias, str)
        and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", alias) is not None
        and not alias.lower().startswith("sj_")
    )


def _check_alias(request: str, argument: str, alias: object, example: str) -> str:
    if not _alias_ok(alias):
        fail(
            request,
            argument,
            f"an alias is a plain identifier (letters, digits, _) not starting with sj_; got {show_value(alias)}",
            f"{argument.rsplit('.', 1)[-1]}: {example}",
        )
    assert isinstance(alias, str)
    return alias


_NONDETERMINISTIC = (
    "rand", "randn", "random", "uuid", "shuffle", "current_timestamp", "current_date", "current_time", "now",
    "localtimestamp", "curdate", "monotonically_increasing_id", "spark_partition_id", "input_file_name",
    "input_file_block_start", "input_file_block_length", "unix_timestamp", "randstr", "uniform", "try_reflect",
    "reflect", "java_method",
)  # fmt: skip


def check_fragment(request: str, argument: str, text: object, example: str) -> str:
    """``_sj_check_fragment``: refuse an expression that could change the query's shape or is
    non-deterministic."""
    if not isinstance(text, str) or not text.strip():
        fail(request, argument, f"expected a non-empty SQL expression string; got {show_value(text)}", example)
    code = " ".join(part if i % 2 == 0 else " 0 " for i, part in enumerate(split_literals(text)))
    if "'" in code or '"' in code:
        fail(request, argument, f"the expression {text} has an unterminated string literal", example)
    for token in (";", "--", "/*", "*/", "{{", "}}", "{%"):
        if token in code:
            fail(
                request,
                argument,
                f"the expression {text} contains `{token}` outside a string literal; an "
                "expression may not end the statement or open a comment",
                example,
            )
    depth, bad = 0, False
    for ch in code:
        depth += 1 if ch == "(" else -1 if ch == ")" else 0
        bad = bad or depth < 0
    if bad or depth != 0:
        fail(request, argument, f"the expression {text} has unbalanced parentheses", example)
    lowered = code.lower()
    for fn in _NONDETERMINISTIC:
        called = re.search(r"(?<![\w.])" + fn + r"\s*\(", lowered)
        niladic = fn in ("current_timestamp", "current_date", "current_time", "localtimestamp") and re.search(
            r"(?<![\w.])" + fn + r"(?!\w)", lowered
        )
        if called or niladic:
            fail(
                request,
                argument,
                f"the expression {text} calls {fn}(), which is non-deterministic; Spark re-runs "
                "failed tasks and a value that changes between attempts loses or duplicates rows. Use only "
                "deterministic functions of the row",
                example,
            )
    if re.search(r"(?<![\w.])(select|from|join|union|insert|drop|delete|over)(?!\w)", lowered):
        fail(
            request,
            argument,
            f"the expression {text} holds a subquery, window or statement keyword; only a "
            "scalar expression over the row is allowed",
            example,
        )
    return text


def parse_on(request: str, argument: str, on: object) -> list[tuple[str, str]]:
    """``_sj_parse_on`` (sides big, small; a big column at most once): [(big_column, small_column)]."""
    example = "on: [date_key]  or  on: [[date_key, d_date_key]]  ([big column, small column] pairs)"
    items = [on] if isinstance(on, str) else on
    if not isinstance(items, (list, tuple)) or not items:
        fail(
            request,
            argument,
            f"expected a non-empty list of column names or [big_column, small_column] pairs; got {show_value(on)}",
            example,
        )
    pairs: list[tuple[str, str]] = []
    seen: list[str] = []
    for item in items:
        if isinstance(item, str) and item.strip():
            pair = (item.strip(), item.strip())
        elif isinstance(item, (list, tuple)) and len(item) == 2 and all(isinstance(c, str) and c.strip() for c in item):
            pair = (item[0].strip(), item[1].strip())
        else:
            fail(
                request,
                argument,
                f"each key is a column name or a [big_column, small_column] pair; got {show_value(item)}",
                example,
            )
        if pair[0].lower() in seen:
            fail(
                request,
                argument,
                f"big column '{pair[0]}' appears twice; each big column is matched once per small",
                example,
            )
        seen.append(pair[0].lower())
        pairs.append(pair)
    return pairs


def from_text(request: str, argument: str, relation: object) -> str:
    """``_sj_from_text`` for a table name or a SELECT text: what follows FROM."""
    if isinstance(relation, str) and relation.strip():
        text = relation.strip()
        if is_query_text(relation):
            return "(\n" + text + "\n)"
        if re.fullmatch(r"[A-Za-z0-9_`.]+", text):
            return text
    fail(
        request,
        argument,
        f"expected a table name or a SELECT statement; got {show_value(relation)}",
        f"{argument.rsplit('.', 1)[-1]}: analytics.dates",
    )


# -- the request (spec: no query) ---------------------------------------------------------

REQUEST_KEYS = ("name", "big", "big_alias", "small", "join_type", "max_values", "fallback")
SMALL_KEYS = ("relation", "on", "filter", "alias", "join_type")
SMALL_EXAMPLE = "{relation: analytics.dates, filter: 'year = 2026', on: [date_key]}"


@dataclass(frozen=True)
class SmallSpec:
    """One small relation of a request, checked (``_sj_prune_small_spec``)."""

    index: int
    relation: str
    from_text: str
    label: str
    alias: str
    filter: str | None
    pairs: tuple[tuple[str, str], ...]
    join_type: str


@dataclass(frozen=True)
class PruneSpec:
    """One prune request, checked (``_sj_prune_spec``)."""

    name: str
    big: str
    big_from: str
    big_is_table: bool
    alias: str | None
    sources: tuple[SmallSpec, ...]
    max_values: int = DEFAULT_MAX_VALUES
    fallback: str = DEFAULT_FALLBACK


def _check_keys(
    request: str, argument: str, entry: Mapping[Any, Any], known: Sequence[str], what: str, example: str
) -> None:
    for key in entry:
        if key not in known:
            fail(
                request,
                argument,
                f"unknown key '{key}'{did_you_mean(key, known)}; {what} has {', '.join(known)}",
                example,
            )


def _small_spec(request: str, entry: object, index: int, big_alias: str | None, default_jt: str) -> SmallSpec:
    arg = f"small[{index}]"
    if not isinstance(entry, Mapping):
        fail(
            request,
            arg,
            "each small relation is a mapping with relation, on and optionally filter, alias, "
            f"join_type; got {show_value(entry)}",
            SMALL_EXAMPLE,
        )
    _check_keys(request, arg, entry, SMALL_KEYS, "a small relation", SMALL_EXAMPLE)
    if "relation" not in entry or "on" not in entry:
        fail(request, arg, f"relation and on are required; got keys {', '.join(map(str, entry))}", SMALL_EXAMPLE)
    src_from = from_text(request, arg + ".relation", entry["relation"])
    pairs = parse_on(request, arg + ".on", entry["on"])
    alias = entry.get("alias") or "sj_small"
    if alias != "sj_small":
        _check_alias(request, arg + ".alias", alias, f"s{index}")
    if big_alias is not None and str(alias).lower() == big_alias.lower():
        fail(
            request,
            arg + ".alias",
            f"the name the filter uses for this relation, a plain identifier different "
            f"from the big alias '{big_alias}'; got {alias}",
            f"alias: s{index}",
        )
    filter_ = entry.get("filter")
    if filter_ is not None:
        check_fragment(request, arg + ".filter", filter_, "filter: \"year = 2026 and region = 'EU'\"")
    relation = str(entry["relation"])
    label = "a query" if is_query_text(relation) else relation.strip()
    jt_argument = arg + ".join_type" if "join_type" in entry else "join_type"
    jt = prune_join_type(request, jt_argument, entry.get("join_type", default_jt), label)
    return SmallSpec(index, relation, src_from, label, str(alias), filter_, tuple(pairs), jt)


def _whole_number(request: str, argument: str, value: object, minimum: int, example: str) -> int:
    if isinstance(value, bool) or value is None or not re.fullmatch(r"[0-9]+", str(value).strip()):
        fail(request, argument, f"a whole number >= {minimum} is expected; got {show_value(value)}", example)
    if int(str(value).strip()) < minimum:
        fail(request, argument, f"a whole number >= {minimum} is expected; got {show_value(value)}", example)
    return int(str(value).strip())


def parse_request(data: object, index: int = 0) -> PruneSpec:
    """One request as the spec file holds it, checked as ``_sj_prune_spec`` checks the macro's arguments."""
    request = f"requests[{index}]"
    if isinstance(data, Mapping) and isinstance(data.get("name"), str) and data["name"].strip():
        request = data["name"].strip()
    example = "{big: analytics.sales, big_alias: f, small: [" + SMALL_EXAMPLE + "]}"
    if not isinstance(data, Mapping):
        fail(
            request,
            "request",
            f"a request is a mapping with big, big_alias, small and optionally name, "
            f"join_type, max_values, fallback; got {show_value(data)}",
            example,
        )
    _check_keys(request, "request", data, REQUEST_KEYS, "a request", example)
    if "big" not in data or "small" not in data:
        fail(request, "request", f"big and small are required; got keys {', '.join(map(str, data))}", example)
    if "name" in data and not (isinstance(data["name"], str) and data["name"].strip()):
        fail(request, "name", f"a name is a non-empty string; got {show_value(data['name'])}", "name: daily_sales")
    big_from = from_text(request, "big", data["big"])
    big_alias = data.get("big_alias")
    alias = None
    if big_alias is not None and not (isinstance(big_alias, str) and not big_alias.strip()):
        alias = _check_alias(request, "big_alias", big_alias, "f")
    small = data["small"]
    if not isinstance(small, (list, tuple)) or not small:
        fail(
            request,
            "small",
            "expected a non-empty list of small relations, each a mapping with relation, on "
            f"and optionally filter, alias, join_type; got {show_value(small)}",
            f"small: [{SMALL_EXAMPLE}]",
        )
    default_jt = normalize_join_type(request, "join_type", data.get("join_type", "inner"))
    sources = tuple(_small_spec(request, entry, i, alias, default_jt) for i, entry in enumerate(small))
    mv = data.get("max_values")
    max_values = _whole_number(request, "max_values", DEFAULT_MAX_VALUES if mv is None else mv, 1, "max_values: 1000")
    fb = data.get("fallback")
    fb = DEFAULT_FALLBACK if fb is None else fb
    if not (isinstance(fb, str) and fb.lower().strip() in FALLBACKS):
        fail(
            request,
            "fallback",
            "fallback, what to do above max_values: 'range' (between min and max), "
            "'semi_join' (key in (select ...)) or 'none' (no predicate), the default 'range'; it is one of "
            f"{', '.join(FALLBACKS)}; got {show_value(fb)}{did_you_mean(fb, FALLBACKS)}",
            "fallback: range",
        )
    return PruneSpec(
        name=request,
        big=str(data["big"]),
        big_from=big_from,
        big_is_table=not is_query_text(str(data["big"])),
        alias=alias,
        sources=sources,
        max_values=max_values,
        fallback=fb.lower().strip(),
    )


def parse_requests(data: object) -> list[PruneSpec]:
    """One request (a mapping) or a list of them."""
    items = [data] if isinstance(data, Mapping) else data
    if not isinstance(items, list) or not items:
        raise PruneSpecError(
            "skewjoin prune: the spec is one request (a mapping) or a non-empty list of requests; got "
            + show_value(data)
            + "\n  Right form, for example: {big: analytics.sales, big_alias: f, small: ["
            + SMALL_EXAMPLE
            + "]}"
        )
    return [parse_request(item, i) for i, item in enumerate(items)]


class _SpecLoader(yaml.SafeLoader):  # type: ignore[misc,unused-ignore]  # Any without PyYAML's stubs
    """YAML 1.1 without its other booleans: ``on``, ``off``, ``yes`` and ``no`` stay strings
    (``on:`` is the key of a small relation)."""


_SpecLoader.yaml_implicit_resolvers = {
    first: [(tag, rx) for tag, rx in resolvers if tag != "tag:yaml.org,2002:bool"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
_SpecLoader.add_implicit_resolver(
    "tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF")
)


def load_spec(path: Path) -> list[PruneSpec]:
    """The requests of a YAML or JSON file."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise PruneSpecError(f"skewjoin prune: cannot read the spec {path}: {exc.strerror or exc}") from exc
    kind = "JSON" if path.suffix.lower() == ".json" else "YAML"
    try:
        data = json.loads(text) if kind == "JSON" else yaml.load(text, Loader=_SpecLoader)
    except (ValueError, yaml.YAMLError) as exc:
        raise PruneSpecError(f"skewjoin prune: the spec {path} is not valid {kind}: {exc}") from exc
    return parse_requests(data)
