{#- The pruning plan (pure: no query, no record text), from a resolved
    request (`_sj_prune_resolve`) and its measures (`_sj_prune_measure`):
    each group's predicate, their intersection, and the partitions the
    predicate keeps. The plan is data, so that star_join can apply it as
    well and `_sj_prune_record` can say what it chose and why:
      {'spec': the resolved request,
       'allowed': compile-time queries on (off: the predicate is `true`),
       'cache': none or {'table', 'run', 'present': [ids], 'key_sets': [...]},
       'groups': [group plans, see `_sj_prune_group_plan`],
       'empty': a group's key set is empty (the predicate is `false`),
       'predicate': SQL on the big table,
       'partitions': none (not a partitioned table) or {'total', 'kept', 'seconds',
                     'case', 'count', 'deferred', 'constrained'} (`_sj_prune_partition_scope`),
       'seconds': the key and partition queries' time} -#}


{#- Literals of the column `i` of every tuple, in the key's target type. -#}
{% macro _sj_prune_literals(spec, k, tuples, i) -%}
    {%- set lits = [] -%}
    {%- for t in tuples -%}
        {%- do lits.append(skewjoin._sj_prune_literal(spec.macro, t[i], k.target)) -%}
    {%- endfor -%}
    {{- return(lits) -}}
{%- endmacro %}


{#- Conjuncts for a key set within max_values: one IN list per column and,
    for a multi-column key, the exact tuple check. -#}
{% macro _sj_prune_in_lists(spec, keys, collected) -%}
    {%- set conjuncts = [] -%}
    {%- set n_values = [] -%}
    {%- for k in keys -%}
        {%- set lits = skewjoin._sj_prune_literals(spec, k, collected.tuples, loop.index0)
            | unique(case_sensitive=true) | list -%}
        {%- do conjuncts.append({'sql': k.big_expr ~ ' in (' ~ (lits | join(', ')) ~ ')',
                                 'columns': [k.big | lower]}) -%}
        {%- do n_values.append(lits | length) -%}
    {%- endfor -%}
    {%- if keys | length > 1 -%}
        {%- set tuples = [] -%}
        {%- for t in collected.tuples -%}
            {%- set lits = [] -%}
            {%- for k in keys -%}
                {%- do lits.append(skewjoin._sj_prune_literal(spec.macro, t[loop.index0], k.target)) -%}
            {%- endfor -%}
            {%- do tuples.append('(' ~ (lits | join(', ')) ~ ')') -%}
        {%- endfor -%}
        {%- set shown = keys | map(attribute='big_expr') | join(', ') -%}
        {%- do conjuncts.append({'sql': '(' ~ shown ~ ') in (' ~ (tuples | join(', ')) ~ ')',
                                 'columns': keys | map(attribute='big') | map('lower') | list}) -%}
    {%- endif -%}
    {{- return({'choice': 'in_list', 'conjuncts': conjuncts, 'n_values': n_values}) -}}
{%- endmacro %}


{#- `(big columns) in (select ... from (the sources' key intersection))`. -#}
{% macro _sj_prune_semi_join_sql(sources) -%}
    {%- set keys = sources[0]['keys'] -%}
    {%- set shown = keys | map(attribute='big_expr') | join(', ') -%}
    {%- set names = [] -%}
    {%- for k in keys -%}{%- do names.append('sj_keys.sj_k' ~ loop.index0) -%}{%- endfor -%}
    {%- set sql -%}
{{ shown if keys | length == 1 else '(' ~ shown ~ ')' }} in (
    select {{ names | join(', ') }}
    from (
{{ skewjoin._sj_indent(skewjoin._sj_prune_intersection_select(sources), 8) }}
    ) as sj_keys
)
    {%- endset -%}
    {{- return(sql) -}}
{%- endmacro %}


{#- The plan of one group of sources (those that constrain the same big
    columns) from its measures {'sources', 'missing', 'collected'}: those,
    plus 'keys', 'choice', 'conjuncts' [{'sql', 'columns', 'subquery'?,
    'deferred'?}], 'empty' and, for an IN list, 'n_values' (values per
    column). The choice:
      - 'deferred': a key set is not in the prune cache yet (the model's
        pre_hook computes it after this SQL is rendered): a semi join
        against the cached keys, read when the query runs, which stops the
        query if they are still missing then;
      - 'empty': no key, so nothing can match (`false`);
      - 'in_list': at most max_values keys;
      - above max_values, the fallback: 'range' (between the min and max
        key), 'semi_join' (left to Spark) or 'none' (no predicate). -#}
{% macro _sj_prune_group_plan(spec, group) -%}
    {%- set keys = group.sources[0]['keys'] -%}
    {%- set columns = keys | map(attribute='big') | map('lower') | list -%}
    {%- set plan = {'keys': keys, 'empty': false} -%}
    {%- do plan.update(group) -%}
    {%- set kept = group.collected.kept if not group.missing else none -%}
    {%- if group.missing -%}
        {%- do plan.update({'choice': 'deferred', 'conjuncts': [{'sql': skewjoin._sj_prune_semi_join_sql(group.sources),
            'columns': columns, 'subquery': true, 'deferred': true}]}) -%}
    {%- elif kept == 0 -%}
        {%- do plan.update({'choice': 'empty', 'empty': true, 'conjuncts': [{'sql': 'false', 'columns': []}]}) -%}
    {%- elif kept <= spec.max_values -%}
        {%- do plan.update(skewjoin._sj_prune_in_lists(spec, keys, group.collected)) -%}
    {%- elif spec.fallback == 'range' -%}
        {%- set conjuncts = [] -%}
        {%- for k in keys -%}
            {%- set lo = skewjoin._sj_prune_literal(spec.macro, group.collected['min'][loop.index0], k.target) -%}
            {%- set hi = skewjoin._sj_prune_literal(spec.macro, group.collected['max'][loop.index0], k.target) -%}
            {%- do conjuncts.append({'sql': k.big_expr ~ ' between ' ~ lo ~ ' and ' ~ hi,
                                     'columns': [k.big | lower]}) -%}
        {%- endfor -%}
        {%- do plan.update({'choice': 'range', 'conjuncts': conjuncts}) -%}
    {%- elif spec.fallback == 'semi_join' -%}
        {%- do plan.update({'choice': 'semi_join', 'conjuncts': [{
            'sql': skewjoin._sj_prune_semi_join_sql(group.sources), 'columns': columns, 'subquery': true}]}) -%}
    {%- else -%}
        {%- do plan.update({'choice': 'none', 'conjuncts': []}) -%}
    {%- endif -%}
    {{- return(plan) -}}
{%- endmacro %}


{% macro _sj_prune_group_plans(spec, groups) -%}
    {%- set plans = [] -%}
    {%- for group in groups -%}{%- do plans.append(skewjoin._sj_prune_group_plan(spec, group)) -%}{%- endfor -%}
    {{- return(plans) -}}
{%- endmacro %}


{#- What the predicate of the group plans does to the partitions:
    {'case', 'count': the conjuncts whose partitions to count, 'deferred':
    partition columns whose keys are read when the query runs,
    'constrained': partition columns the predicate constrains}. The case:
    'deferred' (Spark prunes by the cached keys at run time), 'empty' (the
    predicate is false), 'semi_join' (a semi join on partition columns:
    Spark's run-time choice), 'literal' (a literal predicate on partition
    columns: Spark lists and reads only those) or 'none'. -#}
{% macro _sj_prune_partition_scope(spec, groups) -%}
    {%- set plower = spec.partition_columns | map('lower') | list -%}
    {%- set empty = groups | selectattr('empty') | list | length > 0 -%}
    {%- set state = namespace(subquery=false) -%}
    {%- set on_partitions = [] -%}
    {%- set deferred = [] -%}
    {%- set constrained = [] -%}
    {%- for g in groups -%}
        {%- for c in g.conjuncts -%}
            {%- for col in c.columns if col in plower -%}
                {%- if c.get('deferred') and col not in deferred -%}{%- do deferred.append(col) -%}{%- endif -%}
                {%- if col not in constrained -%}{%- do constrained.append(col) -%}{%- endif -%}
            {%- endfor -%}
            {%- if c.columns and not c.get('deferred') and (c.columns | reject('in', plower) | list | length == 0) -%}
                {%- do on_partitions.append(c.sql) -%}
                {%- if c.get('subquery') -%}{%- set state.subquery = true -%}{%- endif -%}
            {%- endif -%}
        {%- endfor -%}
    {%- endfor -%}
    {%- if deferred and not empty -%}
        {%- set scope = {'case': 'deferred', 'count': on_partitions} -%}
    {%- elif empty -%}
        {%- set scope = {'case': 'empty', 'count': ['false']} -%}
    {%- elif on_partitions -%}
        {%- set scope = {'case': 'semi_join' if state.subquery else 'literal', 'count': on_partitions} -%}
    {%- else -%}
        {%- set scope = {'case': 'none', 'count': []} -%}
    {%- endif -%}
    {%- do scope.update({'deferred': deferred, 'constrained': constrained}) -%}
    {{- return(scope) -}}
{%- endmacro %}


{% macro _sj_prune_plan(spec, measured) -%}
    {%- set plan = {'spec': spec, 'allowed': measured.allowed, 'cache': measured.cache, 'groups': [],
                    'empty': false, 'predicate': 'true', 'partitions': none, 'seconds': 0.0} -%}
    {%- if not measured.allowed -%}
        {{- return(plan) -}}
    {%- endif -%}
    {%- set groups = skewjoin._sj_prune_group_plans(spec, measured.groups) -%}
    {%- set state = namespace(seconds=0.0) -%}
    {%- set sqls = [] -%}
    {%- for g in groups -%}
        {%- if not g.missing -%}{%- set state.seconds = state.seconds + g.collected.seconds -%}{%- endif -%}
        {%- for c in g.conjuncts -%}{%- do sqls.append(skewjoin._sj_indent(c.sql, 4)[4:]) -%}{%- endfor -%}
    {%- endfor -%}
    {%- set empty = groups | selectattr('empty') | list | length > 0 -%}
    {%- if empty -%}
        {%- set predicate = 'false' -%}
    {%- elif sqls -%}
        {%- set predicate = '(\n    ' ~ (sqls | join('\n    and ')) ~ '\n)' -%}
    {%- else -%}
        {%- set predicate = 'true' -%}
    {%- endif -%}
    {%- if measured.partitions is not none -%}
        {%- set partitions = skewjoin._sj_prune_partition_scope(spec, groups) -%}
        {%- do partitions.update(measured.partitions) -%}
        {%- set state.seconds = state.seconds + partitions.seconds -%}
        {%- do plan.update({'partitions': partitions}) -%}
    {%- endif -%}
    {%- do plan.update({'groups': groups, 'empty': empty, 'predicate': predicate, 'seconds': state.seconds}) -%}
    {{- return(plan) -}}
{%- endmacro %}
