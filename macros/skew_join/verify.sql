{#- Declared skew groups and hot keys checked against the data before they
    are planned.

    A skew plan costs what it costs whether or not its key is still hot. A
    group gives every row of both sides a group and a slot, the join sorts on
    (keys, slot), and the other side's rows of the group are copied to every
    slot; a hot key reads both sides a second time (the broadcast branch and
    the rest). Measured at 10,000,000 uniform rows (README, Performance),
    configurations declared for a skew the data no longer had took 1.2-1.8x
    the plain join's time.

    So before planning, one aggregate over each side with declared hot keys
    counts each key's rows (and the side's input splits, which the spread
    rule reads), and one over each side that drives a group counts each
    group's rows: the same `case` the plan evaluates (first true `when`
    wins), over the rows the hot keys leave to the groups.
    A group or hot key holding less than `min_share` of its side's rows is
    dropped: it is not skew, and splitting it splits no straggler.
    `min_share` is `verify` when it is a number, else one slot's even share
    (1 / total_slots): a key or group smaller than that fits in one task of
    the plain join. Dropping one changes the plan, never the rows.
    skew_join's AQE forecast of the declared plan (aqe_forecast.sql) reads
    these counts: where AQE would split every kept key as finely, the record
    and the log warn.

    verify: true (default) | false | a share in (0, 1); the model's
    specification, else var('skewjoin_verify'). What 'auto' plans comes from
    counts it has just measured and is not counted again.
-#}

