"""The right form an error message gives is itself right (no Spark).

For every compile-error case of skew_join, the example the message shows is
put in place of the failing value (the argument, or the key inside the skew
specification, that the message names), and the call must then compile. A
message whose example is refused again sends the user in a circle; this test
makes that impossible to ship.

The example is the first form after "Right form, for example:" (a message
may add "or <another form>" or a note in parentheses): a value written as in
a model, ``name=value`` for a macro argument, the bare value for a key inside
a specification. The fixed call compiles with compile-time queries off, so that
an example such as ``'auto'`` compiles without data.
"""

from __future__ import annotations

import ast
import copy
import re
from collections.abc import Callable
from typing import Any

import pytest

from .cases import ErrorCase, params
from .harness import Renderer, Table
from .tables import tables
from .test_skew_join_errors import CASES as SKEW_CASES

# Cases whose way out is not a value of the named argument; each says why.
SKEW_JOIN_ARGUMENTS = {"left", "right", "on", "join_type", "columns", "left_alias", "right_alias", "skew"}
NOT_A_VALUE = {
    "adapter": "the way out is a profile of another adapter type, not an argument value",
}

PATH_STEP = re.compile(r"\.?([A-Za-z_]+)|\[(\d+)\]")


def example_of(message: str) -> str:
    """The longest leading part of the right form that is a value (or name=value)."""
    text = message.split("Right form, for example:", 1)[1].strip()
    if text.startswith("skewjoin.skew_join("):  # an argument it does not take: the call without it
        return text
    cuts = sorted({m.start() for m in re.finditer(r" or | \(", text)} | {len(text)}, reverse=True)
    for cut in cuts:
        candidate = text[:cut].strip()
        value = candidate.split("=", 1)[1] if re.match(r"[a-z_]+=", candidate) else candidate
        try:
            ast.literal_eval(value)
        except (ValueError, SyntaxError):
            continue
        return candidate
    raise AssertionError(f"no value in the right form: {text}")


def parse_args(args: str) -> dict[str, Any]:
    call = ast.parse(f"f({args})", mode="eval").body
    assert isinstance(call, ast.Call)
    return {k.arg: ast.literal_eval(k.value) for k in call.keywords if k.arg is not None}


def jinja_args(kwargs: dict[str, Any]) -> str:
    return ", ".join(f"{k}={v!r}" for k, v in kwargs.items())


def replace_at(root: Any, path: str, value: Any) -> None:
    steps = [m.group(1) if m.group(1) is not None else int(m.group(2)) for m in PATH_STEP.finditer(path)]
    target = root
    for step in steps[:-1]:
        target = target[step]
    target[steps[-1]] = value


def fixed_call(case: ErrorCase, argument: str, example: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """The case's arguments and config with the example in place."""
    args = case.args if case.args.startswith("on=") else "on=['k_int']" + (", " + case.args if case.args else "")
    kwargs = parse_args(args)
    config = copy.deepcopy(case.config)
    if example.startswith("skewjoin.skew_join("):  # an argument skew_join does not take: the call without it
        kwargs.pop(argument)
        return kwargs, config
    if "=" in example and re.fullmatch(r"[a-z_]+", example.split("=", 1)[0]):
        name, value = example.split("=", 1)
        if argument not in SKEW_JOIN_ARGUMENTS:  # a misspelled argument: its right name
            kwargs.pop(argument)
        kwargs[name] = ast.literal_eval(value)
        return kwargs, config
    value = ast.literal_eval(example)
    if argument == "skew_join":
        if "skew" in kwargs or "skew_join" not in config:
            kwargs["skew"] = value
        else:
            config["skew_join"] = value
        return kwargs, config
    assert argument.startswith("skew_join."), f"no way to place an example for {argument}"
    spec = kwargs["skew"] if "skew" in kwargs else config["skew_join"]
    replace_at(spec, argument[len("skew_join.") :], value)
    return kwargs, config


CAST_QUERY = re.compile(r"select cast\((\w+) as ([\w(),]+)\) as \1, \* except \(\1\) from ([\w.`]+)$")


def cast_query_tables(kwargs: dict[str, Any]) -> dict[str, Table]:
    """An input given as the example's re-typing query, described as Spark
    describes it: the key first with its new type, then the other columns."""
    out = {}
    for side in ("left", "right"):
        m = CAST_QUERY.fullmatch(str(kwargs.get(side, "")))
        if m:
            name, new_type, source = m.groups()
            base = tables(source.split(".")[-1])[source]
            rest = [c for c in base.columns if c[0].lower() != name.lower()]
            out[m.group(0)] = Table(columns=[(name, new_type), *rest])
    return out


@pytest.mark.parametrize("case", params(SKEW_CASES))
def test_skew_join_examples_compile(renderer: Callable[..., Renderer], case: ErrorCase) -> None:
    call = "{{ skewjoin.skew_join(ref('typed_left'), ref('typed_right'), %s) }}"
    args = case.args if case.args.startswith("on=") else "on=['k_int']" + (", " + case.args if case.args else "")
    r = renderer("typed_left", "typed_right", config=case.config, vars=case.vars, model="sj_bad_" + case.id)
    message = r.compile_error(call % args)
    argument = re.search(r"argument `([^`]+)`", message).group(1)  # type: ignore[union-attr]
    if argument in NOT_A_VALUE:
        pytest.fail(f"{case.id}: unexpected way out for {argument}")
    example = example_of(message)
    kwargs, config = fixed_call(case, argument, example)
    vars = dict(case.vars)
    if argument == "skew_join.total_slots" and "skewjoin_total_slots" in vars:
        vars.pop("skewjoin_total_slots")  # the example goes in the spec, which wins over the var
    vars["skewjoin_run_queries"] = False
    fixed = renderer("typed_left", "typed_right", config=config, vars=vars, model="sj_fixed_" + case.id,
                     extra_tables=cast_query_tables(kwargs))
    left = repr(kwargs.pop("left")) if "left" in kwargs else "ref('typed_left')"
    right = repr(kwargs.pop("right")) if "right" in kwargs else "ref('typed_right')"
    fixed_call_text = f"{{{{ skewjoin.skew_join({left}, {right}, {jinja_args(kwargs)}) }}}}"
    sql = fixed.render(fixed_call_text)
    assert "skewjoin.skew_join decision record" in sql, f"{case.id}: the example {example!r} did not compile:\n{sql}"
