-- Hot-key literals of date, timestamp and decimal keys (mixed decimal types).
{{ config(skew_join={'hot_keys': {'a': ['2026-01-01', '2026-01-08']}}) }}
{{ skewjoin.skew_join(ref('typed_left'), ref('typed_right'), on=['k_date'], join_type='left', columns=['a.id', 'b.rid']) }}
