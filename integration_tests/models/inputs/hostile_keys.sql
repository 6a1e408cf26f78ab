-- String keys that break naive SQL literal building: quotes, backslashes,
-- comment markers, template markers, control characters, unicode, the empty
-- string and a very long string. Built from char() codes so this file holds
-- no tricky literal itself.
select
    keys_list.pos,
    keys_list.k as hkey
from (
    select posexplode(array(
        concat('it', char(39), 's'),
        concat('back', char(92), 'slash'),
        concat('trailing', char(92)),
        concat(char(92), char(39), ' or 1=1 --'),
        '--comment',
        '/*open',
        'close*/',
        concat('$', '{var}'),
        concat('{', '{ jinja }', '}'),
        concat('new', char(10), 'line'),
        concat('tab', char(9), 'here'),
        concat('dq', char(34), 'x'),
        'ünïcödé ✓ 日本',
        '',
        repeat('x', 3000)
    )) as (pos, k)
) as keys_list
