-- Default output columns where the rename of a clash is itself taken: a has
-- `region` and `b_region`, so b's `region` becomes b_region_2.
{{ skewjoin.skew_join(ref('typed_left_b_region'), ref('typed_right'), on=[['k_int', 'k_int']],
    skew={'groups': [{'when': 'a.k_int = 0', 'slots': 4}]}) }}
