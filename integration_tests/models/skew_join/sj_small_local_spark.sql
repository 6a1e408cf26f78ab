-- The package's own min_parallelism (4) on the test server, a local Spark
-- with 2 cores: skew_join declines its skew plans and emits the plain join
-- (the hot keys 'auto' aggregate is not run), and says so in the record.
{{ skewjoin.skew_join(ref('typed_left'), ref('typed_right'), on=['k_int'], join_type='left',
    columns=['a.id', 'a.k_int', 'b.rid', 'b.attr'],
    skew={'hot_keys': {'b': 'auto'}, 'groups': [{'when': 'a.k_int = 0', 'slots': 4}], 'min_parallelism': 4}) }}
