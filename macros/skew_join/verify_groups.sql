{#- Declared skew groups checked against the data before they are planned.

    A skew group costs what its plan costs whether or not its key is still
    hot: every row of both sides gets a group and a slot, the join sorts on
    (keys, slot), and the other side's rows of the group are copied to every
    slot. Measured at 10,000,000 rows (README, Performance), groups declared
    for a skew the data no longer had took 1.2-1.8x the plain join's time.

    So before planning, one aggregate over each driving side counts the rows
    each group receives (the same `case` the plan evaluates: first true
    `when` wins), and a group holding less than `min_share` of its driver's
    rows is dropped: it is not skew, and spreading it splits no straggler.
    `min_share` is `verify_groups` when it is a number, else one slot's even
    share (1 / total_slots): a group smaller than that fits in one slot of
    the plain join. Dropping a group changes the plan, never the rows.

    verify_groups: true (default) | false | a share in (0, 1); the model's
    specification, else var('skewjoin_verify_groups'). Groups planned by
    'auto' are measured already and are not verified again.
-#}

{#- The verify_groups setting (spec stage, no query): {'on', 'min_share' (none
    = one slot's even share), 'source'}. -#}
{% macro _sj_verify_spec(macro_name, value) -%}
    {%- set source = 'skew_join.verify_groups' -%}
    {%- if value is none -%}
        {%- set value = var('skewjoin_verify_groups', none) -%}
        {%- set source = "var('skewjoin_verify_groups')" -%}
    {%- endif -%}
    {%- if value is none -%}
        {{- return({'on': true, 'min_share': none, 'source': 'default'}) -}}
    {%- endif -%}
    {%- if value is boolean or (value | string | lower | trim) in ('true', 'false') -%}
        {{- return({'on': (value | string | lower | trim) == 'true', 'min_share': none, 'source': source}) -}}
    {%- endif -%}
    {%- set share = skewjoin._sj_number_between(macro_name, 'skew_join.verify_groups', value, 0, 1, false, '0.01',
        "verify_groups (from " ~ source ~ ") is true, false or a share of the driver's rows above 0 and below 1") -%}
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


{#- The groups of `plan` that hold at least min_share of their driver's rows,
    measured. Returns {'kept': [group], 'dropped': [group], 'lines'}. -#}
{% macro _sj_verify_groups(join, plan, verify) -%}
    {%- set out = {'kept': plan.groups, 'dropped': [], 'lines': []} -%}
    {%- if not verify.on -%}
        {%- do out.lines.append('skew groups not verified against the data (verify_groups false, from '
            ~ verify.source ~ ')') -%}
        {{- return(out) -}}
    {%- endif -%}
    {%- if not skewjoin._sj_queries_allowed() -%}
        {%- do out.lines.append('skew groups not verified: counting their rows needs a query and run-time queries'
            ~ ' are off (var skewjoin_run_queries: false); the groups are planned as declared') -%}
        {{- return(out) -}}
    {%- endif -%}
    {%- if verify.min_share is none -%}
        {%- set min_share = 1.0 / plan.total_slots -%}
        {%- set rule = "one slot's even share, 1/" ~ plan.total_slots ~ ' slots' -%}
    {%- else -%}
        {%- set min_share = verify.min_share -%}
        {%- set rule = 'verify_groups, from ' ~ verify.source -%}
    {%- endif -%}
    {%- set threshold = ('%.2g' | format(min_share * 100)) ~ '%' -%}
    {%- set counts = {} -%}
    {%- for side in ['left', 'right'] if plan.groups | selectattr('driver', 'equalto', side) | list -%}
        {%- set alias = join[side].alias -%}
        {%- set driven = plan.groups | selectattr('driver', 'equalto', side) | list -%}
        {%- set count_ifs = [] -%}
        {%- for g in driven -%}
            {%- do count_ifs.append('count_if(sj_group = ' ~ g.index ~ ') as sj_group_' ~ g.index) -%}
        {%- endfor -%}
        {%- set query -%}
select
    count(*) as sj_rows,
    {{ count_ifs | join(',\n    ') }}
from (
    select
        {{ skewjoin._sj_indent(skewjoin._sj_group_case(join, plan.groups, side, alias), 8)[8:] }} as sj_group
    from {{ join[side]['from'] }} as {{ alias }}
) as sj_verify
        {%- endset -%}
        {%- set row = run_query(query).rows[0] -%}
        {%- for g in driven -%}
            {%- do counts.update({g.index: [row[loop.index] | int, row[0] | int]}) -%}
        {%- endfor -%}
    {%- endfor -%}
    {%- set kept = [] -%}
    {%- for g in plan.groups -%}
        {%- set n, total = counts[g.index] -%}
        {%- set share_text = skewjoin._sj_auto_pct(n, total) ~ ' of ' ~ join[g.driver].alias ~ "'s rows ("
            ~ skewjoin._sj_rows_text(n) ~ ' of ' ~ skewjoin._sj_rows_text(total) ~ ')' -%}
        {%- if total > 0 and n / total >= min_share -%}
            {%- do kept.append(g) -%}
            {%- do out.lines.append('group ' ~ g.index ~ ' ' ~ g.name ~ ' verified: ' ~ share_text ~ ' >= '
                ~ threshold ~ ' (' ~ rule ~ '): kept') -%}
        {%- else -%}
            {%- do out.dropped.append(g) -%}
            {%- set line -%}
group {{ g.index }} {{ g.name }} dropped: {{ share_text }}, under {{ threshold }} ({{ rule }}): the data does not
have the skew this group was declared for, and its slots would cost a slot per row and a (keys, slot) sort without
splitting a straggler. Set verify_groups: false to plan declared groups as written
            {%- endset -%}
            {%- do out.lines.append(line | replace('\n', ' ')) -%}
        {%- endif -%}
    {%- endfor -%}
    {%- do out.update({'kept': kept}) -%}
    {{- return(out) -}}
{%- endmacro %}
