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

{% macro _sj_hot_example(spec) -%}
    {{- return("'auto'  or  {'" ~ spec.left.alias ~ "': [0, 1], '" ~ spec.right.alias ~ "': 'auto'}"
               ~ "  (tuples for multi-column keys: [[0, 'EU']])") -}}
{%- endmacro %}


{#- Hot-key options with their defaults, checked. -#}
{% macro _sj_hot_options(options, macro_name='skew_join') -%}
    {%- set defaults = {'min_share': 0.01, 'max_keys': 20, 'sample_fraction': none, 'spread': 'auto',
                        'spread_partitions': none, 'spread_min_splits': 8} -%}
    {%- set arg = 'skew_join.hot_keys_options' -%}
    {%- if options is none -%}
        {%- set options = {} -%}
    {%- endif -%}
    {%- if options is not mapping -%}
        {%- do skewjoin._sj_raise(macro_name, arg, 'expected a mapping; got ' ~ options,
            "{'min_share': 0.05, 'max_keys': 10}") -%}
    {%- endif -%}
    {%- do skewjoin._sj_check_keys(macro_name, arg, options, defaults.keys() | list, 'hot_keys_options',
        "{'min_share': 0.05}") -%}
    {%- set out = {} -%}
    {%- do out.update(defaults) -%}
    {%- do out.update(options) -%}
    {%- do skewjoin._sj_number_between(macro_name, arg ~ '.min_share', out.min_share, 0, 1, false, '0.01',
        'min_share is a fraction above 0 and below 1') -%}
    {%- do skewjoin._sj_whole_number(macro_name, arg ~ '.max_keys', out.max_keys, 1, '20',
        'max_keys, a whole number') -%}
    {%- if out.sample_fraction is not none -%}
        {%- do skewjoin._sj_number_between(macro_name, arg ~ '.sample_fraction', out.sample_fraction, 0, 1, true,
            '0.1', 'sample_fraction is a fraction above 0 and at most 1') -%}
    {%- endif -%}
    {%- do out.update({'spread': skewjoin._sj_choice(macro_name, arg ~ '.spread', out.spread,
        ['auto', 'always', 'never'], 'spread')}) -%}
    {%- for key in ['spread_partitions', 'spread_min_splits'] if out[key] is not none -%}
        {%- do skewjoin._sj_whole_number(macro_name, arg ~ '.' ~ key, out[key], 1, '16', key ~ ', a whole number') -%}
    {%- endfor -%}
    {{- return(out) -}}
{%- endmacro %}


{#- The hot keys as declared, checked without a query: per side ('left',
    'right'), a list of values or 'auto'; each value of the arity of the
    join's key. Returns {'requested', 'sides': {side: 'auto' or [values]},
    'options'}. -#}
{% macro _sj_hot_spec(spec, hot_keys, options) -%}
    {%- set n = spec.pairs | length -%}
    {%- set arg = 'skew_join.hot_keys' -%}
    {%- set example = skewjoin._sj_hot_example(spec) -%}
    {%- if hot_keys is none or (hot_keys is not string and hot_keys is iterable and hot_keys | length == 0) -%}
        {%- if options is not none -%}
            {%- do skewjoin._sj_hot_options(options, spec.macro) -%}
        {%- endif -%}
        {{- return({'requested': false, 'sides': {}, 'options': none}) -}}
    {%- endif -%}
    {%- set per_side = {} -%}
    {%- if hot_keys is mapping -%}
        {%- for key in hot_keys -%}
            {%- if key | lower == spec.left.alias | lower -%}
                {%- do per_side.update({'left': hot_keys[key]}) -%}
            {%- elif key | lower == spec.right.alias | lower -%}
                {%- do per_side.update({'right': hot_keys[key]}) -%}
            {%- else -%}
                {%- set problem -%}
'{{ key }}' is not a side{{ skewjoin._sj_did_you_mean(key, [spec.left.alias, spec.right.alias]) }}; name the side by
its alias ({{ spec.left.alias }} or {{ spec.right.alias }})
                {%- endset -%}
                {%- do skewjoin._sj_raise(spec.macro, arg, problem, example) -%}
            {%- endif -%}
        {%- endfor -%}
    {%- else -%}
        {%- do per_side.update({'left': hot_keys}) -%}
    {%- endif -%}
    {%- for side in per_side -%}
        {%- set declared = per_side[side] -%}
        {%- if declared is string and declared | lower | trim == 'auto' -%}
            {%- do per_side.update({side: 'auto'}) -%}
        {%- elif declared is string or declared is mapping or declared is not iterable -%}
            {%- set problem -%}
