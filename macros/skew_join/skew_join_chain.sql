{#- skew_join_chain: one large relation joined to several others on the same
    key, on one salting (HIVE-3286's "join tree merging").

    The large side is salted once: its rows of a skew group are spread over
    the group's slots, and every other side's rows of the group are copied to
    the same slots. Every join of the chain matches on (keys, slot), so Spark
    keeps the first join's hash partitioning for the next ones and shuffles
    the large side once. The large side's hot keys are joined in one
    map-side chain: its hot rows meet a broadcast copy of each other side's
    rows of those keys, one join after the other, never hash-shuffled.

    Correct for inner and left joins (the large side is the driver, the
    others are copied: an inner join returns each pair once per slot they
    share, which is one; a left join never copies the preserved large side).
    Any other join type is refused with the rule.

    Usage in a model:
        {{ config(skew_join={'groups': [{'when': 'o.customer_id = 0', 'slots': 40}]}) }}
        {{ skewjoin.skew_join_chain(ref('orders'), [
               {'relation': ref('customers'), 'alias': 'c', 'join_type': 'left'},
               {'relation': ref('customer_scores'), 'alias': 's', 'join_type': 'left'}
           ], on=['customer_id'], left_alias='o') }}
-#}

{% macro skew_join_chain(left, joins, on, columns=none, left_alias='a', skew=none) -%}
    {%- do skewjoin._sj_check_call('skew_join_chain', ['left', 'joins', 'on', 'columns', 'left_alias', 'skew'],
        kwargs, varargs) -%}
    {{- return(adapter.dispatch('skew_join_chain', 'skewjoin')(left, joins, on, columns, left_alias, skew)) -}}
{%- endmacro %}


{% macro default__skew_join_chain(left, joins, on, columns, left_alias, skew) -%}
    {%- do skewjoin._sj_spark_only('skew_join_chain', 'generates Spark SQL (xxhash64, explode, broadcast hints)') -%}
{%- endmacro %}


{#- The chain's joins, checked without a query: [{'relation', 'alias',
    'join_type', 'on'}] with at least two entries, distinct aliases, inner or
    left joins. -#}
{% macro _sj_chain_joins(joins, left_alias, on, left=none) -%}
    {%- set example = skewjoin._sj_chain_example(joins, left_alias, left) -%}
    {%- if joins is string or joins is mapping or joins is not iterable or joins | length < 2 -%}
        {%- set problem -%}
expected a list of at least two joins, each a mapping with relation, alias, and optionally join_type (inner or
left) and on; got {{ joins }}. For a single join use skew_join
        {%- endset -%}
        {%- do skewjoin._sj_raise('skew_join_chain', 'joins', problem, 'joins=' ~ example) -%}
    {%- endif -%}
    {%- set out = [] -%}
    {%- set aliases = [left_alias | lower] -%}
    {%- for entry in joins -%}
        {%- set arg = 'joins[' ~ loop.index0 ~ ']' -%}
        {%- if entry is not mapping -%}
            {%- do skewjoin._sj_raise('skew_join_chain', arg, 'each join is a mapping with relation and alias; got '
                ~ entry, example) -%}
        {%- endif -%}
        {%- do skewjoin._sj_check_keys('skew_join_chain', arg, entry, ['relation', 'alias', 'join_type', 'on'],
            'a join', example) -%}
        {%- for key in ['relation', 'alias'] if entry.get(key) is none -%}
            {%- do skewjoin._sj_raise('skew_join_chain', arg ~ '.' ~ key, 'every join needs its ' ~ key, example) -%}
        {%- endfor -%}
        {%- set alias = entry.alias -%}
        {%- do skewjoin._sj_check_alias('skew_join_chain', arg ~ '.alias', alias, 'c') -%}
        {%- if alias | lower in aliases -%}
            {%- do skewjoin._sj_raise('skew_join_chain', arg ~ '.alias', "the alias '" ~ alias ~ "' is taken; every"
                ~ ' side of the chain needs its own (the large side is ' ~ left_alias ~ ')', alias ~ '_2') -%}
        {%- endif -%}
        {%- do aliases.append(alias | lower) -%}
        {%- set jt = skewjoin._sj_normalize_join_type('skew_join_chain', arg ~ '.join_type',
            entry.get('join_type', 'inner')) -%}
        {%- if jt not in ('inner', 'left') -%}
            {%- set problem -%}
a {{ jt }} join cannot be part of a chain: the chain copies each other side's rows of a skew group to every slot
of the group and spreads the large side ({{ left_alias }}) over them, which keeps each row once only where
{{ left_alias }} is the preserved side or no side is (inner and left joins). Join it with skew_join instead
            {%- endset -%}
            {%- do skewjoin._sj_raise('skew_join_chain', arg ~ '.join_type', problem, "'left'") -%}
        {%- endif -%}
        {%- do out.append({'relation': entry.relation, 'alias': alias, 'join_type': jt,
                           'on': entry.get('on') if entry.get('on') is not none else on}) -%}
    {%- endfor -%}
    {{- return(out) -}}
{%- endmacro %}


{#- The chain joined from the given CTEs of each side (`inputs`: alias ->
    cte), with `slot` the extra match on the slots, and (`broadcast`) a
    broadcast hint naming the other sides. -#}
{% macro _sj_chain_join_sql(pairs, select_list, inputs, slot=false, broadcast=false) -%}
    {%- set a = pairs[0].left.alias -%}
    {%- set joins = [] -%}
    {%- for j in pairs -%}
        {%- set b = j.right.alias -%}
        {%- set slot_match = [a ~ '.sj_slot = ' ~ b ~ '.sj_slot'] if slot else [] -%}
        {%- do joins.append({'keyword': j.join_type ~ ' join', 'input': inputs[b], 'alias': b,
                             'on': [skewjoin._sj_on_condition(j)] + slot_match}) -%}
    {%- endfor -%}
    {{- return(skewjoin._sj_joins_sql(select_list, [inputs[a], a], joins,
        (pairs | map(attribute='right') | map(attribute='alias') | list) if broadcast else none)) -}}
{%- endmacro %}


{#- `first` ([input, alias]) joined to each of `joins` ({'keyword',
    'input', 'alias', 'on': [conditions]}) one after the other, selecting
    `select_list`; `broadcast`: the aliases a broadcast hint names. -#}
{% macro _sj_joins_sql(select_list, first, joins, broadcast=none) -%}
    {%- set hint = (' /*+ broadcast(' ~ (broadcast | join(', ')) ~ ') */') if broadcast else '' -%}
    {%- set lines = ['select' ~ hint, '    ' ~ (select_list | join(',\n    ')),
                     'from ' ~ first[0] ~ ' as ' ~ first[1]] -%}
    {%- for j in joins -%}
        {%- do lines.append(j.keyword ~ ' ' ~ j.input ~ ' as ' ~ j.alias) -%}
        {%- do lines.append('    on ' ~ j.on[0]) -%}
        {%- for condition in j.on[1:] -%}{%- do lines.append('    and ' ~ condition) -%}{%- endfor -%}
    {%- endfor -%}
    {{- return(lines | join('\n')) -}}
{%- endmacro %}


