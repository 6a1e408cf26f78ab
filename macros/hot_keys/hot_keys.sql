{#- Hot keys (Hive's skewed join, Teradata's PRPD): the rows of a few heavy
    keys are joined by a broadcast join where they are read, never
    hash-shuffled by their key; everything else goes through the shuffle join
    (or the skew groups); the branches are unioned.

    Every input row lands in exactly one branch: the hot predicates are
    null-safe (coalesce(..., false)) and the rest is their exact complement.
    For a key hot on side S, S's hot rows are streamed and the other side O's
    rows of that key are broadcast. Outer joins:
      - S preserved: S left join broadcast(O) (Spark can build the right side);
      - O preserved: pairs by S inner join broadcast(O), plus O's unmatched
        rows found by an anti join against the (few) distinct keys of S's hot
        rows;
      - full: both of the above.
    `null` in a list of hot keys routes the rows with a NULL key around the
    join altogether (they can never match): kept once with NULLs for the other
    side when their side is preserved, dropped otherwise.
-#}

{% macro _sj_hot_example(j) -%}
    {{- return("hot_keys: [0, 1]  or  hot_keys: {'" ~ j.left.alias ~ "': 'auto', '" ~ j.right.alias ~ "': [42]}  (tuples for multi-column keys: [[0, 'EU']])") -}}
{%- endmacro %}


{#- Hot-key options with their defaults. -#}
{% macro _sj_hot_options(j, options) -%}
    {%- set defaults = {'min_share': 0.01, 'max_keys': 20, 'sample_fraction': none, 'spread': 'auto',
                        'spread_partitions': none, 'spread_min_splits': 8} -%}
    {%- if options is not mapping -%}
        {%- do skewjoin._sj_raise('skew_join', 'skew_join.hot_keys_options', 'expected a mapping; got ' ~ (options | string), "hot_keys_options: {'min_share': 0.05, 'max_keys': 10}") -%}
    {%- endif -%}
    {%- set out = {} -%}
    {%- do out.update(defaults) -%}
    {%- for key in options -%}
        {%- if key not in defaults -%}
            {%- do skewjoin._sj_raise('skew_join', 'skew_join.hot_keys_options', "unknown option '" ~ key ~ "'; options are " ~ (defaults.keys() | list | join(', ')), "hot_keys_options: {'min_share': 0.05}") -%}
        {%- endif -%}
        {%- do out.update({key: options[key]}) -%}
    {%- endfor -%}
    {%- set ms = out.min_share -%}
    {%- if ms is boolean or not modules.re.fullmatch('[0-9]*[.]?[0-9]+([eE][-+]?[0-9]+)?', ms | string) or (ms | float) <= 0 or (ms | float) >= 1 -%}
        {%- do skewjoin._sj_raise('skew_join', 'skew_join.hot_keys_options.min_share', 'min_share is a fraction above 0 and below 1; got ' ~ (ms | string), "hot_keys_options: {'min_share': 0.01}") -%}
    {%- endif -%}
    {%- if out.max_keys is boolean or not modules.re.fullmatch('[0-9]+', out.max_keys | string) or (out.max_keys | int) < 1 -%}
        {%- do skewjoin._sj_raise('skew_join', 'skew_join.hot_keys_options.max_keys', 'max_keys is a whole number >= 1; got ' ~ (out.max_keys | string), "hot_keys_options: {'max_keys': 20}") -%}
    {%- endif -%}
    {%- set sf = out.sample_fraction -%}
    {%- if sf is not none and (sf is boolean or not modules.re.fullmatch('[0-9]*[.]?[0-9]+', sf | string) or (sf | float) <= 0 or (sf | float) > 1) -%}
        {%- do skewjoin._sj_raise('skew_join', 'skew_join.hot_keys_options.sample_fraction', 'sample_fraction is a fraction above 0 and at most 1; got ' ~ (sf | string), "hot_keys_options: {'sample_fraction': 0.1}") -%}
    {%- endif -%}
    {%- if out.spread not in ('auto', 'always', 'never') -%}
        {%- do skewjoin._sj_raise('skew_join', 'skew_join.hot_keys_options.spread', "spread is auto, always or never; got " ~ (out.spread | string), "hot_keys_options: {'spread': 'always'}") -%}
    {%- endif -%}
    {%- for key in ['spread_partitions', 'spread_min_splits'] -%}
        {%- set v = out[key] -%}
        {%- if v is not none and (v is boolean or not modules.re.fullmatch('[0-9]+', v | string) or (v | int) < 1) -%}
            {%- do skewjoin._sj_raise('skew_join', 'skew_join.hot_keys_options.' ~ key, key ~ ' is a whole number >= 1; got ' ~ (v | string), "hot_keys_options: {'" ~ key ~ "': 16}") -%}
        {%- endif -%}
    {%- endfor -%}
    {{- return(out) -}}
{%- endmacro %}


{#- Normalize one side's declared values into tuples of SQL literals.
    Returns {'tuples': [[lit, ...], ...], 'shown': [...], 'null': bool}. -#}
{% macro _sj_hot_literals(j, side, values, detected=false) -%}
    {%- set n = j['keys'] | length -%}
    {%- set arg = 'skew_join.hot_keys' -%}
    {%- set tuples = [] -%}
    {%- set shown = [] -%}
    {%- set state = namespace(null=false) -%}
    {%- for v in values -%}
        {%- if n == 1 and (v is string or v is number or v is none or v is boolean or v is not iterable) -%}
            {%- set t = [v] -%}
        {%- elif v is iterable and v is not string and v is not mapping -%}
            {%- set t = v | list -%}
        {%- else -%}
            {%- set t = none -%}
        {%- endif -%}
        {%- if t is none or t | length != n -%}
            {%- do skewjoin._sj_raise('skew_join', arg, 'hot key ' ~ (v | string) ~ ' has the wrong arity: the join has ' ~ n ~ ' key column(s) (' ~ (j[side].key_names | join(', ')) ~ '), so each hot key is ' ~ ('a single value' if n == 1 else 'a list of ' ~ n ~ ' values'), skewjoin._sj_hot_example(j)) -%}
        {%- endif -%}
        {%- if none in t -%}
            {%- set state.null = true -%}
        {%- else -%}
            {%- set lits = [] -%}
            {%- set unusable = namespace(found=false) -%}
            {%- for value in t -%}
                {%- set lit = skewjoin._sj_literal(value, j['keys'][loop.index0].type) -%}
                {%- if lit is none and detected -%}
                    {#- a value found in the data with no literal form (a NaN double): it stays in the shuffle join -#}
                    {%- set unusable.found = true -%}
                {%- elif lit is none -%}
                    {%- do skewjoin._sj_raise('skew_join', arg, 'hot key value ' ~ (value | string) ~ ' is not a valid ' ~ j['keys'][loop.index0].type ~ ' (the type the keys are compared in)', skewjoin._sj_hot_example(j)) -%}
                {%- endif -%}
                {%- do lits.append(lit) -%}
            {%- endfor -%}
            {%- if not unusable.found and lits not in tuples -%}
                {%- do tuples.append(lits) -%}
                {%- do shown.append(t | join(', ') if n > 1 else t[0] | string) -%}
            {%- endif -%}
        {%- endif -%}
    {%- endfor -%}
    {{- return({'tuples': tuples, 'shown': shown, 'null': state.null}) -}}
{%- endmacro %}


{#- Find the heavy keys of one side at run time with one aggregate query.
    Returns {'values': [...tuples...], 'lines': [...], 'splits': n}. -#}
{% macro _sj_detect_hot_keys(j, side, options) -%}
    {%- set alias = j[side].alias -%}
    {%- set key_cols = [] -%}
    {%- set key_texts = [] -%}
    {%- for k in j['keys'] -%}
        {%- set col = alias ~ '.' ~ (k.left_ident if side == 'left' else k.right_ident) -%}
        {%- do key_cols.append(col) -%}
        {#- prefixed text, so that the result table keeps the exact value (dbt's result tables guess types from text) -#}
        {%- do key_texts.append("concat('v:', cast(" ~ col ~ ' as string)) as sj_key_' ~ loop.index0) -%}
    {%- endfor -%}
    {%- set sample = '' -%}
    {%- if options.sample_fraction is not none and (options.sample_fraction | float) < 1 -%}
        {%- set sample = ' tablesample (' ~ ((options.sample_fraction | float) * 100) ~ ' percent)' -%}
    {%- endif -%}
    {%- set query -%}
select
    {{ key_texts | join(',\n    ') }},
    grouping_id() as sj_grouping,
    count(*) as sj_rows,
    count(distinct sj_split) as sj_splits
from (
    select
        {{ key_cols | join(',\n        ') }},
        spark_partition_id() as sj_split
    from {{ j[side]['from'] }}{{ sample }} as {{ alias }}
) as {{ alias }}
group by grouping sets (({{ key_cols | join(', ') }}), ())
order by sj_rows desc
limit {{ (options.max_keys | int) + 1 }}
    {%- endset -%}
    {%- set started = modules.datetime.datetime.now() -%}
    {%- set result = run_query(query) -%}
    {%- set seconds = (modules.datetime.datetime.now() - started).total_seconds() -%}
    {%- set n = j['keys'] | length -%}
    {%- set state = namespace(total=0, splits=0) -%}
    {%- for row in result.rows if row[n] != 0 -%}
        {%- set state.total = row[n + 1] -%}
        {%- set state.splits = row[n + 2] -%}
    {%- endfor -%}
    {%- set values = [] -%}
    {%- set found = [] -%}
    {%- for row in result.rows if row[n] == 0 and state.total > 0 -%}
        {%- set share = row[n + 1] / state.total -%}
        {%- if share >= (options.min_share | float) and values | length < (options.max_keys | int) -%}
            {%- set t = [] -%}
            {%- for i in range(n) -%}{%- do t.append(none if row[i] is none else (row[i] | string)[2:]) -%}{%- endfor -%}
            {%- do values.append(t) -%}
            {%- do found.append((t | join(', ') if n > 1 else ('NULL' if t[0] is none else t[0] | string)) ~ ' ' ~ ('%.1f' | format(share * 100)) ~ '%') -%}
        {%- endif -%}
    {%- endfor -%}
    {%- set how = ('a ' ~ ((options.sample_fraction | float) * 100) ~ '% sample' if sample else 'every row, exact counts') -%}
    {%- set lines = ['hot keys of ' ~ alias ~ " found at run time (one aggregate query over " ~ how ~ ', ' ~ ('%.1f' | format(seconds)) ~ ' s, ' ~ state.total ~ ' rows in ' ~ state.splits ~ ' input splits; min_share ' ~ options.min_share ~ ', max_keys ' ~ options.max_keys ~ '): ' ~ (found | join('; ') if found else 'none above the threshold')] -%}
    {{- return({'values': values, 'lines': lines, 'splits': state.splits}) -}}
{%- endmacro %}


{#- The null-safe predicate "the keys of `side` (alias) are one of tuples". -#}
{% macro _sj_in_tuples(j, side, alias, tuples) -%}
    {%- set exprs = skewjoin._sj_common_keys(j, side, alias) -%}
    {%- if exprs | length == 1 -%}
        {%- set items = [] -%}
        {%- for t in tuples -%}{%- do items.append(t[0]) -%}{%- endfor -%}
        {{- return('coalesce(' ~ exprs[0] ~ ' in (' ~ (items | join(', ')) ~ '), false)') -}}
    {%- endif -%}
    {%- set ors = [] -%}
    {%- for t in tuples -%}
        {%- set ands = [] -%}
        {%- for e in exprs -%}{%- do ands.append(e ~ ' = ' ~ t[loop.index0]) -%}{%- endfor -%}
        {%- do ors.append('(' ~ (ands | join(' and ')) ~ ')') -%}
    {%- endfor -%}
    {{- return('coalesce(' ~ (ors | join(' or ')) ~ ', false)') -}}
{%- endmacro %}


{% macro _sj_any_key_null(j, side, alias) -%}
    {%- set parts = [] -%}
    {%- for k in j['keys'] -%}
        {%- do parts.append(alias ~ '.' ~ (k.left_ident if side == 'left' else k.right_ident) ~ ' is null') -%}
    {%- endfor -%}
    {{- return('(' ~ (parts | join(' or ')) ~ ')') -}}
{%- endmacro %}


{#- The hot-keys plan: which values are hot on which side, and why. -#}
{% macro _sj_plan_hot_keys(j, hot_keys, options, spec) -%}
    {%- set result = {'active': false, 'requested': false, 'lines': [], 'left': none, 'right': none,
                      'null_left': false, 'null_right': false, 'spec': spec} -%}
    {%- if hot_keys is none or (hot_keys is not string and hot_keys | length == 0) -%}
        {{- return(result) -}}
    {%- endif -%}
    {%- do result.update({'requested': true}) -%}
    {%- set opts = skewjoin._sj_hot_options(j, options) -%}
    {%- do result.update({'options': opts}) -%}
    {%- set per_side = {} -%}
    {%- if hot_keys is string or (hot_keys is iterable and hot_keys is not mapping) -%}
        {%- do per_side.update({'left': hot_keys}) -%}
    {%- else -%}
        {%- for key in hot_keys -%}
            {%- if key | lower == j.left.alias | lower -%}
                {%- do per_side.update({'left': hot_keys[key]}) -%}
            {%- elif key | lower == j.right.alias | lower -%}
                {%- do per_side.update({'right': hot_keys[key]}) -%}
            {%- else -%}
                {%- do skewjoin._sj_raise('skew_join', 'skew_join.hot_keys', "'" ~ key ~ "' is not a side; name the side by its alias (" ~ j.left.alias ~ ' or ' ~ j.right.alias ~ ')', skewjoin._sj_hot_example(j)) -%}
            {%- endif -%}
        {%- endfor -%}
    {%- endif -%}
    {%- set taken = [] -%}
    {%- for side in ['left', 'right'] if side in per_side -%}
        {%- set declared = per_side[side] -%}
        {%- set alias = j[side].alias -%}
        {%- if declared is string and declared | lower == 'auto' -%}
            {%- set detected = skewjoin._sj_detect_hot_keys(j, side, opts) -%}
            {%- do result.lines.extend(detected.lines) -%}
            {%- set lits = skewjoin._sj_hot_literals(j, side, detected['values'], true) -%}
            {%- do result.update({'splits_' ~ side: detected.splits}) -%}
        {%- elif declared is string or declared is mapping or declared is not iterable -%}
            {%- do skewjoin._sj_raise('skew_join', 'skew_join.hot_keys', 'the hot keys of ' ~ alias ~ " are a list of values or 'auto'; got " ~ (declared | string), skewjoin._sj_hot_example(j)) -%}
        {%- else -%}
            {%- set lits = skewjoin._sj_hot_literals(j, side, declared) -%}
            {%- do result.lines.append('hot keys of ' ~ alias ~ ' (declared): ' ~ (lits.shown | join('; ') if lits.shown else 'none') ~ (' + NULL keys' if lits.null else '')) -%}
        {%- endif -%}
        {%- set own = [] -%}
        {%- set own_shown = [] -%}
        {%- for t in lits.tuples -%}
            {%- if t in taken -%}
                {%- do result.lines.append('key ' ~ lits.shown[loop.index0] ~ ' is hot on both sides: it goes through the branch that streams ' ~ j.left.alias ~ ' and broadcasts ' ~ j.right.alias ~ "'s rows of that key") -%}
            {%- else -%}
                {%- do own.append(t) -%}
                {%- do own_shown.append(lits.shown[loop.index0]) -%}
                {%- do taken.append(t) -%}
            {%- endif -%}
        {%- endfor -%}
        {%- if own -%}
            {%- do result.update({side: {'tuples': own, 'shown': own_shown}}) -%}
        {%- endif -%}
        {%- if lits.null -%}
            {%- do result.update({'null_' ~ side: true}) -%}
        {%- endif -%}
    {%- endfor -%}
    {%- if result.left is none and result.right is none and not result.null_left and not result.null_right -%}
        {%- do result.lines.append('hot keys: none to handle, so no hot-key branch') -%}
        {{- return(result) -}}
    {%- endif -%}
    {%- do result.update({'active': true}) -%}
    {{- return(result) -}}
{%- endmacro %}


{#- Should the hot rows of `side` be spread before the broadcast join?
    The hot branch runs in as many tasks as the side has input splits. A
    spread helps only when those splits leave cores idle: it is made when the
    splits are fewer than spread_min_splits AND at most half the leaf
    parallelism Spark has (the default parallelism of range(), i.e. the
    executors' cores; so a 2-core local Spark reading 2 splits never spreads).
    The spread is one shuffle of the hot rows, hash-partitioned by
    xxhash64 of the whole row (deterministic, no sort), over
    spread_partitions or min(total slots, parallelism) partitions. -#}
{% macro _sj_hot_spread(j, hot, side, hot_cte) -%}
    {%- set opts = hot.options -%}
    {%- set alias = j[side].alias -%}
    {%- if opts.spread == 'never' -%}
        {{- return({'spread': false, 'tasks': hot.get('splits_' ~ side), 'line': 'hot rows of ' ~ alias ~ ' not spread (spread: never)'}) -}}
    {%- endif -%}
    {%- set total = skewjoin._sj_total_slots(hot.spec)[0] | int -%}
    {%- set cost = 'cost: one shuffle of the hot rows (written and read once), no sort' -%}
    {%- if opts.spread == 'always' -%}
        {%- set partitions = (opts.spread_partitions or total) | int -%}
        {{- return({'spread': true, 'partitions': partitions, 'tasks': partitions, 'line': 'hot rows of ' ~ alias ~ ' spread by xxhash64 of the whole row over ' ~ partitions ~ ' partitions before the broadcast join (spread: always; ' ~ cost ~ ')'}) -}}
    {%- endif -%}
    {%- set splits = hot.get('splits_' ~ side) -%}
    {%- if splits is none -%}
        {%- set probe = run_query('select count(distinct sj_split) as sj_splits from (select spark_partition_id() as sj_split from ' ~ j[side]['from'] ~ ' as sj_probe) as sj_probe') -%}
        {%- set splits = probe.rows[0][0] -%}
    {%- endif -%}
    {%- if splits >= (opts.spread_min_splits | int) -%}
        {{- return({'spread': false, 'tasks': splits, 'line': 'hot rows of ' ~ alias ~ ' joined where they are read: its input has ' ~ splits ~ ' splits (>= spread_min_splits ' ~ opts.spread_min_splits ~ ')'}) -}}
    {%- endif -%}
    {#- the leaf parallelism: how many tasks Spark gives a scan-free range() (its default parallelism) -#}
    {%- set par = run_query('select max(sj_split) + 1 as sj_parallelism from (select spark_partition_id() as sj_split from range(0, 100000)) as sj_range') -%}
    {%- set parallelism = par.rows[0][0] | int -%}
    {%- if splits * 2 > parallelism -%}
        {{- return({'spread': false, 'tasks': splits, 'line': 'hot rows of ' ~ alias ~ ' joined where they are read: its ' ~ splits ~ ' input splits already use half or more of the ' ~ parallelism ~ ' tasks Spark runs at once (default parallelism), so a spread would cost a shuffle of the hot rows and gain no parallelism'}) -}}
    {%- endif -%}
    {%- set partitions = (opts.spread_partitions or ([total, parallelism] | min)) | int -%}
    {{- return({'spread': true, 'partitions': partitions, 'tasks': partitions, 'line': 'hot rows of ' ~ alias ~ ' spread by xxhash64 of the whole row over ' ~ partitions ~ ' partitions: its input has only ' ~ splits ~ ' splits (< spread_min_splits ' ~ opts.spread_min_splits ~ ') for a default parallelism of ' ~ parallelism ~ ', which would make the broadcast branch a straggler (' ~ cost ~ ')'}) -}}
{%- endmacro %}


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


{#- CTEs and result branches for the hot keys; returns
    {'ctes': [...], 'selects': [...], 'rest_inputs': {'left': cte, 'right': cte}}. -#}
{% macro _sj_hot_key_ctes(j, hot, inputs) -%}
    {%- set ctes = [] -%}
    {%- set selects = [] -%}
    {%- set jt = j.join_type -%}
    {%- set preserved = {'inner': [], 'left': ['left'], 'left semi': [], 'left anti': ['left'],
                         'right': ['right'], 'full': ['left', 'right']}[jt] -%}
    {%- set rest_inputs = {} -%}
    {#- each side's rows split into: null bypass, hot of left, hot of right, rest -#}
    {%- for side in ['left', 'right'] -%}
        {%- set alias = j[side].alias -%}
        {%- set conds = [] -%}
        {%- if hot['null_' ~ side] -%}
            {%- set null_pred = skewjoin._sj_any_key_null(j, side, alias) -%}
            {%- do conds.append(null_pred) -%}
            {%- if side in preserved -%}
                {%- do ctes.append([alias ~ '_null_keys', 'select * from ' ~ inputs[side] ~ ' as ' ~ alias ~ '\nwhere ' ~ null_pred]) -%}
                {%- do ctes.append([alias ~ '_null_keys_kept', skewjoin._sj_unmatched_select(j, side, alias ~ '_null_keys', inputs['right' if side == 'left' else 'left'])]) -%}
                {%- do selects.append('select * from ' ~ alias ~ '_null_keys_kept') -%}
                {%- do hot.lines.append('rows of ' ~ alias ~ ' with a NULL key bypass the join (they can never match): kept once, the other side NULL') -%}
            {%- else -%}
                {%- do hot.lines.append('rows of ' ~ alias ~ ' with a NULL key are dropped before the join (they can never match and ' ~ alias ~ ' is not preserved)') -%}
            {%- endif -%}
        {%- endif -%}
        {%- for hot_side in ['left', 'right'] if hot[hot_side] is not none -%}
            {%- set pred = skewjoin._sj_in_tuples(j, side, alias, hot[hot_side].tuples) -%}
            {%- do conds.append(pred) -%}
            {%- set name = alias ~ '_hot_' ~ j[hot_side].alias -%}
            {%- do ctes.append([name ~ ('_read' if hot_side == side else ''), 'select * from ' ~ inputs[side] ~ ' as ' ~ alias ~ '\nwhere ' ~ pred]) -%}
            {%- if hot_side == side -%}
                {%- set spread = skewjoin._sj_hot_spread(j, hot, side, name ~ '_read') -%}
                {%- do hot.lines.append(spread.line) -%}
                {%- do hot.update({'tasks_' ~ side: spread.tasks}) -%}
                {%- if spread.spread -%}
                    {#- hash partitioning on a hash of the whole row: deterministic on retry, and unlike a
                        round-robin repartition Spark needs no sort for it; an explicit partition count, so
                        AQE does not coalesce it -#}
                    {%- set cols = [] -%}
                    {%- for c in j[side].columns -%}{%- do cols.append(skewjoin._sj_ident(c.name)) -%}{%- endfor -%}
                    {%- do ctes.append([name ~ '_hashed', 'select *, xxhash64(' ~ (cols | join(', ')) ~ ') as sj_spread from ' ~ name ~ '_read']) -%}
                    {%- do ctes.append([name ~ '_spread', 'select /*+ repartition(' ~ spread.partitions ~ ', sj_spread) */ * from ' ~ name ~ '_hashed']) -%}
                    {%- do ctes.append([name, 'select ' ~ (cols | join(', ')) ~ ' from ' ~ name ~ '_spread']) -%}
                {%- else -%}
                    {%- do ctes.append([name, 'select * from ' ~ name ~ '_read']) -%}
                {%- endif -%}
            {%- endif -%}
        {%- endfor -%}
        {%- if conds -%}
            {%- do ctes.append([alias ~ '_rest', 'select * from ' ~ inputs[side] ~ ' as ' ~ alias ~ '\nwhere not (\n    ' ~ (conds | join('\n    or ')) ~ '\n)']) -%}
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
            {%- set key_list = [] -%}
            {%- for k in j['keys'] -%}{%- do key_list.append(sa ~ '.' ~ k.right_ident) -%}{%- endfor -%}
            {%- do ctes.append([s_cte ~ '_keys', 'select distinct ' ~ (key_list | join(', ')) ~ '\nfrom ' ~ s_cte ~ '_read as ' ~ sa]) -%}
            {%- set branch_sql -%}
select /*+ broadcast({{ sa }}) */
    {{ j.select_list | join(',\n    ') }}
from {{ o_cte }} as {{ oa }}
{{ skewjoin._sj_sql_join_keyword(jt) }} {{ s_cte }}_keys as {{ sa }}
    on {{ on_cond }}
            {%- endset -%}
            {%- do how.append(oa ~ "'s rows of these keys " ~ jt ~ ' join the broadcast distinct keys of ' ~ sa ~ "'s hot rows") -%}
            {%- do ctes.append([branch, branch_sql]) -%}
            {%- do selects.append('select * from ' ~ branch) -%}
        {%- else -%}
            {%- if jt in ('left semi', 'left anti') -%}
                {%- set keyword = skewjoin._sj_sql_join_keyword(jt) -%}
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
            {%- set tasks = hot.get('tasks_' ~ s) -%}
            {%- do how.append('multicast: those rows of ' ~ oa ~ ' are broadcast, one copy to each ' ~ (('of the ' ~ tasks ~ ' tasks') if tasks is not none else 'task') ~ ' of the branch (' ~ oa ~ "'s rows of the hot keys x " ~ (tasks if tasks is not none else 'the input splits of ' ~ sa) ~ '; no run-time count is made)') -%}
            {%- if o in preserved -%}
                {#- o's rows of these keys that no hot row of s matches -#}
                {%- set key_list = [] -%}
                {%- for k in j['keys'] -%}{%- do key_list.append(sa ~ '.' ~ (k.left_ident if s == 'left' else k.right_ident)) -%}{%- endfor -%}
                {%- do ctes.append([s_cte ~ '_keys', 'select distinct ' ~ (key_list | join(', ')) ~ '\nfrom ' ~ s_cte ~ '_read as ' ~ sa]) -%}
                {%- set unmatched_sql -%}
select /*+ broadcast({{ sa }}) */ {{ oa }}.*
from {{ o_cte }} as {{ oa }}
left anti join {{ s_cte }}_keys as {{ sa }}
    on {{ on_cond }}
                {%- endset -%}
                {%- do ctes.append([o_cte ~ '_unmatched', unmatched_sql]) -%}
                {%- do ctes.append([o_cte ~ '_unmatched_kept', skewjoin._sj_unmatched_select(j, o, o_cte ~ '_unmatched', inputs[s])]) -%}
                {%- do selects.append('select * from ' ~ o_cte ~ '_unmatched_kept') -%}
                {%- do how.append(oa ~ ' is preserved: its rows of these keys with no match are found by an anti join against the broadcast distinct keys of ' ~ sa ~ "'s hot rows") -%}
            {%- endif -%}
        {%- endif -%}
        {%- do hot.lines.append('hot branch for keys of ' ~ sa ~ ' (' ~ (hot[s].shown | join('; ')) ~ '): ' ~ (how | join('; ')) ~ '; rows never hash-shuffled by these keys') -%}
    {%- endfor -%}
    {{- return({'ctes': ctes, 'selects': selects, 'rest_inputs': rest_inputs}) -}}
{%- endmacro %}
