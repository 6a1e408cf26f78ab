-- String keys holding quotes, backslashes, comment, template and variable
-- markers, control characters and unicode: each becomes one exact literal.
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
    ]) }}
