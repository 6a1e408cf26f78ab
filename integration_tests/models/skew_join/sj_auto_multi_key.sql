-- 'auto' on a two-column key of mixed decimal types, a right join, counts
-- from a 50% tablesample, and a multicast budget that caps the group's slots.
{{ config(skew_join={'auto': {'min_share': 0.04, 'max_broadcast_rows': 1, 'sample_fraction': 0.5,
                              'max_multicast_rows': 8}}) }}
{{ skewjoin.skew_join(ref('typed_left'), ref('typed_right'), on=[['k_dec', 'k_dec2'], 'region'],
    join_type='right', columns=['a.id', 'a.k_dec', 'a.region', 'b.rid', 'b.k_dec2']) }}
