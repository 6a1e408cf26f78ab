-- Default output columns: every column of a, then b's non-key columns
-- (b's `region` clashes with a's and is renamed b_region).
{{ skewjoin.skew_join(ref('typed_left'), ref('typed_right'), on=[['k_int', 'k_int']],
    skew={'groups': [{'when': 'a.k_int = 0', 'slots': 4}]}) }}
