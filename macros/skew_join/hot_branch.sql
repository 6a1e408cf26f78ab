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


{#- `select distinct <keys of the hub>` from its hot rows as read
    (`<rows>_read`). -#}
{% macro _sj_hot_keys_cte(hub, rows) -%}
    {%- set keys = skewjoin._sj_side_keys(hub.pair, hub.pos, hub.alias) -%}
    {{- return([rows ~ '_keys', 'select distinct ' ~ (keys | join(', ')) ~ '\nfrom ' ~ rows ~ '_read as '
                ~ hub.alias]) -}}
{%- endmacro %}


{#- How the broadcast branch of side `s`'s hot keys joins (pure): 'keys'
    (a semi or anti join of the other side's rows against the distinct hot
    keys; the output is the left side's rows) or 'rows' (the hot rows
    stream, the other side's rows of those keys are broadcast), its
    'keyword', and 'unmatched' (the other side is preserved: its rows with
    no hot match are kept by an anti join). -#}
{% macro _sj_hot_branch_shape(j, s) -%}
    {%- set jt = j.join_type -%}
    {%- set o = 'right' if s == 'left' else 'left' -%}
    {%- if jt in ('left semi', 'left anti') and s == 'right' -%}
        {{- return({'kind': 'keys', 'keyword': j.semantics.keyword, 'unmatched': false}) -}}
    {%- elif jt in ('left semi', 'left anti') -%}
        {%- set keyword = j.semantics.keyword -%}
    {%- elif s in j.semantics.keeps_unmatched -%}
        {%- set keyword = 'left outer join' -%}
    {%- else -%}
        {%- set keyword = 'inner join' -%}
    {%- endif -%}
    {{- return({'kind': 'rows', 'keyword': keyword,
                'unmatched': jt not in ('left semi', 'left anti') and o in j.semantics.keeps_unmatched}) -}}
{%- endmacro %}


{#- The hot-key branch, the one skew_join and skew_join_chain both render:
    the hot rows of `hub` (a side whose keys are hot) meet a broadcast copy
    of each other side's rows of those keys, one join after the other
    (`steps`), never hash-shuffled by these keys. skew_join has one step (a
    branch per hot side); the chain a step per join of its large side.
      hub     {'alias', 'pair' (the join that holds its keys), 'pos' (its
              side in that join: 'left' or 'right')}
      steps   [{'alias', 'pair', 'pos', 'keyword' (how it joins)}]
      tuples  the hot keys (literals); inputs: alias -> each side's rows
      names   the CTE names, each caller's own: 'rows' (a side's hot rows,
              '{side}' and '{hub}' filled in), 'branch' (the join, '{hub}'
              filled in), 'read' (true: the hub's rows are first read into
              '<rows>_read', which its spread and its distinct keys read)
      spread  the hub's spread (`_sj_hot_spread`), or none
      exclude the keys (literals) of a branch rendered before this one: rows
              of those keys are left out here, so that a value hot on both
              sides, written differently by each (1.00 and 1 in a decimal,
              2024-01-01 as a date and as a timestamp), is joined once, in the
              first branch (Spark compares the values; the plan compares the
              literals' text)
    Outer joins (one step, `_sj_hot_branch_shape`): a step that is preserved
    keeps its rows no hot row matches (an anti join against the hub's
    distinct hot keys); a left semi or anti join with hot keys on its right
    side joins the left side's rows to those distinct keys. Returns {'preds'
    (alias -> the predicate of its rows this branch joins), 'keys' (alias ->
    the predicate of its rows of these keys, `exclude` aside), 'hub' (the hub's
    CTEs), 'others' (alias -> its CTEs), 'branch' (the join's CTEs),
    'selects'}: each caller routes the rest of the rows and orders the CTEs. -#}
{% macro _sj_hot_branch(hub, steps, tuples, inputs, select_list, names, spread=none, exclude=none) -%}
    {%- set ha = hub.alias -%}
    {%- set out = {'preds': {}, 'keys': {}, 'hub': [], 'others': {}, 'branch': [], 'selects': []} -%}
    {%- set rows = {} -%}
    {%- for s in [hub] + steps -%}
        {%- set pred = skewjoin._sj_in_tuples(s.pair, s.pos, s.alias, tuples) -%}
        {%- do out['keys'].update({s.alias: pred}) -%}
        {%- if exclude -%}
            {%- set pred = '(' ~ pred ~ ' and not ' ~ skewjoin._sj_in_tuples(s.pair, s.pos, s.alias, exclude) ~ ')' -%}
        {%- endif -%}
        {%- do out.preds.update({s.alias: pred}) -%}
        {%- do rows.update({s.alias: names.rows.format(side=s.alias, hub=ha)}) -%}
        {%- set read_sql = 'select * from ' ~ inputs[s.alias] ~ ' as ' ~ s.alias ~ '\nwhere ' ~ out.preds[s.alias] -%}
        {%- if s.alias != ha -%}
            {%- do out.others.update({s.alias: [[rows[s.alias], read_sql]]}) -%}
        {%- elif names.read -%}
            {%- do out.hub.extend([[rows[ha] ~ '_read', read_sql]]
                + skewjoin._sj_hot_spread_ctes(hub, rows[ha], spread)) -%}
        {%- else -%}
            {%- do out.hub.append([rows[ha], read_sql]) -%}
        {%- endif -%}
    {%- endfor -%}
    {%- set branch = names.branch.format(hub=ha) -%}
    {%- set shape = skewjoin._sj_hot_branch_shape(hub.pair, hub.pos) -%}
    {%- if shape.kind == 'keys' -%}
        {#- the output is the other side's rows: kept or dropped by the distinct keys of the hub's hot rows -#}
        {%- set o = steps[0] -%}
        {%- do out.branch.append(skewjoin._sj_hot_keys_cte(hub, rows[ha])) -%}
        {%- set keys_join = {'keyword': o.keyword, 'input': rows[ha] ~ '_keys', 'alias': ha,
                             'on': [skewjoin._sj_on_condition(o.pair)]} -%}
        {%- do out.branch.append([branch, skewjoin._sj_joins_sql(select_list, [rows[o.alias], o.alias], [keys_join],
            [ha])]) -%}
        {%- do out.selects.append('select * from ' ~ branch) -%}
        {{- return(out) -}}
    {%- endif -%}
    {%- set joins = [] -%}
    {%- for s in steps -%}
        {%- do joins.append({'keyword': s.keyword, 'input': rows[s.alias], 'alias': s.alias,
                             'on': [skewjoin._sj_on_condition(s.pair)]}) -%}
    {%- endfor -%}
    {%- do out.branch.append([branch, skewjoin._sj_joins_sql(select_list, [rows[ha], ha], joins,
        steps | map(attribute='alias') | list)]) -%}
    {%- do out.selects.append('select * from ' ~ branch) -%}
    {%- for o in steps if shape.unmatched -%}
        {#- o's rows of these keys that no hot row of the hub matches -#}
        {%- set o_cte = rows[o.alias] -%}
        {%- do out.branch.append(skewjoin._sj_hot_keys_cte(hub, rows[ha])) -%}
        {%- set unmatched_sql -%}
select /*+ broadcast({{ ha }}) */ {{ o.alias }}.*
from {{ o_cte }} as {{ o.alias }}
left anti join {{ rows[ha] }}_keys as {{ ha }}
    on {{ skewjoin._sj_on_condition(o.pair) }}
        {%- endset -%}
        {%- do out.branch.append([o_cte ~ '_unmatched', unmatched_sql]) -%}
        {%- do out.branch.append([o_cte ~ '_unmatched_kept',
            skewjoin._sj_unmatched_select(o.pair, o.pos, o_cte ~ '_unmatched', inputs[ha])]) -%}
        {%- do out.selects.append('select * from ' ~ o_cte ~ '_unmatched_kept') -%}
    {%- endfor -%}
    {{- return(out) -}}
{%- endmacro %}


{#- The hub's hot rows as the branch reads them, from `<name>_read`: as
    read, or (`spread`) hashed and repartitioned by a hash of the whole row
    and its input split first. -#}
{% macro _sj_hot_spread_ctes(hub, name, spread) -%}
    {%- if spread is none or not spread.spread -%}
        {{- return([[name, 'select * from ' ~ name ~ '_read']]) -}}
    {%- endif -%}
    {#- hash partitioning on a hash of the whole row and its input split (salt.sql): deterministic on retry, and
        unlike a round-robin repartition Spark needs no sort for it; an explicit partition count, so AQE does not
        coalesce it -#}
    {%- set columns = hub.pair[hub.pos].columns -%}
    {%- set cols = [] -%}
    {%- for c in columns -%}{%- do cols.append(skewjoin._sj_ident(c.name)) -%}{%- endfor -%}
    {{- return([
        [name ~ '_hashed', 'select *, ' ~ skewjoin._sj_salt_hash(columns, name ~ '_read') ~ ' as sj_spread from '
            ~ name ~ '_read'],
        [name ~ '_spread', 'select /*+ repartition(' ~ spread.partitions ~ ', sj_spread) */ * from ' ~ name
            ~ '_hashed'],
        [name, 'select ' ~ (cols | join(', ')) ~ ' from ' ~ name ~ '_spread']
    ]) -}}
{%- endmacro %}


{#- skew_join's hot keys: each hot side's branch (`_sj_hot_branch`), and
    every side's rows routed: its NULL keys around the join, its rows of
    either side's hot keys to that side's branch, the rest to the shuffle
    join. Returns {'ctes', 'selects', 'rest_inputs': {'left': cte, 'right':
    cte}}. -#}
{% macro _sj_hot_key_ctes(j, hot, inputs) -%}
    {%- set ctes = [] -%}
    {%- set selects = [] -%}
    {%- set rest_inputs = {} -%}
    {%- set sides = {} -%}
    {%- for side in ['left', 'right'] -%}
        {%- do sides.update({side: {'alias': j[side].alias, 'pair': j, 'pos': side}}) -%}
    {%- endfor -%}
    {%- set branches = {} -%}
    {%- for s in ['left', 'right'] if hot[s] is not none -%}
        {%- set o = 'right' if s == 'left' else 'left' -%}
        {%- set step = {'keyword': skewjoin._sj_hot_branch_shape(j, s).keyword} -%}
        {%- do step.update(sides[o]) -%}
        {#- the right side's branch leaves out the left side's keys (`_sj_hot_branch`'s exclude) -#}
        {%- set exclude = hot.left.tuples if s == 'right' and hot.left is not none else none -%}
        {%- do branches.update({s: skewjoin._sj_hot_branch(sides[s], [step], hot[s].tuples,
            {j.left.alias: inputs.left, j.right.alias: inputs.right}, j.select_list,
            {'rows': '{side}_hot_{hub}', 'branch': 'hot_{hub}', 'read': true}, hot['spread_' ~ s], exclude)}) -%}
    {%- endfor -%}
    {#- each side's rows split into: null bypass, hot of left, hot of right, rest -#}
    {%- for side in ['left', 'right'] -%}
        {%- set alias = j[side].alias -%}
        {%- set conds = [] -%}
        {%- if hot['null_' ~ side] -%}
            {%- set kept = skewjoin._sj_unmatched_select(j, side, alias ~ '_null_keys',
                inputs['right' if side == 'left' else 'left']) if side in j.semantics.keeps_unmatched else none -%}
            {%- set bypass = skewjoin._sj_null_bypass(j, side, inputs[side], kept) -%}
            {%- do conds.append(bypass.pred) -%}
            {%- do ctes.extend(bypass.ctes) -%}
            {%- do selects.extend(bypass.selects) -%}
        {%- endif -%}
        {%- for s, b in branches.items() -%}
            {#- the rest: no branch's keys (the exclusion of `_sj_hot_branch` changes no row's routing here) -#}
            {%- do conds.append(b['keys'][alias]) -%}
            {%- do ctes.extend(b.hub if s == side else b.others[alias]) -%}
        {%- endfor -%}
        {%- if conds -%}
            {%- do ctes.append(skewjoin._sj_hot_rest_cte(alias, inputs[side], conds)) -%}
        {%- endif -%}
        {%- do rest_inputs.update({side: alias ~ '_rest' if conds else inputs[side]}) -%}
    {%- endfor -%}
    {%- for b in branches.values() -%}
        {%- do ctes.extend(b.branch) -%}
        {%- do selects.extend(b.selects) -%}
    {%- endfor -%}
    {{- return({'ctes': ctes, 'selects': selects, 'rest_inputs': rest_inputs}) -}}
{%- endmacro %}


{#- The rows of side `side` (input `input_cte`) with a NULL key, routed
    around the join (they can never match): `kept_sql` keeps them once with
    NULLs for the other side(s) (none: the side is not preserved and they are
    dropped). Returns {'pred' (the rows' predicate), 'ctes', 'selects'}. -#}
{% macro _sj_null_bypass(j, side, input_cte, kept_sql) -%}
    {%- set alias = j[side].alias -%}
    {%- set pred = skewjoin._sj_any_key_null(j, side, alias) -%}
    {%- if kept_sql is none -%}
        {{- return({'pred': pred, 'ctes': [], 'selects': []}) -}}
    {%- endif -%}
    {{- return({'pred': pred,
                'ctes': [[alias ~ '_null_keys', 'select * from ' ~ input_cte ~ ' as ' ~ alias ~ '\nwhere ' ~ pred],
                         [alias ~ '_null_keys_kept', kept_sql]],
                'selects': ['select * from ' ~ alias ~ '_null_keys_kept']}) -}}
{%- endmacro %}


{#- The CTE `<alias>_rest`: the rows of `input_cte` that no hot-key
    predicate of `conds` takes (their exact complement: the predicates are
    null-safe). -#}
{% macro _sj_hot_rest_cte(alias, input_cte, conds) -%}
    {{- return([alias ~ '_rest', 'select * from ' ~ input_cte ~ ' as ' ~ alias ~ '\nwhere not (\n    '
                ~ (conds | join('\n    or ')) ~ '\n)']) -}}
{%- endmacro %}


{#- The last step of a skew render: with `union` (a hot-key branch), the
    rest (`rest_sql`) as the CTE `rest_name` after `ctes`, the hot branches'
    `selects` and the rest's union all; else the rest alone. Returns the
    body. -#}
{% macro _sj_skew_body(union, ctes, selects, rest_name, rest_sql) -%}
    {%- if not union -%}
        {{- return(rest_sql) -}}
    {%- endif -%}
    {%- do ctes.append([rest_name, rest_sql]) -%}
    {{- return((selects + ['select * from ' ~ rest_name]) | join('\nunion all\n')) -}}
{%- endmacro %}
