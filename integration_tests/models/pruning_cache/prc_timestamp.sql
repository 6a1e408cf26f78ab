-- pr_key_timestamp with the prune cache: the key set goes through the cache's text form
-- and back to the same values.
{{ config(pre_hook="{{ skewjoin.prune_key_sets() }}") }}

select
    a.id,
    a.k_ts,
    b.rid
from {{ ref('typed_left') }} as a
inner join {{ ref('typed_right') }} as b
    on a.k_ts = b.k_ts
where
    b.region = 'EU'
    and {{ skewjoin.prune_predicate(ref('typed_left'), 'a', [
        {'relation': ref('typed_right'), 'filter': "region = 'EU'", 'on': [['k_ts', 'k_ts']]}
    ], cache=true) }}
