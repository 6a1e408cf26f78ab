-- `a.*` in a left semi join under skew groups: the output is a's columns
-- alone, without the salting columns.
{{ skewjoin.skew_join(ref('typed_left'), ref('typed_right'), on=['k_int'], join_type='left semi',
    columns=['a.*'], skew={'groups': [{'when': 'a.k_int = 0', 'slots': 4}], 'verify': false}) }}
