{#- The hot-key branch: a side's hot rows joined by broadcast where they are read, the
    rest left to the shuffle join (hot_spec.sql describes the routing). -#}


{#- Rows of `preserved_cte` (side `side`) with NULLs for the other side, as
    the select list sees them. -#}
{% macro _sj_unmatched_select(j, side, preserved_cte, other_input) -%}
    {%- set other = 'right' if side == 'left' else 'left' -%}
    {%- set sql -%}
select
    {{ j.select_list | join(',\n    ') }}
from {{ preserved_cte }} as {{ j[side].alias }}
left outer join (select * from {{ other_input }} where false) as {{ j[other].alias }}
    on false
    {%- endset -%}
    {{- return(sql) -}}
{%- endmacro %}


{#- The CTEs that read one side's hot rows of `hot_side`'s keys: where the
    side is the hot side, its rows as read (`_read`, which the distinct keys
    read) and, when spread, hashed and repartitioned by a hash of the whole
    row. Returns {'ctes', 'line', 'tasks'}. -#}
{% macro _sj_hot_rows_ctes(j, hot, side, hot_side, input_cte, pred) -%}
    {%- set alias = j[side].alias -%}
    {%- set name = alias ~ '_hot_' ~ j[hot_side].alias -%}
    {%- set read_sql = 'select * from ' ~ input_cte ~ ' as ' ~ alias ~ '\nwhere ' ~ pred -%}
    {%- if hot_side != side -%}
        {{- return({'ctes': [[name, read_sql]], 'line': none, 'tasks': none}) -}}
    {%- endif -%}
    {%- set spread = hot['spread_' ~ side] -%}
    {%- set ctes = [[name ~ '_read', read_sql]] -%}
    {%- if spread.spread -%}
        {#- hash partitioning on a hash of the whole row and its input split (salt.sql): deterministic on retry, and unlike a round-robin
            repartition Spark needs no sort for it; an explicit partition count, so AQE does not coalesce it -#}
        {%- set cols = [] -%}
        {%- for c in j[side].columns -%}{%- do cols.append(skewjoin._sj_ident(c.name)) -%}{%- endfor -%}
        {%- set row_hash = skewjoin._sj_salt_hash(j[side].columns, name ~ '_read') -%}
        {%- do ctes.append([name ~ '_hashed', 'select *, ' ~ row_hash ~ ' as sj_spread from ' ~ name ~ '_read']) -%}
        {%- do ctes.append([name ~ '_spread', 'select /*+ repartition(' ~ spread.partitions ~ ', sj_spread) */ *'
            ~ ' from ' ~ name ~ '_hashed']) -%}
        {%- do ctes.append([name, 'select ' ~ (cols | join(', ')) ~ ' from ' ~ name ~ '_spread']) -%}
    {%- else -%}
        {%- do ctes.append([name, 'select * from ' ~ name ~ '_read']) -%}
    {%- endif -%}
    {{- return({'ctes': ctes, 'line': spread.line, 'tasks': spread.tasks}) -}}
{%- endmacro %}


{#- `select distinct <keys of s>` from the rows of side `s` as read. -#}
{% macro _sj_hot_keys_cte(j, s, s_cte) -%}
    {%- set keys = skewjoin._sj_side_keys(j, s, j[s].alias) -%}
    {{- return([s_cte ~ '_keys', 'select distinct ' ~ (keys | join(', ')) ~ '\nfrom ' ~ s_cte ~ '_read as '
                ~ j[s].alias]) -}}
{%- endmacro %}


{#- CTEs and result branches for the hot keys; returns {'ctes': [...],
    'selects': [...], 'rest_inputs': {'left': cte, 'right': cte}, 'lines':
    record lines}. -#}
{% macro _sj_hot_key_ctes(j, hot, inputs) -%}
    {%- set ctes = [] -%}
    {%- set selects = [] -%}
    {%- set lines = [] -%}
    {%- set tasks = {} -%}
    {%- set jt = j.join_type -%}
    {%- set preserved = j.semantics.keeps_unmatched -%}
    {%- set rest_inputs = {} -%}
    {#- each side's rows split into: null bypass, hot of left, hot of right, rest -#}
    {%- for side in ['left', 'right'] -%}
        {%- set alias = j[side].alias -%}
        {%- set other_input = inputs['right' if side == 'left' else 'left'] -%}
        {%- set conds = [] -%}
        {%- if hot['null_' ~ side] -%}
            {%- set kept = skewjoin._sj_unmatched_select(j, side, alias ~ '_null_keys', other_input)
                if side in preserved else none -%}
            {%- set bypass = skewjoin._sj_null_bypass(j, side, inputs[side], kept, 'join', 'the other side NULL',
                'never match and ' ~ alias ~ ' is not preserved') -%}
            {%- do conds.append(bypass.pred) -%}
            {%- do ctes.extend(bypass.ctes) -%}
            {%- do selects.extend(bypass.selects) -%}
            {%- do lines.append(bypass.line) -%}
        {%- endif -%}
        {%- for hot_side in ['left', 'right'] if hot[hot_side] is not none -%}
            {%- set pred = skewjoin._sj_in_tuples(j, side, alias, hot[hot_side].tuples) -%}
            {%- do conds.append(pred) -%}
            {%- set rows = skewjoin._sj_hot_rows_ctes(j, hot, side, hot_side, inputs[side], pred) -%}
            {%- do ctes.extend(rows.ctes) -%}
            {%- if rows.line is not none -%}
                {%- do lines.append(rows.line) -%}
                {%- do tasks.update({side: rows.tasks}) -%}
            {%- endif -%}
        {%- endfor -%}
        {%- if conds -%}
            {%- do ctes.append(skewjoin._sj_hot_rest_cte(alias, inputs[side], conds)) -%}
            {%- do rest_inputs.update({side: alias ~ '_rest'}) -%}
        {%- else -%}
            {%- do rest_inputs.update({side: inputs[side]}) -%}
        {%- endif -%}
    {%- endfor -%}
    {#- one broadcast branch per hot side -#}
    {%- for s in ['left', 'right'] if hot[s] is not none -%}
        {%- set o = 'right' if s == 'left' else 'left' -%}
        {%- set sa = j[s].alias -%}
        {%- set oa = j[o].alias -%}
        {%- set s_cte = sa ~ '_hot_' ~ sa -%}
        {%- set o_cte = oa ~ '_hot_' ~ sa -%}
        {%- set branch = 'hot_' ~ sa -%}
        {%- set on_cond = skewjoin._sj_on_condition(j) -%}
        {%- set how = [] -%}
        {%- if jt in ('left semi', 'left anti') and s == 'right' -%}
            {#- the output is a's rows: keep/drop a's rows of these keys by the distinct keys present in b -#}
            {%- do ctes.append(skewjoin._sj_hot_keys_cte(j, s, s_cte)) -%}
            {%- set branch_sql -%}
select /*+ broadcast({{ sa }}) */
    {{ j.select_list | join(',\n    ') }}
from {{ o_cte }} as {{ oa }}
{{ j.semantics.keyword }} {{ s_cte }}_keys as {{ sa }}
    on {{ on_cond }}
            {%- endset -%}
            {%- do how.append(oa ~ "'s rows of these keys " ~ jt ~ ' join the broadcast distinct keys of ' ~ sa
                ~ "'s hot rows") -%}
            {%- do ctes.append([branch, branch_sql]) -%}
            {%- do selects.append('select * from ' ~ branch) -%}
        {%- else -%}
            {%- if jt in ('left semi', 'left anti') -%}
                {%- set keyword = j.semantics.keyword -%}
            {%- elif s in preserved -%}
                {%- set keyword = 'left outer join' -%}
            {%- else -%}
                {%- set keyword = 'inner join' -%}
            {%- endif -%}
            {%- set branch_sql -%}
select /*+ broadcast({{ oa }}) */
    {{ j.select_list | join(',\n    ') }}
from {{ s_cte }} as {{ sa }}
{{ keyword }} {{ o_cte }} as {{ oa }}
    on {{ on_cond }}
            {%- endset -%}
            {%- do ctes.append([branch, branch_sql]) -%}
            {%- do selects.append('select * from ' ~ branch) -%}
            {%- do how.append(sa ~ "'s hot rows " ~ keyword ~ ' the broadcast rows of ' ~ oa ~ ' with those keys') -%}
            {%- set n_tasks = tasks.get(s) -%}
            {%- set copies = (n_tasks ~ ' tasks') if n_tasks is not none
                else 'tasks (one per input split of ' ~ sa ~ ')' -%}
            {%- do how.append('multicast: those rows of ' ~ oa ~ ' are broadcast, one copy to each of the ' ~ copies
                ~ ' of the branch; no run-time count is made') -%}
            {%- if o in preserved -%}
                {#- o's rows of these keys that no hot row of s matches -#}
                {%- do ctes.append(skewjoin._sj_hot_keys_cte(j, s, s_cte)) -%}
                {%- set unmatched_sql -%}
select /*+ broadcast({{ sa }}) */ {{ oa }}.*
from {{ o_cte }} as {{ oa }}
left anti join {{ s_cte }}_keys as {{ sa }}
    on {{ on_cond }}
                {%- endset -%}
                {%- do ctes.append([o_cte ~ '_unmatched', unmatched_sql]) -%}
                {%- do ctes.append([o_cte ~ '_unmatched_kept',
                    skewjoin._sj_unmatched_select(j, o, o_cte ~ '_unmatched', inputs[s])]) -%}
                {%- do selects.append('select * from ' ~ o_cte ~ '_unmatched_kept') -%}
                {%- do how.append(oa ~ ' is preserved: its rows of these keys with no match are found by an anti join'
                    ~ ' against the broadcast distinct keys of ' ~ sa ~ "'s hot rows") -%}
            {%- endif -%}
        {%- endif -%}
        {%- do lines.append('hot branch for keys of ' ~ sa ~ ' (' ~ (hot[s].shown | join('; ')) ~ '): '
            ~ (how | join('; ')) ~ '; rows never hash-shuffled by these keys') -%}
    {%- endfor -%}
    {{- return({'ctes': ctes, 'selects': selects, 'rest_inputs': rest_inputs, 'lines': lines}) -}}
{%- endmacro %}


{#- The rows of side `side` (input `input_cte`) with a NULL key, routed
    around the join (they can never match): `kept_sql` keeps them once with
    NULLs for the other side(s) (none: the side is not preserved and they are
    dropped). `what`: 'join' or 'chain'. Returns {'pred' (the rows' predicate),
    'ctes', 'selects', 'line'}. -#}
{% macro _sj_null_bypass(j, side, input_cte, kept_sql, what, others_null, dropped_why) -%}
    {%- set alias = j[side].alias -%}
    {%- set pred = skewjoin._sj_any_key_null(j, side, alias) -%}
    {%- if kept_sql is none -%}
        {{- return({'pred': pred, 'ctes': [], 'selects': [], 'line': 'rows of ' ~ alias ~ ' with a NULL key are'
                    ~ ' dropped before the ' ~ what ~ ' (they can ' ~ dropped_why ~ ')'}) -}}
    {%- endif -%}
    {{- return({'pred': pred,
                'ctes': [[alias ~ '_null_keys', 'select * from ' ~ input_cte ~ ' as ' ~ alias ~ '\nwhere ' ~ pred],
                         [alias ~ '_null_keys_kept', kept_sql]],
                'selects': ['select * from ' ~ alias ~ '_null_keys_kept'],
                'line': 'rows of ' ~ alias ~ ' with a NULL key bypass the ' ~ what ~ ' (they can never match): kept'
                    ~ ' once, ' ~ others_null}) -}}
{%- endmacro %}


{#- The CTE `<alias>_rest`: the rows of `input_cte` that no hot-key
    predicate of `conds` takes (their exact complement: the predicates are
    null-safe). -#}
{% macro _sj_hot_rest_cte(alias, input_cte, conds) -%}
    {{- return([alias ~ '_rest', 'select * from ' ~ input_cte ~ ' as ' ~ alias ~ '\nwhere not (\n    '
                ~ (conds | join('\n    or ')) ~ '\n)']) -}}
{%- endmacro %}


{#- The hot-key branch of skew_join_chain (`pairs`: the chain's joins, all
    of the large side, inner or left; hot keys of the large side only): its
    hot rows meet a broadcast copy of each other side's rows of those keys,
    one join after the other; its NULL-key rows bypass the chain. Returns
    {'ctes', 'selects', 'rest' (alias -> the CTE of the rows left to the
    shuffle joins), 'lines'}. -#}
{% macro _sj_hot_chain_ctes(pairs, hot, inputs, select_list) -%}
    {%- set j = pairs[0] -%}
    {%- set a = j.left.alias -%}
    {%- set out = {'ctes': [], 'selects': [], 'rest': {}, 'lines': []} -%}
    {%- do out.rest.update(inputs) -%}
    {%- set conds = [] -%}
    {%- if hot.null_left -%}
        {%- set kept = none -%}
        {%- if (pairs | selectattr('join_type', 'equalto', 'left') | list | length) == (pairs | length) -%}
            {%- set empty = {a: a ~ '_null_keys'} -%}
            {%- for p in pairs -%}
                {%- do empty.update({p.right.alias: '(select * from ' ~ inputs[p.right.alias] ~ ' where false)'}) -%}
            {%- endfor -%}
            {%- set kept = skewjoin._sj_chain_join_sql(pairs, select_list, empty) -%}
        {%- endif -%}
        {%- set bypass = skewjoin._sj_null_bypass(j, 'left', inputs[a], kept, 'chain', 'every other side NULL',
            'never match, and an inner join of the chain drops them') -%}
        {%- do conds.append(bypass.pred) -%}
        {%- do out.ctes.extend(bypass.ctes) -%}
        {%- do out.selects.extend(bypass.selects) -%}
        {%- do out.lines.append(bypass.line) -%}
    {%- endif -%}
    {%- if hot.left is not none -%}
        {%- set pred = skewjoin._sj_in_tuples(j, 'left', a, hot.left.tuples) -%}
        {%- do conds.append(pred) -%}
        {%- set hot_inputs = {a: a ~ '_hot'} -%}
        {%- do out.ctes.append([a ~ '_hot', 'select * from ' ~ inputs[a] ~ ' as ' ~ a ~ '\nwhere ' ~ pred]) -%}
        {%- for p in pairs -%}
            {%- set b = p.right.alias -%}
            {%- set b_pred = skewjoin._sj_in_tuples(p, 'right', b, hot.left.tuples) -%}
            {%- do out.ctes.append([b ~ '_hot', 'select * from ' ~ inputs[b] ~ ' as ' ~ b ~ '\nwhere ' ~ b_pred]) -%}
            {%- do out.ctes.append([b ~ '_rest', 'select * from ' ~ inputs[b] ~ ' as ' ~ b ~ '\nwhere not '
                ~ b_pred]) -%}
            {%- do hot_inputs.update({b: b ~ '_hot'}) -%}
            {%- do out.rest.update({b: b ~ '_rest'}) -%}
        {%- endfor -%}
        {%- do out.ctes.append(['hot_chain', skewjoin._sj_chain_join_sql(pairs, select_list, hot_inputs,
            broadcast=true)]) -%}
        {%- do out.selects.append('select * from hot_chain') -%}
        {%- do out.lines.append('hot keys of ' ~ a ~ ' (' ~ (hot.left.shown | join('; ')) ~ '): its hot rows meet a'
            ~ " broadcast copy of each other side's rows of those keys, one join after the other ("
            ~ (pairs | map(attribute='right') | map(attribute='alias') | join(', ')) ~ '), never hash-shuffled;'
            ~ ' multicast: those rows are broadcast, one copy to each task of the branch') -%}
    {%- endif -%}
    {%- do out.ctes.append(skewjoin._sj_hot_rest_cte(a, inputs[a], conds)) -%}
    {%- do out.rest.update({a: a ~ '_rest'}) -%}
    {{- return(out) -}}
{%- endmacro %}


{#- The last step of a skew render: with `union` (a hot-key branch), the
    rest (`rest_sql`) as the CTE `rest_name` after `ctes`, the hot branches'
    `selects` and the rest's union all; else the rest alone. `words`: how the
    record names the hot join, the plain rest and the slotted join. Returns
    {'body', 'line' (the record's strategy)}. -#}
{% macro _sj_skew_body(union, ctes, selects, rest_name, rest_sql, grouped, words) -%}
    {%- if not union -%}
        {{- return({'body': rest_sql, 'line': 'strategy: skew groups over ' ~ words.slotted ~ ' on (keys, slot)'}) -}}
    {%- endif -%}
    {%- do ctes.append([rest_name, rest_sql]) -%}
    {{- return({'body': (selects + ['select * from ' ~ rest_name]) | join('\nunion all\n'),
                'line': 'strategy: hot keys by ' ~ words.hot ~ ' + ' ~ ('skew groups' if grouped else words.plain)
                    ~ ' for the rest, results unioned'}) -}}
{%- endmacro %}
