-- Declared hot keys and a group verified together, on string keys in a left
-- join (verify: true here): hot key '0' holds 41 of src's 500 rows (8.2%,
-- kept: joined by broadcast), '10' one row (dropped). The group of '0' and
-- '10' is counted on the rows the hot keys leave to it (key '0' is in the
-- broadcast branch): one of the 459 rows left, under 1/20, so it is dropped too.
{{ skewjoin.skew_join(ref('src'), ref('src'), on=['key'], join_type='left',
    columns=['a.key', 'a.value', 'b.value as b_value'],
    skew={'total_slots': 20, 'verify': true, 'hot_keys': ['0', '10'],
          'groups': [{'when': "a.key in ('0', '10')", 'slots': 4}]}) }}
