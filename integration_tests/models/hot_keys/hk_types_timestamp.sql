{{ config(skew_join={'hot_keys': {'b': ['2026-01-01 00:00:00']}, 'groups': [{'when': 'a.k_ts is not null', 'slots': 2, 'distribute': 'keys'}]}) }}
{{ skewjoin.skew_join(ref('typed_left'), ref('typed_right'), on=['k_ts'], join_type='full', columns=['a.id', 'b.rid']) }}