{% macro spark__skew_join_chain(left, joins, on, columns, left_alias, skew) -%}
    {%- if not execute -%}
        {#- parse time: no queries and no errors (a bad argument stops this model when it compiles, not every
            dbt command of the project at parse time) -#}
        {{- return(skewjoin._sj_chain_parse_sql(left, joins, left_alias)) -}}
    {%- endif -%}
    {#- spec: one pair (large side, other side) a join, and the skew specification, checked (no query) -#}
    {%- set specs = skewjoin._sj_chain_specs(left, joins, on, left_alias) -%}
    {%- set skew = skewjoin._sj_chain_skew_spec(specs, skew) -%}
    {#- resolve: every pair, one key type for the whole chain, the output columns -#}
    {%- set chain = skewjoin._sj_resolve_chain(specs, columns) -%}
    {%- set j = chain.pairs[0] -%}
    {#- measure: every query (parallelism, hot keys, verification, slot placement) -#}
    {%- set facts = skewjoin._sj_skew_measure(specs[0], j, skew, spread=false) -%}
    {#- plan: every decision, from the facts (no query) -#}
    {%- set plan = skewjoin._sj_skew_plan(specs[0], j, skew, facts) -%}
    {#- render: the decision record and the SQL, from the plan -#}
    {%- set record = skewjoin._sj_record_sql('skew_join_chain',
        skewjoin._sj_chain_record(chain.pairs, plan, chain.retyped, chain.output.renamed)) -%}
    {%- set sql = skewjoin._sj_chain_sql(chain.pairs, chain.output.select_list, plan) -%}
    {%- set inputs = [['left', specs[0].left['from']]] -%}
    {%- for spec in specs -%}{%- do inputs.append(['joins[' ~ loop.index0 ~ ']', spec.right['from']]) -%}{%- endfor -%}
    {%- do skewjoin._sj_check_cte_shadowing('skew_join_chain', sql, inputs) -%}
    {{- return(record ~ '\n' ~ sql) -}}
{%- endmacro %}


{#- The chain's specifications, checked without a query: one pair (large
    side, other side) a join. -#}
{% macro _sj_chain_specs(left, joins, on, left_alias) -%}
    {%- set chain = skewjoin._sj_chain_joins(joins, left_alias, on, left) -%}
    {%- set specs = [] -%}
    {%- for c in chain -%}
        {%- do specs.append(skewjoin._sj_join_spec('skew_join_chain', left, c.relation, c.on, c.join_type, none,
            left_alias, c.alias, 'joins[' ~ loop.index0 ~ '].on')) -%}
    {%- endfor -%}
    {{- return(specs) -}}
{%- endmacro %}


{#- The chain's skew specification, read against its first join and checked
    against the chain's rules: no 'auto', groups and hot keys on the large
    side. -#}
{% macro _sj_chain_skew_spec(specs, skew) -%}
    {%- set left_alias = specs[0].left.alias -%}
    {%- do skewjoin._sj_chain_skew_aliases(specs, skew) -%}
    {%- set skew = skewjoin._sj_skew_spec(specs[0], skew) -%}
    {%- if skew.auto is not none -%}
        {%- do skewjoin._sj_raise('skew_join_chain', 'skew_join', "'auto' plans one join; a chain's groups and hot "
            ~ 'keys are declared on the large side', "{'groups': [{'when': '" ~ left_alias ~ "."
            ~ specs[0].pairs[0][0] ~ " = 0', 'slots': " ~ ([2, skewjoin._sj_total_slots({'total_slots': none})[0] // 4] | max)
            ~ "}], 'hot_keys': [7]}") -%}
    {%- endif -%}
    {%- for g in skew.groups if g.driver != 'left' -%}
        {%- do skewjoin._sj_raise('skew_join_chain', 'skew_join.groups[' ~ (g.index - 1) ~ '].when', "'" ~ g.when
            ~ "' is on " ~ specs[0].right.alias ~ "'s keys; a chain's groups are driven by the large side "
            ~ left_alias ~ ' (its rows spread over the slots, every other side copied to them)',
            '"' ~ left_alias ~ '.' ~ specs[0].pairs[0][0] ~ ' = 0"') -%}
    {%- endfor -%}
    {%- if 'right' in skew.hot.sides -%}
        {%- do skewjoin._sj_raise('skew_join_chain', 'skew_join.hot_keys', "a chain's hot keys are the large side's ("
            ~ left_alias ~ "): its hot rows meet a broadcast copy of every other side's rows of those keys",
            "{'" ~ left_alias ~ "': [0, 1]}") -%}
    {%- endif -%}
    {{- return(skew) -}}
{%- endmacro %}


{#- The aliases a chain's groups and hot keys name, against every side of the chain (the specification is
    read against its first join, whose messages know two sides): a later side is refused as the first
    join's other side is (_sj_chain_skew_spec), an unknown alias with the chain's sides. -#}
{% macro _sj_chain_skew_aliases(specs, skew) -%}
    {%- set la = specs[0].left.alias -%}
    {%- set sides = [la] + (specs | map(attribute='right') | map(attribute='alias') | list) -%}
    {%- set named = [] -%}
    {%- if skew is mapping and skew.get('groups') is iterable and skew.get('groups') is not string -%}
        {%- for g in skew.groups -%}
            {%- set arg = 'skew_join.groups[' ~ loop.index0 ~ '].when' -%}
            {%- for ref in (skewjoin._sj_expr_refs(g.when) if g is mapping and g.get('when') is string else []) -%}
                {%- do named.append({'arg': arg, 'alias': ref.alias, 'when': g.when}) -%}
            {%- endfor -%}
        {%- endfor -%}
    {%- endif -%}
    {%- if skew is mapping and skew.get('hot_keys') is mapping -%}
        {%- for alias in skew.hot_keys -%}
            {%- do named.append({'arg': 'skew_join.hot_keys', 'alias': alias | string, 'when': none}) -%}
        {%- endfor -%}
    {%- endif -%}
    {%- for n in named if (n.alias | lower) not in ((sides[:2] | map('lower') | list)) -%}
        {%- set example = ("{'" ~ la ~ "': [0, 1]}") if n.when is none else ('"' ~ la ~ '.' ~ specs[0].pairs[0][0] ~ ' = 0"') -%}
        {%- if (n.alias | lower) not in (sides | map('lower') | list) -%}
            {%- set problem = "'" ~ n.alias ~ "' names no side of the chain; its sides are " ~ sides | join(', ') -%}
        {%- elif n.when is none -%}
            {%- set problem = "a chain's hot keys are the large side's (" ~ la ~ "): its hot rows meet a broadcast copy"
                ~ " of every other side's rows of those keys" -%}
        {%- else -%}
            {%- set problem = "'" ~ n.when ~ "' is on " ~ n.alias ~ "'s keys; a chain's groups are driven by the large"
                ~ ' side ' ~ la ~ ' (its rows spread over the slots, every other side copied to them)' -%}
        {%- endif -%}
        {%- do skewjoin._sj_raise('skew_join_chain', n.arg, problem, example) -%}
    {%- endfor -%}
{%- endmacro %}


{#- The chain resolved: every pair, one key type for the whole chain (the
    slots are hashed in it on every side), and the output columns. Returns
    {'pairs', 'retyped' (the joins whose keys compare in another type),
    'output'}. -#}
{% macro _sj_resolve_chain(specs, columns) -%}
    {%- set left_alias = specs[0].left.alias -%}
    {%- set pairs = [] -%}
    {%- for s in specs -%}{%- do pairs.append(skewjoin._sj_resolve_join(s)) -%}{%- endfor -%}
    {%- set retyped = [] -%}
    {%- for j in pairs[1:] if j['keys'] | length != pairs[0]['keys'] | length -%}
        {%- do skewjoin._sj_raise('skew_join_chain', 'joins[' ~ loop.index ~ '].on', 'the join has '
            ~ (j['keys'] | length) ~ ' key column(s); every join of a chain is on the same key as the first ('
            ~ (pairs[0]['keys'] | map(attribute='left') | join(', ')) ~ ')',
            pairs[0]['keys'] | map(attribute='left') | list) -%}
    {%- endfor -%}
    {%- for i in range(pairs[0]['keys'] | length) -%}
        {%- set first = pairs[0]['keys'][i] -%}
        {%- set state = namespace(common=first.type) -%}
        {%- for j in pairs[1:] -%}
            {%- set k = j['keys'][i] -%}
            {%- if k.left | lower != first.left | lower -%}
                {%- do skewjoin._sj_raise('skew_join_chain', 'joins[' ~ loop.index ~ '].on',
                    "every join of a chain is on the large side's same key: the first joins on " ~ first.left
                    ~ ', this one on ' ~ k.left,
                    "[['" ~ first.left ~ "', '" ~ k.right ~ "']]") -%}
            {%- endif -%}
            {%- set state.common = skewjoin._sj_common_type(state.common, k.type, pairs[0].ansi) -%}
            {%- if state.common is none -%}
                {%- set problem -%}
the chain hashes every side's key in one type, and {{ j.right.alias }}.{{ k.right }} ({{ k.right_type }}) has no type in
common with the chain's other keys ({{ first.type }}); cast it in a subquery
                {%- endset -%}
                {%- do skewjoin._sj_raise('skew_join_chain', 'joins[' ~ loop.index ~ '].on', problem,
                    "relation=\"select cast(" ~ k.right ~ " as " ~ first.type ~ ") as " ~ k.right ~ ", * except ("
                    ~ k.right ~ ") from " ~ j.right['from'] ~ "\"") -%}
            {%- endif -%}
        {%- endfor -%}
        {%- for j in pairs -%}
            {%- set k = j['keys'][i] -%}
            {#- a join whose keys compare in another type than the chain's: its matches meet in the chain's slots
                only where each side's key widens exactly into that type, and that type into the chain's -#}
            {%- set widens = {'left': skewjoin._sj_exact_widening(k.left_type, k.type),
                              'right': skewjoin._sj_exact_widening(k.right_type, k.type),
                              'up': skewjoin._sj_exact_widening(k.type, state.common)} -%}
            {%- if k.type != state.common and not (widens.left and widens.right and widens.up) -%}
                {%- set step = (k.left_type ~ ' into ' ~ k.type) if not widens.left
                    else ((k.right_type ~ ' into ' ~ k.type) if not widens.right else (k.type ~ ' into ' ~ state.common)) -%}
                {%- set problem -%}
the chain routes every side's key in one type ({{ state.common }}), and {{ left_alias }}.{{ k.left }} ({{ k.left_type }}) =
{{ j.right.alias }}.{{ k.right }} ({{ k.right_type }}) compares as {{ k.type }}; a chain is planned only where each side's key
widens exactly into its join's type and that type into the chain's (no rounding, no cast of text, no date of a timestamp),
and {{ step }} does not, so rows this join matches could land in different slots
                {%- endset -%}
                {%- if widens.left and widens.up -%}
                    {%- set problem = problem ~ '; cast ' ~ j.right.alias ~ '.' ~ k.right ~ ' to ' ~ k.type
                        ~ ' in a subquery, as the join compares it' -%}
                    {%- set right_form = "relation=\"select cast(" ~ k.right ~ " as " ~ k.type ~ ") as " ~ k.right
                        ~ ", * except (" ~ k.right ~ ") from " ~ j.right['from'] ~ "\"" -%}
                {%- else -%}
                    {%- set problem = problem ~ '; a cast would change which rows the join matches: chain the joins'
                        ~ ' that compare in one type, and join ' ~ j.right.alias ~ ' after the chain' -%}
                    {%- set right_form = "select ... from (the chain without this join) as chained " ~ j.join_type
                        ~ " join " ~ j.right['from'] ~ " as " ~ j.right.alias ~ " on chained." ~ k.left ~ " = "
                        ~ j.right.alias ~ "." ~ k.right -%}
                {%- endif -%}
                {%- do skewjoin._sj_raise('skew_join_chain', 'joins[' ~ loop.index0 ~ '].on', problem, right_form) -%}
            {%- endif -%}
            {%- if k.type != state.common -%}
                {%- do retyped.append(left_alias ~ '.' ~ k.left ~ ' = ' ~ j.right.alias ~ '.' ~ k.right
                    ~ ' compares as ' ~ k.type) -%}
                {%- do k.update({'type': state.common}) -%}
            {%- endif -%}
        {%- endfor -%}
    {%- endfor -%}
    {%- set j = pairs[0] -%}
    {%- set example = "columns=['" ~ left_alias ~ ".*', '" ~ pairs[0].right.alias ~ "."
        ~ pairs[0].right.columns[0].name ~ "']" -%}
    {%- set output = skewjoin._sj_output_columns('skew_join_chain', columns, j.left,
        pairs | map(attribute='right') | list, example) -%}
    {{- return({'pairs': pairs, 'retyped': retyped, 'output': output}) -}}
{%- endmacro %}