{#- The verify setting (spec stage, no query): {'on', 'min_share' (none
    = one slot's even share), 'source'}. -#}
{% macro _sj_verify_spec(macro_name, value) -%}
    {%- set source = 'skew_join.verify' -%}
    {%- if value is none -%}
        {%- set value = var('skewjoin_verify', none) -%}
        {%- set source = "var('skewjoin_verify')" -%}
    {%- endif -%}
    {%- if value is none -%}
        {{- return({'on': true, 'min_share': none, 'source': 'default'}) -}}
    {%- endif -%}
    {%- if value is boolean or (value | string | lower | trim) in ('true', 'false') -%}
        {{- return({'on': (value | string | lower | trim) == 'true', 'min_share': none, 'source': source}) -}}
    {%- endif -%}
    {%- set share = skewjoin._sj_number_between(macro_name, 'skew_join.verify', value, 0, 1, false, '0.01',
        "verify (from " ~ source ~ ") is true, false or a share of a side's rows above 0 and below 1") -%}
    {{- return({'on': true, 'min_share': share, 'source': source}) -}}
{%- endmacro %}


{#- Every row's group on one side: the first true `when` of `groups`, each
    evaluated on `side`'s keys (as the plan's `<alias>_grouped` CTE does). -#}
{% macro _sj_group_case(join, groups, side, alias) -%}
    {%- set whens = [] -%}
    {%- for g in groups -%}
        {%- set condition = skewjoin._sj_when_on_side(join, g.when, g.driver, side, alias) -%}
        {%- do whens.append('when ' ~ condition ~ ' then ' ~ g.index) -%}
    {%- endfor -%}
    {%- set case_sql -%}
case
    {{ whens | join('\n    ') }}
    else 0
end
    {%- endset -%}
    {{- return(case_sql) -}}
{%- endmacro %}


{#- Why `what` (skew groups, hot keys of a side) is not counted, or none when
    it is: verification off, or compile-time queries off. -#}
{% macro _sj_verify_skipped(verify, what, tail='') -%}
    {%- if not verify.on -%}
        {{- return(what ~ ' not verified against the data (verify false, from ' ~ verify.source ~ ')') -}}
    {%- endif -%}
    {%- if not skewjoin._sj_queries_allowed() -%}
        {{- return(what ~ ' not verified: counting their rows needs a query and compile-time queries are off '
            ~ skewjoin._sj_queries_off_reason() ~ tail) -}}
    {%- endif -%}
    {{- return(none) -}}
{%- endmacro %}


{#- The share a declared group or hot key must hold: {'min_share', 'text'}. -#}
{% macro _sj_verify_rule(verify, total_slots) -%}
    {%- if verify.min_share is none -%}
        {%- set min_share = 1.0 / total_slots -%}
        {%- set why = "one slot's even share, 1/" ~ total_slots ~ ' slots' -%}
    {%- else -%}
        {%- set min_share = verify.min_share -%}
        {%- set why = 'verify, from ' ~ verify.source -%}
    {%- endif -%}
    {{- return({'min_share': min_share, 'text': ('%.3g' | format(min_share * 100)) ~ '% (' ~ why ~ ')'}) -}}
{%- endmacro %}


{#- "70.0% of f's rows (7,000,512 of 10,000,000)" -#}
{% macro _sj_share_text(n, total, alias) -%}
    {{- return(skewjoin._sj_auto_pct(n, total) ~ ' of ' ~ alias ~ "'s rows (" ~ skewjoin._sj_rows_text(n) ~ ' of '
        ~ skewjoin._sj_rows_text(total) ~ ')') -}}
{%- endmacro %}


{#- The measure of declared groups: each group's rows on its driver side,
    counted on the rows `hot` (the hot-keys plan) leaves to the shuffle join,
    one aggregate per driving side, which also counts the side's input
    splits (AQE's map tasks, which the AQE forecast reads: aqe_forecast.sql).
    Returns {'skipped' (why not counted, or none), 'counts': {group index:
    [rows, side's rows]}, 'splits': {side: input splits}}. -#}
{% macro _sj_count_groups(join, groups, verify, hot) -%}
    {%- set skipped = skewjoin._sj_verify_skipped(verify, 'skew groups', '; the groups are planned as declared') -%}
    {%- set counts = {} -%}
    {%- set splits = {} -%}
    {%- for side in ['left', 'right'] if skipped is none -%}
        {%- set driven = groups | selectattr('driver', 'equalto', side) | list -%}
        {%- if not driven -%}
            {%- continue -%}
        {%- endif -%}
        {%- set alias = join[side].alias -%}
        {%- set count_ifs = [] -%}
        {%- for g in driven -%}
            {%- do count_ifs.append('count_if(sj_group = ' ~ g.index ~ ') as sj_group_' ~ g.index) -%}
        {%- endfor -%}
        {%- set query -%}
select
    count(*) as sj_rows,
    {{ count_ifs | join(',\n    ') }},
    count(distinct sj_split) as sj_splits
from (
    select
        {{ skewjoin._sj_indent(skewjoin._sj_group_case(join, groups, side, alias), 8)[8:] }} as sj_group,
        spark_partition_id() as sj_split
    from {{ join[side]['from'] }} as {{ alias }}
    {%- if hot.active and hot.taken %}
    where not {{ skewjoin._sj_in_tuples(join, side, alias, hot.taken) }}
    {%- endif %}
) as sj_verify
        {%- endset -%}
        {%- set row = skewjoin._sj_run_query(query).rows[0] -%}
        {%- for g in driven -%}
            {%- do counts.update({g.index: [row[loop.index] | int, row[0] | int]}) -%}
        {%- endfor -%}
        {%- do splits.update({side: row[(driven | length) + 1] | int}) -%}
    {%- endfor -%}
    {{- return({'skipped': skipped, 'counts': counts, 'splits': splits}) -}}
{%- endmacro %}


{#- The groups that hold at least min_share of their driver's rows (pure,
    from `_sj_count_groups`). Returns {'kept', 'dropped', 'skipped',
    'results': [{'group', 'rows', 'total', 'kept'}], 'rule', 'splits'
    (each counted side's input splits)}. -#}
{% macro _sj_judge_groups(groups, total_slots, verify, counted) -%}
    {%- set out = {'kept': [], 'dropped': [], 'skipped': counted.skipped, 'results': [],
                   'rule': skewjoin._sj_verify_rule(verify, total_slots), 'splits': counted.get('splits') or {}} -%}
    {%- if counted.skipped is not none -%}
        {%- do out.kept.extend(groups) -%}
        {{- return(out) -}}
    {%- endif -%}
    {%- for g in groups -%}
        {%- set n, total = counted.counts[g.index] -%}
        {%- set kept = total > 0 and n / total >= out.rule.min_share -%}
        {%- do (out.kept if kept else out.dropped).append(g) -%}
        {%- do out.results.append({'group': g, 'rows': n, 'total': total, 'kept': kept}) -%}
    {%- endfor -%}
    {{- return(out) -}}
{%- endmacro %}


{#- The measure of the declared hot keys of `side` (`lits`, as
    _sj_hot_literals gives them): each key's rows and the side's input
    splits (which the spread rule reads), in one aggregate. Returns
    {'skipped' (why not counted, or none), 'rows', 'splits', 'counts' (per
    key), 'slots' (the total slots, whose even share is the default rule)}. -#}
{% macro _sj_count_hot_keys(j, side, lits, skew) -%}
    {%- set alias = j[side].alias -%}
    {%- set skipped = skewjoin._sj_verify_skipped(skew.verify, 'hot keys of ' ~ alias) -%}
    {%- if skipped is not none -%}
        {{- return({'skipped': skipped}) -}}
    {%- endif -%}
    {%- set slots = skewjoin._sj_total_slots(skew)[0] -%}
    {%- set count_ifs = [] -%}
    {%- for t in lits.tuples -%}
        {%- do count_ifs.append('count_if(' ~ skewjoin._sj_in_tuples(j, side, alias, [t]) ~ ') as sj_hot_'
            ~ loop.index) -%}
    {%- endfor -%}
    {%- set query -%}
select
    count(*) as sj_rows,
    count(distinct sj_split) as sj_splits,
    {{ count_ifs | join(',\n    ') }}
from (
    select {{ skewjoin._sj_side_keys(j, side, alias) | join(', ') }}, spark_partition_id() as sj_split
    from {{ j[side]['from'] }} as {{ alias }}
) as {{ alias }}
    {%- endset -%}
    {%- set row = skewjoin._sj_run_query(query).rows[0] -%}
    {%- set counts = [] -%}
    {%- for t in lits.tuples -%}{%- do counts.append(row[loop.index + 1] | int) -%}{%- endfor -%}
    {{- return({'skipped': none, 'rows': row[0] | int, 'splits': row[1] | int, 'counts': counts, 'slots': slots}) -}}
{%- endmacro %}


{#- The declared hot keys of `side` that hold at least min_share of its rows
    (pure, from `_sj_count_hot_keys`). Returns {'lits' (the kept keys, in
    the form of `lits`), 'dropped' (how many), 'splits' (none when not
    counted), 'skipped', 'results': [{'shown', 'rows', 'total', 'kept'}],
    'rule'}. -#}
{% macro _sj_judge_hot_keys(lits, verify, counted) -%}
    {%- if counted.skipped is not none -%}
        {{- return({'lits': lits, 'dropped': 0, 'splits': none, 'skipped': counted.skipped}) -}}
    {%- endif -%}
    {%- set rule = skewjoin._sj_verify_rule(verify, counted.slots) -%}
    {%- set kept = {'tuples': [], 'shown': [], 'null': lits.null} -%}
    {%- set out = {'lits': kept, 'dropped': 0, 'splits': counted.splits, 'skipped': none, 'results': [],
                   'rule': rule} -%}
    {%- for t in lits.tuples -%}
        {%- set n = counted.counts[loop.index0] -%}
        {%- set keep = counted.rows > 0 and n / counted.rows >= rule.min_share -%}
        {%- if keep -%}
            {%- do kept.tuples.append(t) -%}
            {%- do kept.shown.append(lits.shown[loop.index0]) -%}
        {%- else -%}
            {%- do out.update({'dropped': out.dropped + 1}) -%}
        {%- endif -%}
        {%- do out.results.append({'shown': lits.shown[loop.index0], 'rows': n, 'total': counted.rows,
                                   'kept': keep}) -%}
    {%- endfor -%}
    {{- return(out) -}}
{%- endmacro %}