the hot keys of {{ spec[side].alias }} are a list of values or 'auto'; got {{ declared }}{{
    skewjoin._sj_did_you_mean(declared, ['auto']) }}
            {%- endset -%}
            {%- do skewjoin._sj_raise(spec.macro, arg, problem, example) -%}
        {%- else -%}
            {%- for v in declared -%}
                {%- set arity = 1 if (v is string or v is number or v is none or v is boolean or v is not iterable)
                    else (-1 if v is mapping else v | length) -%}
                {%- if arity != n or (n > 1 and (v is string or v is not iterable)) -%}
                    {%- set problem -%}
hot key {{ v }} has the wrong arity: the join has {{ n }} key column(s)
({{ spec.pairs | map('first') | join(', ') }}), so each hot key is
{{ 'a single value' if n == 1 else 'a list of ' ~ n ~ ' values' }}
                    {%- endset -%}
                    {%- do skewjoin._sj_raise(spec.macro, arg, problem, example) -%}
                {%- endif -%}
            {%- endfor -%}
        {%- endif -%}
    {%- endfor -%}
    {{- return({'requested': true, 'sides': per_side, 'options': skewjoin._sj_hot_options(options, spec.macro)}) -}}
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
        {%- if none in t -%}
            {%- set state.null = true -%}
        {%- else -%}
            {%- set lits = [] -%}
            {%- set unusable = namespace(found=false) -%}
            {%- for value in t -%}
                {%- set lit = skewjoin._sj_literal(value, j['keys'][loop.index0].type) -%}
                {%- if (lit is none or skewjoin._sj_special_float(value, j['keys'][loop.index0].type) is not none) and detected -%}
                    {#- a value found in the data with no literal form, or a NaN or infinity 'auto' found: it
                        stays in the shuffle join (which matches NaN to NaN); a declared NaN is a hot key -#}
                    {%- set unusable.found = true -%}
                {%- elif lit is none -%}
                    {%- set problem -%}
hot key value {{ value }} is not a valid {{ j['keys'][loop.index0].type }} (the type the keys are compared in)
                    {%- endset -%}
                    {%- do skewjoin._sj_raise(j.macro, arg, problem, skewjoin._sj_hot_example(j)) -%}
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
        {#- prefixed text, so that the result table keeps the exact value (dbt's result tables guess types
            from text) -#}
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
            {%- for i in range(n) -%}
                {%- do t.append(none if row[i] is none else (row[i] | string)[2:]) -%}
            {%- endfor -%}
            {%- do values.append(t) -%}
            {%- set shown = t | join(', ') if n > 1 else ('NULL' if t[0] is none else t[0] | string) -%}
            {%- do found.append(shown ~ ' ' ~ ('%.1f' | format(share * 100)) ~ '%') -%}
        {%- endif -%}
    {%- endfor -%}
    {%- set how = ('a ' ~ ((options.sample_fraction | float) * 100) ~ '% sample') if sample
        else 'every row, exact counts' -%}
    {%- set line -%}
hot keys of {{ alias }} found at run time (one aggregate query over {{ how }}, {{ '%.1f' | format(seconds) }} s,
{{ state.total }} rows in {{ state.splits }} input splits; min_share {{ options.min_share }}, max_keys
{{ options.max_keys }}): {{ found | join('; ') if found else 'none above the threshold' }}
    {%- endset -%}
    {{- return({'values': values, 'lines': [line | replace('\n', ' ')], 'splits': state.splits}) -}}
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


{#- The hot-keys plan: which values are hot on which side, and why. With
    'auto', one aggregate query per side finds them (or, when run-time queries
    are off, none are found and the record says so). -#}
{% macro _sj_plan_hot_keys(j, hot_spec, skew, guard) -%}
    {%- set result = {'active': false, 'requested': hot_spec.requested, 'lines': [], 'left': none, 'right': none,
                      'null_left': false, 'null_right': false, 'skew': skew, 'options': hot_spec.options,
                      'parallelism': guard.parallelism} -%}
    {%- if not hot_spec.requested -%}
        {{- return(result) -}}
    {%- endif -%}
    {%- set taken = [] -%}
    {%- for side in ['left', 'right'] if side in hot_spec.sides -%}
        {%- set declared = hot_spec.sides[side] -%}
        {%- set alias = j[side].alias -%}
        {%- if declared == 'auto' and guard.declined -%}
            {%- do result.lines.append('hot keys of ' ~ alias ~ " not measured: 'auto' is not run where the skew"
                ~ ' plans are declined') -%}
            {%- set lits = {'tuples': [], 'shown': [], 'null': false} -%}
        {%- elif declared == 'auto' and not skewjoin._sj_queries_allowed() -%}
            {%- do result.lines.append('hot keys of ' ~ alias ~ " not measured: 'auto' needs a query and run-time"
                ~ " queries are off " ~ skewjoin._sj_queries_off_reason()) -%}
            {%- set lits = {'tuples': [], 'shown': [], 'null': false} -%}
        {%- elif declared == 'auto' -%}
            {%- set detected = skewjoin._sj_detect_hot_keys(j, side, hot_spec.options) -%}
            {%- do result.lines.extend(detected.lines) -%}
            {%- set lits = skewjoin._sj_hot_literals(j, side, detected['values'], true) -%}
            {%- do result.update({'splits_' ~ side: detected.splits}) -%}
        {%- else -%}
            {%- set lits = skewjoin._sj_hot_literals(j, side, declared) -%}
            {%- set origin = hot_spec.get('origin') or 'declared' -%}
            {%- if lits.tuples and skew.get('verify') is not none and not guard.declined -%}
                {%- set verified = skewjoin._sj_verify_hot_keys(j, side, lits, skew) -%}
                {%- do result.lines.extend(verified.lines) -%}
                {%- if verified.splits is not none -%}
                    {%- do result.update({'splits_' ~ side: verified.splits}) -%}
                {%- endif -%}
                {%- do result.update({'dropped': (result.get('dropped') or 0) + verified.dropped}) -%}
                {%- set lits = verified.lits -%}
            {%- endif -%}
            {%- do result.lines.append('hot keys of ' ~ alias ~ ' (' ~ origin ~ '): '
                ~ (lits.shown | join('; ') if lits.shown else 'none') ~ (' + NULL keys' if lits.null else '')) -%}
        {%- endif -%}
        {%- set own = [] -%}
        {%- set own_shown = [] -%}
        {%- for t in lits.tuples -%}
            {%- if t in taken -%}
                {%- do result.lines.append('key ' ~ lits.shown[loop.index0] ~ ' is hot on both sides: it goes through'
                    ~ ' the branch that streams ' ~ j.left.alias ~ ' and broadcasts ' ~ j.right.alias
                    ~ "'s rows of that key") -%}
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
    {%- do result.update({'active': true, 'taken': taken}) -%}
    {{- return(result) -}}
{%- endmacro %}


{#- Should the hot rows of `side` be spread before the broadcast join?
    The hot branch runs in as many tasks as the side has input splits. A
    spread helps only when those splits leave cores idle: it is made when the
    splits are fewer than spread_min_splits AND at most half the parallelism
    Spark has (the default parallelism of range(), i.e. the executors' cores;
    so a 2-core local Spark reading 2 splits never spreads). The spread is
    one shuffle of the hot rows, hash-partitioned by xxhash64 of the whole
    row (deterministic on retry, no sort, which a round-robin repartition
    needs), over spread_partitions or min(total slots, parallelism)
    partitions. Returns {'spread', 'partitions', 'tasks', 'line'}: `tasks`
    is how many tasks the hot branch runs in (each gets a copy of the
    broadcast rows). -#}
{% macro _sj_hot_spread(j, hot, side) -%}
    {%- set opts = hot.options -%}
    {%- set alias = j[side].alias -%}
    {%- set cost = 'cost: one shuffle of the hot rows (written and read once), no sort' -%}
    {%- if opts.spread == 'never' -%}
        {{- return({'spread': false, 'tasks': hot.get('splits_' ~ side),
                    'line': 'hot rows of ' ~ alias ~ ' not spread (spread: never)'}) -}}
    {%- endif -%}
    {%- set total = skewjoin._sj_total_slots(hot.skew)[0] | int -%}
    {%- if opts.spread == 'always' -%}
        {%- set partitions = (opts.spread_partitions or total) | int -%}
        {%- set line -%}
hot rows of {{ alias }} spread by xxhash64 of the whole row over {{ partitions }} partitions before the broadcast
join (spread: always; {{ cost }})
        {%- endset -%}
        {{- return({'spread': true, 'partitions': partitions, 'tasks': partitions,
                    'line': line | replace('\n', ' ')}) -}}
    {%- endif -%}
    {%- set splits = hot.get('splits_' ~ side) -%}
    {%- if splits is none and not skewjoin._sj_queries_allowed() -%}
        {{- return({'spread': false, 'tasks': none, 'line': 'hot rows of ' ~ alias ~ ' not spread: counting its input'
                    ~ ' splits needs a query and run-time queries are off ' ~ skewjoin._sj_queries_off_reason()}) -}}
    {%- endif -%}
    {%- if splits is none -%}
        {%- set probe -%}
select count(distinct sj_split) as sj_splits
from (select spark_partition_id() as sj_split from {{ j[side]['from'] }} as sj_probe) as sj_probe
        {%- endset -%}
        {%- set splits = run_query(probe).rows[0][0] | int -%}
    {%- endif -%}
    {%- if splits >= (opts.spread_min_splits | int) -%}
        {{- return({'spread': false, 'tasks': splits, 'line': 'hot rows of ' ~ alias ~ ' joined where they are read:'
                    ~ ' its input has ' ~ splits ~ ' splits (>= spread_min_splits ' ~ opts.spread_min_splits ~ ')'}) -}}
    {%- endif -%}
    {#- the parallelism (read once per model: the guard may have read it already) -#}
    {%- if hot.parallelism is none -%}
        {%- do hot.update({'parallelism': skewjoin._sj_default_parallelism()}) -%}
    {%- endif -%}
    {%- set parallelism = hot.parallelism -%}
    {%- if splits * 2 > parallelism -%}
        {%- set line -%}
hot rows of {{ alias }} joined where they are read: its {{ splits }} input splits already use half or more of the
{{ parallelism }} tasks Spark runs at once (default parallelism), so a spread would cost a shuffle of the hot rows
and gain no parallelism
        {%- endset -%}
        {{- return({'spread': false, 'tasks': splits, 'line': line | replace('\n', ' ')}) -}}
    {%- endif -%}
    {%- set partitions = (opts.spread_partitions or ([total, parallelism] | min)) | int -%}
    {%- set line -%}
hot rows of {{ alias }} spread by xxhash64 of the whole row over {{ partitions }} partitions: its input has only
{{ splits }} splits (< spread_min_splits {{ opts.spread_min_splits }}) for a default parallelism of {{ parallelism }},
which would make the broadcast branch a straggler ({{ cost }})
    {%- endset -%}
    {{- return({'spread': true, 'partitions': partitions, 'tasks': partitions, 'line': line | replace('\n', ' ')}) -}}
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
    {%- set spread = skewjoin._sj_hot_spread(j, hot, side) -%}
    {%- set ctes = [[name ~ '_read', read_sql]] -%}
    {%- if spread.spread -%}
        {#- hash partitioning on a hash of the whole row: deterministic on retry, and unlike a round-robin
            repartition Spark needs no sort for it; an explicit partition count, so AQE does not coalesce it -#}
        {%- set cols = [] -%}
        {%- for c in j[side].columns -%}{%- do cols.append(skewjoin._sj_ident(c.name)) -%}{%- endfor -%}
        {%- set row_hash = skewjoin._sj_row_hash(j[side].columns, name ~ '_read') -%}
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
            {%- set null_pred = skewjoin._sj_any_key_null(j, side, alias) -%}
            {%- do conds.append(null_pred) -%}
            {%- if side in preserved -%}
                {%- do ctes.append([alias ~ '_null_keys', 'select * from ' ~ inputs[side] ~ ' as ' ~ alias
                    ~ '\nwhere ' ~ null_pred]) -%}
                {%- do ctes.append([alias ~ '_null_keys_kept',
                    skewjoin._sj_unmatched_select(j, side, alias ~ '_null_keys', other_input)]) -%}
                {%- do selects.append('select * from ' ~ alias ~ '_null_keys_kept') -%}
                {%- do lines.append('rows of ' ~ alias ~ ' with a NULL key bypass the join (they can never match):'
                    ~ ' kept once, the other side NULL') -%}
            {%- else -%}
                {%- do lines.append('rows of ' ~ alias ~ ' with a NULL key are dropped before the join (they can'
                    ~ ' never match and ' ~ alias ~ ' is not preserved)') -%}
            {%- endif -%}
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
            {%- do ctes.append([alias ~ '_rest', 'select * from ' ~ inputs[side] ~ ' as ' ~ alias
                ~ '\nwhere not (\n    ' ~ (conds | join('\n    or ')) ~ '\n)']) -%}
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
