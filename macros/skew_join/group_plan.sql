{#- Explicit skew groups (HIVE-3286): ordered groups, each with a `when` over
    the join keys of one side (its driver), a number of slots and a way to
    distribute its rows over them.

    Layout, as in the seed's 20-slot example: the rows in no group take the
    first slots (#0..#r-1), then each group in order takes a contiguous range.
    A driver-side row of a group gets one slot of the range; the other side's
    rows of the group are multicast to every slot of the range (random or
    expression distribution) or routed by a hash of the keys (keys
    distribution, nothing multicast). The join then matches on the keys and
    the slot, so each pair of rows with equal keys meets in exactly one slot.
-#}


{#- Total slots: the spec, then var('skewjoin_total_slots'), then the
    session's spark.sql.shuffle.partitions. Returns [n, where it came from]. -#}
{% macro _sj_total_slots(skew) -%}
    {%- if skew.total_slots is not none -%}
        {%- set n = skew.total_slots -%}
        {%- set source = 'skew_join.total_slots' -%}
    {%- elif var('skewjoin_total_slots', none) is not none -%}
        {%- set n = var('skewjoin_total_slots') -%}
        {%- set source = "var('skewjoin_total_slots')" -%}
    {%- else -%}
        {%- set n = skewjoin._sj_spark_conf('spark.sql.shuffle.partitions', '200') -%}
        {%- set source = 'spark.sql.shuffle.partitions' -%}
    {%- endif -%}
    {%- set n = skewjoin._sj_whole_number((skew.get('macro') or 'skew_join'), 'skew_join.total_slots', n, 2, '200',
        'total_slots (from ' ~ source ~ '), a whole number') -%}
    {{- return([n, source]) -}}
{%- endmacro %}


{#- The checks a group needs the sides' columns for: no bare column in
    `when`, and a distribute expression's columns exist on the driver. -#}
{% macro _sj_check_group_columns(join, g) -%}
    {%- set arg = 'skew_join.groups[' ~ (g.index - 1) ~ ']' -%}
    {%- set bare = skewjoin._sj_bare_column_refs(g.when, join.left.columns + join.right.columns) -%}
    {%- if bare -%}
        {%- set problem -%}
'{{ g.when }}' uses the column {{ bare[0] }} without an alias; write it as {{ join.left.alias }}.{{ bare[0] }} or
{{ join.right.alias }}.{{ bare[0] }}
        {%- endset -%}
        {%- do skewjoin._sj_raise(join.macro, arg ~ '.when', problem,
            '"' ~ join[g.driver].alias ~ '.' ~ join[g.driver].key_names[0] ~ ' = 0"') -%}
    {%- endif -%}
    {%- if g.distribute != 'expression' -%}
        {{- return(none) -}}
    {%- endif -%}
    {%- set driver = join[g.driver] -%}
    {%- set example = "'upper(" ~ driver.alias ~ "." ~ driver.key_names[0] ~ ")'" -%}
    {%- for ref in skewjoin._sj_expr_refs(g.expression)
           if skewjoin._sj_find_column(driver.columns, ref.column) is none -%}
        {%- do skewjoin._sj_raise(join.macro, arg ~ '.distribute', "'" ~ g.expression ~ "': " ~ ref.alias
            ~ " has no column '" ~ ref.column ~ "'", example) -%}
    {%- endfor -%}
    {%- set bare = skewjoin._sj_bare_column_refs(g.expression, driver.columns) -%}
    {%- if bare -%}
        {%- do skewjoin._sj_raise(join.macro, arg ~ '.distribute', "'" ~ g.expression ~ "' uses the column " ~ bare[0]
            ~ ' without an alias', example) -%}
    {%- endif -%}
{%- endmacro %}


{#- Outer joins: only the preserved side may be split, only the
    null-supplying side multicast. A group multicasts its non-driver side when
    it distributes randomly or by an expression over more than one slot. -#}
{% macro _sj_check_group_legality(join, g) -%}
    {%- if g.distribute == 'keys' or g.slots <= 1 or g.other not in join.semantics.no_multicast -%}
        {{- return(none) -}}
    {%- endif -%}
    {%- set other_alias = join[g.other].alias -%}
    {%- if join.join_type == 'full' -%}
        {%- set way_out -%}
use distribute: 'keys' (nothing is multicast; each key stays in one slot, so it spreads many keys, not one) or
slots: 1; to spread one heavy key, declare it in hot_keys instead (a full outer join's hot keys are joined by
broadcast, each side's unmatched rows of them kept)
        {%- endset -%}
    {%- else -%}
        {%- set way_out -%}
use distribute: 'keys' (nothing is multicast), write the group's `when` on {{ other_alias }}'s keys so {{ other_alias }}
drives it, or give it slots: 1
        {%- endset -%}
    {%- endif -%}
    {%- set problem -%}
group {{ g.index }} ('{{ g.when }}') is driven by {{ join[g.driver].alias }} and distributes {{ g.distribute }} over
{{ g.slots }} slots, so it multicasts rows of {{ other_alias }}. A {{ join.join_type }} join
{{ 'preserves every row of ' ~ other_alias if g.other in join.semantics.keeps_unmatched
   else 'returns the rows of ' ~ other_alias }}, and every copy of one of its rows would appear in the result
(rule: split only the preserved side, multicast only the null-supplying side). Way out: {{ way_out }}
    {%- endset -%}
    {%- set fixed = {'when': g.when, 'distribute': 'keys'} -%}
    {%- do fixed.update({'slots': g.slots} if g.percent is none else {'percent': g.percent}) -%}
    {%- do skewjoin._sj_raise(join.macro, 'skew_join.groups[' ~ (g.index - 1) ~ ']', problem, fixed) -%}
{%- endmacro %}


{#- The declared groups sized in the total slots and checked against the
    resolved join (their columns, the multicast rule, one slot left for the
    rows in no group), before any data is counted. -#}
{% macro _sj_sized_groups(join, groups, total_slots) -%}
    {%- set plan = [] -%}
    {%- set taken = namespace(slots=0) -%}
    {%- for g in groups -%}
        {%- set group = {} -%}
        {%- do group.update(g) -%}
        {%- if g.percent is not none -%}
            {%- set n = [(g.percent * total_slots / 100 + 0.5) | int, 1] | max -%}
            {%- set size_text = g.percent_text ~ '% of ' ~ total_slots ~ ' = ' ~ n ~ ' slots' -%}
        {%- else -%}
            {%- set n = g.slots -%}
            {%- set size_text = n ~ ' slots' -%}
        {%- endif -%}
        {%- do group.update({'slots': n, 'size_text': size_text}) -%}
        {%- do skewjoin._sj_check_group_columns(join, group) -%}
        {%- do skewjoin._sj_check_group_legality(join, group) -%}
        {%- set taken.slots = taken.slots + n -%}
        {%- do plan.append(group) -%}
    {%- endfor -%}
    {%- if taken.slots >= total_slots -%}
        {%- set problem -%}
the groups take {{ taken.slots }} of the {{ total_slots }} slots; at least one slot must stay for the rows in no group
(lower the groups' sizes or raise total_slots)
        {%- endset -%}
        {%- do skewjoin._sj_raise(join.macro, 'skew_join.total_slots', problem, 2 * taken.slots) -%}
    {%- endif -%}
    {{- return(plan) -}}
{%- endmacro %}


{#- The layout of sized groups (`_sj_sized_groups`) in the total slots (pure):
    the rows in no group take the first slots, then each group in order a
    contiguous range. Returns {'groups' (each with 'start', 'end'),
    'total_slots', 'rest_slots', 'placement' (`_sj_place_slots`; none placed
    yet)}. -#}
{% macro _sj_plan_groups(groups, total_slots) -%}
    {%- set plan = [] -%}
    {%- for g in groups -%}
        {%- set group = {} -%}
        {%- do group.update(g) -%}
        {%- do plan.append(group) -%}
    {%- endfor -%}
    {%- set taken = namespace(slots=plan | sum(attribute='slots')) -%}
    {%- set cursor = namespace(at=total_slots - taken.slots) -%}
    {%- for g in plan -%}
        {%- do g.update({'start': cursor.at, 'end': cursor.at + g.slots - 1}) -%}
        {%- set cursor.at = cursor.at + g.slots -%}
    {%- endfor -%}
    {{- return({'groups': plan, 'total_slots': total_slots, 'rest_slots': total_slots - taken.slots,
                'placement': skewjoin._sj_place_slots({'wanted': []})}) -}}
{%- endmacro %}
