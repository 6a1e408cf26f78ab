"""A slot plan as text: the report ``skewjoin profile`` prints, and its JSON form.

:func:`report` shows the measurements, a table of the heaviest keys with what
the plan does with each and why, and the config to paste (YAML for a
properties file, a Jinja ``config()`` line for the model), each preceded by a
comment line that says where its ``total_slots`` comes from.
:func:`to_json` gives the same for machines.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from skewjoin.config_text import changed_by_dbt_in_yaml, jinja_config_line, to_yaml
from skewjoin.literals import KeyValue
from skewjoin.planner import KeyDecision, Plan, fmt_rows, fmt_share


def _table(headers: Sequence[str], rows: Sequence[Sequence[str]], right: Sequence[int] = ()) -> list[str]:
    widths = [max([len(h)] + [len(r[i]) for r in rows]) for i, h in enumerate(headers)]

    def line(cells: Sequence[str]) -> str:
        parts = [c.rjust(w) if i in right else c.ljust(w) for i, (c, w) in enumerate(zip(cells, widths, strict=True))]
        return "  ".join(parts).rstrip()

    return [line(headers), line(["-" * w for w in widths]), *(line(r) for r in rows)]


def _display(value: KeyValue) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    text = value.encode("unicode_escape").decode("ascii") if not value.isprintable() else value
    return text if len(text) <= 40 else text[:37] + "..."


def total_slots_comment(result: Plan) -> str:
    """One line: the ``total_slots`` the config carries and where it comes from, or why it has none."""
    opts = result.options
    if opts.write_total_slots:
        text = f"total_slots {opts.total_slots}: {opts.total_slots_source}"
    else:
        text = (
            "total_slots left out: the model takes var('skewjoin_total_slots'), else the session's "
            f"spark.sql.shuffle.partitions, when it runs; the slots here assume {opts.total_slots} "
            f"({opts.total_slots_source}); pass --total-slots N or your dbt target (--profiles-dir, --target) "
            "to plan with your count"
        )
    return " ".join(text.split())


def verify_note(result: Plan) -> str:
    """Why the config carries ``verify``: the keys under skew_join's default check threshold."""
    slots = result.options.total_slots
    under = [(d, s) for d, s in result.verified_shares() if s < 1 / slots]
    shown = ", ".join(f"{', '.join(_display(v) for v in d.stat.values)} ({s:.2%})" for d, s in under)
    text = (
        f"verify {result.verify_share}: skew_join counts each declared hot key and group before it plans and, "
        f"by default, drops one holding less than one slot's even share (1/{slots} = {1 / slots:.2%} of its "
        f"side's rows); {len(under)} planned key(s) hold less: {shown}. The config sets 'verify': "
        f"{result.verify_share} so the check keeps them (leave it out to let the check drop them)"
    )
    if not result.options.write_total_slots:
        text += f"; the threshold here assumes {slots} slots, as the plan does"
    return text


def report(result: Plan, timings: Mapping[str, float] | None = None) -> str:
    """The human-readable report: measurements, the table of keys and the config to paste."""
    side, other, opts = result.side, result.other, result.options
    out: list[str] = []
    key_text = ", ".join(f"{c} ({t})" for c, t in zip(side.columns, side.types, strict=True))
    out.append(f"skew profile of {side.alias} = {side.source}")
    out.append(f"  key: {key_text}")
    how = (
        f"a {side.sample_fraction:.2%} sample: {fmt_rows(side.total_rows)} rows counted, scaled"
        if side.sampled
        else "exact counts over every row"
    )
    seconds = (timings or {}).get("scan")
    out.append(
        f"  rows: {'about ' if side.sampled else ''}{fmt_rows(side.estimate(side.total_rows))} ({how}"
        + (f", one aggregate query, {seconds:.1f} s)" if seconds is not None else ")")
    )
    out.append(f"  NULL keys: {fmt_rows(side.estimate(side.null_rows))} rows ({side.share(side.null_rows):.2%})")
    if other is not None:
        okey = ", ".join(f"{c} ({t})" for c, t in zip(other.columns, other.types, strict=True))
        oseconds = (timings or {}).get("other")
        out.append(
            f"  other side {result.other_alias} = {other.source}, key {okey}: "
            f"{fmt_rows(other.total_rows)} rows, {fmt_rows(other.null_rows)} with a NULL key "
            f"(exact counts of the candidate keys" + (f", {oseconds:.1f} s)" if oseconds is not None else ")")
        )
    out.append(f"  join type: {opts.join_type}; {side.alias} is the {side.position} input")
    out.append("")
    other_alias = result.other_alias
    measured = other is not None
    headers = ["#", "key (" + ", ".join(side.columns) + ")", "rows", "share"]
    right = [2, 3]
    if side.sampled:
        headers.append("±")
        right.append(4)
    if measured:
        headers.append(f"rows in {other_alias}")
        right.append(len(headers) - 1)
    headers.append("plan")

    def table_row(number: str, key: str, counted: int, other_rows: int | None, plan_text: str) -> list[str]:
        cells = [number, key, fmt_rows(side.estimate(counted)), fmt_share(side.share(counted), opts.min_share)]
        if side.sampled:
            cells.append(f"{side.margin(counted):.2%}")
        if measured:
            cells.append("-" if other_rows is None else fmt_rows(other_rows))
        return [*cells, plan_text]

    rows: list[list[str]] = []
    for i, d in enumerate(result.keys, 1):
        if d.action == "hot_key":
            plan_text = "hot key (broadcast join)"
        elif d.action == "group":
            plan_text = (
                f"skew group: {d.slots} slot(s) #{d.first_slot}..#{d.last_slot}, driven by {d.driver} "
                f"({d.group_share:.1%} of its shuffled rows)"
            )
        else:
            plan_text = "shuffle join"
        rows.append(
            table_row(str(i), ", ".join(_display(v) for v in d.stat.values), d.stat.rows, d.stat.other_rows, plan_text)
        )
    null_plan = "hot key null (bypasses the join)" if result.null_action == "hot_key" else "shuffle join"
    rows.append(table_row("-", "NULL", side.null_rows, None, null_plan))
    rows.append(
        table_row(
            "-",
            "all other rows",
            result.rest_rows,
            None,
            f"shuffle join: {result.rest_slots} slot(s) #0..#{result.rest_slots - 1}",
        )
    )
    out.extend("  " + line for line in _table(headers, rows, right))
    out.append("")
    if opts.write_total_slots:
        out.append(f"  total_slots: {opts.total_slots} ({opts.total_slots_source})")
    else:
        out.append(f"  total_slots: not set; planned assuming {opts.total_slots} ({opts.total_slots_source})")
    out.append("")
    out.append("why:")
    below = [i for i, d in enumerate(result.keys, 1) if d.action == "rest" and d.share < opts.min_share]
    for i, d in enumerate(result.keys, 1):
        if i not in below:
            out.append(f"  {i}. {', '.join(_display(v) for v in d.stat.values)}: {d.reason}")
    if below:
        span = f"#{below[0]}" if len(below) == 1 else f"#{below[0]}..#{below[-1]}"
        out.append(f"  {span}: below min_share {opts.min_share:.2%}, left to the shuffle join")
    out.append(f"  NULL: {result.null_reason}")
    notes = list(result.notes)
    if result.verify_share is not None:
        notes.append(verify_note(result))
    if notes:
        out.append("")
        out.append("notes:")
        out.extend(f"  - {n}" for n in notes)
    out.append("")
    config = result.config
    if not config:
        out.append(
            f"No key holds {opts.min_share:.2%} of the rows or more: the plain join is fine "
            "(skew_join with no skew specification)."
        )
        return "\n".join(out) + "\n"
    refused = yaml_refusal(config)
    if refused is None:
        out.append("YAML, for the model's `config:` in a properties file (models/<name>.yml):")
        out.append("")
        out.append("    # " + total_slots_comment(result))
        out.extend("    " + line for line in to_yaml(config).rstrip("\n").split("\n"))
    else:
        out.append("No YAML form: " + refused)
    out.append("")
    out.append("Jinja, as the first line of the model (the same dict works as skew_join(..., skew=...)):")
    out.append("")
    out.append("    {# " + total_slots_comment(result).replace("#}", "# }") + " #}")
    out.append("    " + jinja_config_line(config))
    return "\n".join(out) + "\n"


