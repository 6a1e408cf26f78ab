-- Declared hot keys on a: their rows join a broadcast copy of b's rows.
{{ config(skew_join={'hot_keys': [0, 7]}) }}
{{ skewjoin.skew_join(ref('typed_left'), ref('typed_right'), on=['k_int'], columns=['a.id', 'a.k_int', 'b.rid', 'b.attr']) }}
