-- pr_key_string_hostile with the prune cache: the key set goes through the cache's text form
-- and back to the same values.
{{ config(pre_hook="{{ skewjoin.prune_key_sets() }}") }}

select
    a.hkey,
    a.pos,
    a.copy_no,
    b.label
from {{ ref('hostile_left') }} as a
inner join {{ ref('hostile_right') }} as b
    on a.hkey = b.hkey
where
    b.label not like '%-2'
    and {{ skewjoin.prune_predicate(ref('hostile_left'), 'a', [
        {'relation': ref('hostile_right'), 'filter': "label not like '%-2'", 'on': ['hkey']}
    ], cache=true) }}