def yaml_refusal(config: Mapping[str, Any]) -> str | None:
    """Why *config* has no YAML form (dbt would change some of its keys reading it), or None."""
    changed = changed_by_dbt_in_yaml(config)
    if not changed:
        return None
    shown = ", ".join(repr(v) for v in changed[:5]) + (f" and {len(changed) - 5} more" if len(changed) > 5 else "")
    return (
        f"dbt renders a properties file's config values as Jinja, which would change {shown} (they hold "
        "{{, {%, {# or a carriage return); pin the specification with the Jinja line below."
    )


def to_json(result: Plan, timings: Mapping[str, float] | None = None) -> dict[str, Any]:
    """Everything :func:`report` shows, for machines."""
    side, other, opts = result.side, result.other, result.options
    config = result.config
    refused = yaml_refusal(config) if config else None

    def key_entry(d: KeyDecision) -> dict[str, Any]:
        return {
            "key": list(d.stat.values),
            "rows": d.stat.rows,
            "estimated_rows": side.estimate(d.stat.rows),
            "share": d.share,
            "share_margin_95": side.margin(d.stat.rows),
            "other_rows": d.stat.other_rows,
            "action": d.action,
            "reason": d.reason,
            "driver": d.driver,
            "group_share": d.group_share if d.action == "group" else None,
            "slots": d.slots if d.action == "group" else None,
            "slot_range": [d.first_slot, d.last_slot] if d.action == "group" else None,
            "when": d.when,
        }

    return {
        "side": {
            "alias": side.alias,
            "position": side.position,
            "source": side.source,
            "key_columns": list(side.columns),
            "key_types": list(side.types),
            "rows_counted": side.total_rows,
            "estimated_rows": side.estimate(side.total_rows),
            "null_rows": side.null_rows,
            "null_share": side.share(side.null_rows),
            "sample_fraction": side.sample_fraction,
            "exact": not side.sampled,
        },
        "other": None
        if other is None
        else {
            "alias": result.other_alias,
            "source": other.source,
            "key_columns": list(other.columns),
            "key_types": list(other.types),
            "rows": other.total_rows,
            "null_rows": other.null_rows,
        },
        "options": {
            "total_slots": opts.total_slots,
            "total_slots_source": opts.total_slots_source,
            "total_slots_in_config": opts.write_total_slots,
            "total_slots_comment": total_slots_comment(result),
            "min_share": opts.min_share,
            "max_keys": opts.max_keys,
            "max_broadcast_rows": opts.max_broadcast_rows,
            "join_type": opts.join_type,
        },
        "verify": None if result.verify_share is None else {"share": result.verify_share, "why": verify_note(result)},
        "keys": [key_entry(d) for d in result.keys],
        "null": {"action": result.null_action, "reason": result.null_reason},
        "rest": {"rows": result.rest_rows, "slots": result.rest_slots},
        "notes": list(result.notes),
        "timings_seconds": dict(timings or {}),
        "config": config,
        "yaml": to_yaml(config) if config and refused is None else None,
        "yaml_refused": refused,
        "jinja": jinja_config_line(config) if config else None,
    }
