-- skew_join: 'auto' on keys that hold quotes, backslashes, comment markers,
-- newlines and `${`: with a broadcast budget of 0 every heavy key becomes a
-- skew group whose `when` carries the value read from the data as a literal.
{{ config(skew_join={'auto': {'max_broadcast_rows': 0, 'min_share': 0.01}}) }}
{{ skewjoin.skew_join(ref('hostile_left'), ref('hostile_right'), on=['hkey'], join_type='left',
    columns=['a.hkey', 'a.pos', 'a.copy_no', 'b.label']) }}
