-- `a.*` under a skew plan with a hot-key branch and skew groups: the star is
-- a's columns by name, not the salted CTE's (whose sj_group and sj_slot it
-- once selected too, and the union's branches then differed in width).
{{ skewjoin.skew_join(ref('typed_left'), ref('typed_right'), on=['k_int'],
    columns=['a.*', 'b.rid', 'b.attr'],
    skew={'groups': [{'when': 'a.k_int = 0', 'slots': 4}], 'hot_keys': [7], 'verify': false}) }}
