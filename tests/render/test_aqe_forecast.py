"""'auto''s AQE forecast (macros/skew_join/aqe_forecast.sql): the rules
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
    ],
    ids=["integration-model", "config", "statements-and-comments", "aggregate-above", "two-calls", "wrapper"],
)
def test_the_join_is_the_whole_model_only_when_the_code_is_one_call(
    renderer: Callable[..., Renderer], code: str, whole: bool
) -> None:
    r = renderer()
    r.context["model"]["raw_code"] = code
    assert r.macros["_sj_join_is_the_model"]() is whole


@pytest.mark.parametrize(
    ("text", "expected"),
    [("268435456b", 268435456.0), ("64m", 67108864.0), ("1g", 1073741824.0), ("10MB", 10485760.0), ("1k", 1024.0),
     ("512", 512.0), (None, 7.0), ("lots", 7.0)],
)  # fmt: skip
def test_size_settings_are_read_as_spark_reads_them(renderer: Callable[..., Renderer], text: str | None,
                                                     expected: float) -> None:  # fmt: skip
    assert renderer().macros["_sj_conf_bytes"](text, 7.0) == expected
