-- ut_skew_hot_keys's join with its specification in the properties file
-- (schema.yml), as `skewjoin profile` prints it. dbt hands a unit test none of
-- the model's config: its unit test checks the plain join, and says so.
{{ skewjoin.skew_join(ref('typed_left'), ref('typed_right'), on=['k_int'], join_type='left',
    columns=['a.id', 'a.k_int', 'b.rid', 'b.attr']) }}
