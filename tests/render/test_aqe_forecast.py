"""'auto''s AQE forecast and regime (macros/skew_join/aqe_forecast.sql, aqe_regime.sql): the rules
that need no case of their own. The forecasts themselves are model cases
(auto_aqe_*: handed back, above 2000 partitions, inside a larger query, AQE
off) pinned in expected/."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from .harness import PROJECT_DIR, Renderer

CALL = "{{ skewjoin.skew_join(ref('a'), ref('b'), on=['k']) }}"


@pytest.mark.parametrize(
    ("code", "whole"),
    [
        ((PROJECT_DIR / "models/skew_join/sj_auto_multi_key.sql").read_text(), True),
        ("{{ config(skew_join={'auto': {'min_share': 0.04}}) }}\n" + CALL, True),
        ("{% if execute %}{% do run_query('set x=1') %}{% endif %}\n-- a comment\n" + CALL, True),
        ("select k, count(*) from (" + CALL + ") as j group by k", False),
        (CALL + "\nunion all\n" + CALL, False),
        ("{{ my_wrapper('skewed') }}", False),
        # a nested dict in the call's arguments ends in `}}`; a string may hold a parenthesis
        ("{{ skewjoin.skew_join(ref('a'), ref('b'), on=['k'], skew={'hot_keys': {'a': 'auto'}}) }}", True),
        ("{{ skewjoin.skew_join(ref('a'), ref('b'), on=['k'], columns=['a.k', \"b.v as `x)`\"]) }}", True),
        ("{{ skewjoin.skew_join(ref('a'), ref('b'), on=['k']) ~ ' limit 5' }}", False),
        ("{{ skewjoin.skew_join(ref('a'), ref('b'), on=['k']) ~ other('x') }}", False),
        # a skew_join over a skew_join: the outer join reuses the inner's partitioning
        ("{{ skewjoin.skew_join(skewjoin.skew_join(ref('a'), ref('b'), on=['k']), ref('c'), on=['k']) }}", False),
        # whitespace control on the config, and a block set, write no SQL
        ("{{- config(materialized='table') -}}\n{% set x %}select 1{% endset %}\n" + CALL, True),
    ],
    ids=[
        "integration-model",
        "config",
        "statements-and-comments",
        "aggregate-above",
        "two-calls",
        "wrapper",
        "nested-dict",
        "parenthesis-in-a-string",
        "string-after",
        "call-after",
        "nested-call",
        "whitespace-control",
    ],
)
def test_the_join_is_the_whole_model_only_when_the_code_is_one_call(
    renderer: Callable[..., Renderer], code: str, whole: bool
) -> None:
    r = renderer()
    r.context["model"]["raw_code"] = code
    assert r.macros["_sj_join_is_the_model"]() is whole


@pytest.mark.parametrize(("materialized", "whole"), [("table", True), ("incremental", True), ("view", False),
                                                    ("ephemeral", False)])  # fmt: skip
def test_a_view_or_ephemeral_model_is_read_inside_other_queries(
    renderer: Callable[..., Renderer], materialized: str, whole: bool
) -> None:
    r = renderer()
    r.context["model"]["raw_code"] = CALL
    r.context["model"]["config"] = {"materialized": materialized}
    assert r.macros["_sj_join_is_the_model"]() is whole


@pytest.mark.parametrize(
    ("text", "expected"),
    [("268435456b", 268435456.0), ("64m", 67108864.0), ("1g", 1073741824.0), ("10MB", 10485760.0), ("1k", 1024.0),
     ("512", 512.0), (None, 7.0), ("lots", 7.0)],
)  # fmt: skip
def test_size_settings_are_read_as_spark_reads_them(renderer: Callable[..., Renderer], text: str | None,
                                                     expected: float) -> None:  # fmt: skip
    assert renderer().macros["_sj_conf_bytes"](text, 7.0) == expected


GiB = 1024**3
MiB = 1024**2
DEFAULTS = {"enabled": True, "aqe": True, "skew_join": True, "partitions": 200, "factor": 5.0,
            "threshold": 256.0 * MiB, "advisory": 64.0 * MiB, "highly_compressed": 2000, "accurate_factor": -1.0,
            "force": False}  # fmt: skip


@pytest.mark.parametrize(
    ("join_type", "settings", "left", "right", "hand_back", "said"),
    [
        # Spark's defaults: a partition AQE leaves whole is under 256 MB; 5x the mean partition reaches it from
        # a mean of 51.2 MB (10 GiB over 200 partitions)
        ("inner", {}, 10 * GiB, 100 * MiB, True, True),
        ("inner", {}, 1 * GiB, 100 * MiB, False, True),
        # tuned thresholds at 1 GiB: 2 MiB threshold, factor 2, 1 MiB pieces against a mean of 5.6 MiB
        ("inner", {"threshold": 2.0 * MiB, "factor": 2.0, "advisory": 1.0 * MiB}, 1 * GiB, 100 * MiB, True, True),
        # a factor of 8 lets AQE leave a partition of 8x the side's mean whole
        ("inner", {"threshold": 2.0 * MiB, "factor": 8.0, "advisory": 1.0 * MiB}, 1 * GiB, 100 * MiB, False, True),
        # pieces above 5x the mean
        ("inner", {"threshold": 1.0 * MiB, "factor": 2.0, "advisory": 64.0 * MiB}, 1 * GiB, 0, False, True),
        # AQE's regime needs AQE to split either side: any other join type counts, and says nothing of it
        ("left", {}, 10 * GiB, 100 * MiB, False, False),
        # above 2000 partitions AQE sees no skew; AQE off; no size estimate: no regime, counted as before
        ("inner", {"partitions": 2400}, 10 * GiB, 100 * MiB, False, False),
        ("inner", {"enabled": False, "aqe": False}, 10 * GiB, 100 * MiB, False, False),
        ("inner", {}, None, 100 * MiB, False, False),
    ],
    ids=["defaults-10g", "defaults-1g", "tuned", "factor-8", "large-pieces", "left-join", "2400-partitions",
         "aqe-off", "no-estimate"],
)  # fmt: skip
def test_aqe_regime_leaves_the_join_to_aqe_only_within_5x_the_mean_partition(
    renderer: Callable[..., Renderer], join_type: str, settings: dict[str, object], left: float | None,
    right: float, hand_back: bool, said: bool,
) -> None:  # fmt: skip
    r = renderer()
    j = {"join_type": join_type, "left": {"alias": "a"}, "right": {"alias": "b"}}
    facts = {"settings": {**DEFAULTS, **settings}, "whole": True, "bytes": {"left": left, "right": right}}
    out = r.macros["_sj_aqe_regime"](j, None if join_type != "inner" else facts)
    assert out["hand_back"] is hand_back
    assert bool(out["lines"]) is said
    if said:
        assert out["lines"][0].startswith("auto: AQE regime (measure, or leave the join to AQE?): "
                                          + ("left to AQE, nothing counted" if hand_back else "measure"))  # fmt: skip
