{#- Each side's rows with their slot (group_plan.sql describes the layout). -#}


{#- `when` evaluated on `side`'s rows (under alias `alias`), on the keys as
    routing reads them (`_sj_route_keys`: the common type, a string without
    its trailing spaces): references to the driver's keys become the
    corresponding keys of `side`. -#}
{% macro _sj_when_on_side(join, when, driver, side, alias) -%}
    {%- set mapping = {} -%}
    {%- set driver_alias = join[driver].alias | lower -%}
    {%- set routed = skewjoin._sj_route_keys(join, side, alias) -%}
    {%- for k in join['keys'] -%}
        {%- set driver_col = (k.left if driver == 'left' else k.right) | lower -%}
        {%- do mapping.update({driver_alias ~ '.' ~ driver_col: '(' ~ routed[loop.index0] ~ ')'}) -%}
    {%- endfor -%}
    {{- return(skewjoin._sj_rewrite_refs(when, mapping)) -}}
{%- endmacro %}


{#- CTEs that give every row of one side its group and slot, in one pass over
    the side: `<alias>_grouped` finds each row's group (the first true
    `when`), `<alias>_slotted` gives it its slot with one arm per group. Spark
    inlines CTEs, so a CTE per group would read the side once per group; one
    projection (and, where this side is multicast, one explode) reads it once.
    Returns {'ctes': [[name, sql], ...], 'final': name_of_last_cte}. -#}
{% macro _sj_slotted_side_ctes(join, plan, side, input_cte) -%}
    {%- set alias = join[side].alias -%}
    {%- set route_keys = skewjoin._sj_route_keys(join, side, alias) -%}
    {%- set keys_hash = 'xxhash64(' ~ (route_keys | join(', ')) ~ ')' -%}
    {#- every row's group: the first true `when` -#}
    {%- set grouped_sql -%}
select
    {{ alias }}.*,
    {{ skewjoin._sj_indent(skewjoin._sj_group_case(join, plan.groups, side, alias), 4)[4:] }} as sj_group
from {{ input_cte }} as {{ alias }}
    {%- endset -%}
    {#- every row's slot (or, multicast, its slots): one arm per group -#}
    {%- set arms = [] -%}
    {%- set multicast = namespace(any=false) -%}
    {%- for g in plan.groups -%}
        {%- set multicast_here = g.slots > 1 and g.distribute != 'keys' and g.driver != side -%}
        {%- if g.slots == 1 -%}
            {%- set slot_index = none -%}
            {%- set role = 'one slot' -%}
        {%- elif g.distribute == 'keys' -%}
            {%- set slot_index = 'pmod(' ~ keys_hash ~ ', ' ~ g.slots ~ ')' -%}
            {%- set role = 'by a hash of the keys' -%}
        {%- elif g.driver == side and g.distribute == 'random' -%}
            {%- set slot_index = skewjoin._sj_salt_slot(join[side].columns, alias, g.slots) -%}
            {%- set role = 'spread by a hash of the row and its input split' -%}
        {%- elif g.driver == side -%}
            {%- set slot_index = 'pmod(xxhash64(' ~ g.expression ~ '), ' ~ g.slots ~ ')' -%}
            {%- set role = 'spread by the distribute expression' -%}
        {%- else -%}
            {%- set slot_index = none -%}
            {%- set role = 'multicast to every slot' -%}
            {%- set multicast.any = true -%}
        {%- endif -%}
        {%- do arms.append({'group': g, 'index': slot_index, 'role': role, 'multicast': multicast_here,
                            'placed': plan.placement.groups.get(g.index, [])}) -%}
    {%- endfor -%}
    {%- set rest_expr = 'pmod(' ~ keys_hash ~ ', ' ~ plan.rest_slots ~ ')' -%}
    {%- set lines = [] -%}
    {%- for a in arms -%}
        {%- set value = skewjoin._sj_slot_value(a, multicast.any) -%}
        {%- if a.placed -%}
            {%- set placed_arms = [] -%}
            {%- for p in a.placed -%}
                {%- set placed_value = skewjoin._sj_slot_value(a, multicast.any, p[1]) -%}
                {%- do placed_arms.append('when ' ~ skewjoin._sj_route_literal(p[0], join['keys'][0].type) ~ ' then '
                    ~ skewjoin._sj_indent(placed_value, 4)[4:]) -%}
            {%- endfor -%}
            {%- set value -%}
case {{ route_keys[0] }}
{{ skewjoin._sj_indent(placed_arms | join('\n'), 4) }}
    else {{ skewjoin._sj_indent(value, 4)[4:] }}
end
            {%- endset -%}
            {%- set role = a.role ~ ' (slot values placed on distinct shuffle partitions; other keys #'
                ~ a.group.start ~ '-#' ~ a.group['end'] ~ ')' -%}
        {%- else -%}
            {%- set role = a.role -%}
        {%- endif -%}
        {%- do lines.append('-- group ' ~ a.group.index ~ ': slots #' ~ a.group.start ~ '-#' ~ a.group['end'] ~ ', '
            ~ role) -%}
        {%- do lines.append('when ' ~ a.group.index ~ ' then ' ~ value) -%}
    {%- endfor -%}
    {%- do lines.append('-- rows in no group: slots #0-#' ~ (plan.rest_slots - 1) ~ ' by a hash of the keys') -%}
    {%- do lines.append('else ' ~ (('array(' ~ rest_expr ~ ')') if multicast.any else rest_expr)) -%}
    {%- set slot_case = 'case ' ~ alias ~ '.sj_group\n' ~ skewjoin._sj_indent(lines | join('\n'), 4) ~ '\nend' -%}
    {%- set slot_value = ('explode(' ~ slot_case ~ ')') if multicast.any else slot_case -%}
    {%- set slotted_sql -%}
select
    {{ alias }}.*,
    {{ skewjoin._sj_indent(slot_value, 4)[4:] }} as sj_slot
from {{ alias }}_grouped as {{ alias }}
    {%- endset -%}
    {%- set ctes = [[alias ~ '_grouped', grouped_sql], [alias ~ '_slotted', slotted_sql]] -%}
    {{- return({'ctes': ctes, 'final': alias ~ '_slotted'}) -}}
{%- endmacro %}


{#- One group's slot (or, where the side is multicast, its array of slots):
    slot #start + index, or with `values` (placed slot values) the index-th
    of them. `as_array` wraps a single slot for the explode. -#}
{% macro _sj_slot_value(arm, as_array, values=none) -%}
    {%- set g = arm.group -%}
    {%- if values is none -%}
        {%- set every = 'sequence(' ~ g.start ~ ', ' ~ g['end'] ~ ')' -%}
        {%- set one = (g.start ~ ' + ' ~ arm.index) if arm.index is not none else (g.start | string) -%}
    {%- else -%}
        {%- set rows = [] -%}
        {%- for batch in values | batch(16) -%}
            {%- do rows.append(batch | join(', ')) -%}
        {%- endfor -%}
        {%- if rows | length == 1 -%}
            {%- set every = 'array(' ~ rows[0] ~ ')' -%}
        {%- else -%}
            {%- set every = 'array(\n' ~ skewjoin._sj_indent(rows | join(',\n'), 4) ~ '\n)' -%}
        {%- endif -%}
        {%- set one = 'element_at(' ~ every ~ ', cast(' ~ arm.index ~ ' as int) + 1)' -%}
    {%- endif -%}
    {%- if arm.multicast -%}
        {{- return(every) -}}
    {%- endif -%}
    {{- return(('array(' ~ one ~ ')') if as_array else one) -}}
{%- endmacro %}
