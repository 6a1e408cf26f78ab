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


{#- The groups' plan: sized, checked and laid out in contiguous slot ranges
    (the rows in no group first, then each group in order). -#}
{% macro _sj_plan_groups(join, groups, total_slots) -%}
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
    {%- set cursor = namespace(at=total_slots - taken.slots) -%}
    {%- for g in plan -%}
        {%- do g.update({'start': cursor.at, 'end': cursor.at + g.slots - 1}) -%}
        {%- set cursor.at = cursor.at + g.slots -%}
    {%- endfor -%}
    {{- return({'groups': plan, 'total_slots': total_slots, 'rest_slots': total_slots - taken.slots,
                'placement': {'groups': {}, 'lines': []}}) -}}
{%- endmacro %}


{#- The groups' slots placed (`_sj_place_slots`, stored in plan.placement)
    and their record: the layout, the placement, and the groups the hot keys
    leave empty. Returns the record lines. -#}
{% macro _sj_place_groups(join, plan, slots_source, hot) -%}
    {%- do plan.update({'placement': skewjoin._sj_place_slots(join, plan)}) -%}
    {%- set lines = skewjoin._sj_group_record_lines(join, plan, slots_source) + plan.placement.lines -%}
    {%- if hot.active -%}
        {%- set lines = lines + skewjoin._sj_groups_left_empty(join, plan, hot) -%}
    {%- endif -%}
    {{- return(lines) -}}
{%- endmacro %}


{#- Slots on distinct shuffle partitions. The join's shuffle sends a row to
    partition pmod(hash(keys, sj_slot), P): Spark's murmur3 `hash()` over the
    join keys in the common type, as its hash partitioning computes it. Slots
    numbered #start..#end land there at random, so 140 slots of one key on 200
    partitions share about 103 of them: some tasks get two or three slots'
    rows, the group's stage is as slow as its fullest task, and AQE may split
    those partitions again. For each key value a group's `when` names
    (`x.k = v`, `x.k in (v, ...)` on a one-column key), when it spreads over
    more than one slot, one query asks Spark which partition each candidate
    slot value (0 to 8P - 1) sends that key to; each of the key's slots then
    takes the smallest value whose partition no slot took yet (partitions are
    reused only when there are more slots than partitions). Both sides compute
    the same `case` on the key, so any key the placement does not name keeps
    its slots #start..#end: the placement moves rows between partitions, never
    between slots, and cannot change the result.
    Returns {'groups': {group index: [[literal, [slot value, ...]], ...]},
    'lines': record lines}. -#}
{% macro _sj_place_slots(join, plan) -%}
    {%- set wanted = [] -%}
    {%- set k = join['keys'][0] -%}
    {%- for g in plan.groups if g.slots > 1 and g.distribute != 'keys' -%}
        {%- for raw in skewjoin._sj_when_key_values(join, g) or [] -%}
            {%- set lit = skewjoin._sj_literal(raw, k.type) -%}
            {%- if lit is not none and lit not in wanted | map(attribute='literal') | list -%}
                {%- do wanted.append({'group': g.index, 'literal': lit, 'shown': raw, 'slots': g.slots,
                                      'range': '#' ~ g.start ~ '-#' ~ g['end']}) -%}
            {%- endif -%}
        {%- endfor -%}
    {%- endfor -%}
    {%- set placed = {'groups': {}, 'lines': []} -%}
    {%- if not wanted or not execute -%}
        {{- return(placed) -}}
    {%- endif -%}
    {%- set initial = skewjoin._sj_spark_conf('spark.sql.adaptive.coalescePartitions.initialPartitionNum') -%}
    {%- if initial is not none and skewjoin._sj_spark_conf('spark.sql.adaptive.enabled', 'true') | lower == 'true' -%}
        {%- set source = 'spark.sql.adaptive.coalescePartitions.initialPartitionNum' -%}
        {%- set partitions = initial -%}
    {%- else -%}
        {%- set source = 'spark.sql.shuffle.partitions' -%}
        {%- set partitions = skewjoin._sj_spark_conf(source, '200') -%}
    {%- endif -%}
    {%- if not modules.re.fullmatch('[0-9]+', partitions | string | trim) or (partitions | int) < 2 -%}
        {%- do placed.lines.append('slot placement skipped: ' ~ source ~ ' is ' ~ partitions) -%}
        {{- return(placed) -}}
    {%- endif -%}
    {%- set p = partitions | int -%}
    {%- set key_rows = [] -%}
    {%- for w in wanted -%}
        {%- do key_rows.append('(' ~ loop.index0 ~ ', ' ~ w.literal ~ ')') -%}
    {%- endfor -%}
    {%- set query -%}
select sj_key, sj_partition, min(sj_value) as sj_value
from (
    select
        sj_keys.sj_key,
        sj_candidates.id as sj_value,
        pmod(hash(sj_keys.sj_literal, sj_candidates.id), {{ p }}) as sj_partition
    from (values {{ key_rows | join(', ') }}) as sj_keys (sj_key, sj_literal)
    cross join range(0, {{ 8 * p }}) as sj_candidates
) as sj_placed
group by sj_key, sj_partition
    {%- endset -%}
    {%- set candidates = {} -%}
    {%- for row in run_query(query).rows -%}
        {%- do candidates.setdefault(row[0] | int, []).append([row[2] | int, row[1] | int]) -%}
    {%- endfor -%}
    {%- set used = {} -%}
    {%- for w in wanted -%}
        {%- set options = candidates.get(loop.index0, []) | sort -%}
        {%- if options | length < w.slots -%}
            {%- set line -%}
group {{ w.group }}: key {{ w.shown }} keeps slots {{ w.range }}: its {{ w.slots }} slots outnumber
the {{ options | length }} shuffle partitions it can reach ({{ p }}, {{ source }})
            {%- endset -%}
            {%- do placed.lines.append(line | replace('\n', ' ')) -%}
            {%- continue -%}
        {%- endif -%}
        {#- free partitions first, then (more slots than free partitions) shared ones, each in value order -#}
        {%- set free = [] -%}
        {%- set shared = [] -%}
        {%- for c in options -%}
            {%- do (shared if c[1] in used else free).append(c) -%}
        {%- endfor -%}
        {%- set chosen = (free + shared)[:w.slots] -%}
        {%- set values = [] -%}
        {%- for c in chosen -%}
            {%- do values.append(c[0]) -%}
            {%- do used.update({c[1]: true}) -%}
        {%- endfor -%}
        {%- do placed.groups.setdefault(w.group, []).append([w.literal, values]) -%}
        {%- set sharing = [w.slots - (free | length), 0] | max -%}
        {%- set line -%}
group {{ w.group }}: key {{ w.shown }}'s {{ w.slots }} slots placed on {{ w.slots }} distinct shuffle partitions of
{{ p }} ({{ source }}), slot values chosen by Spark's partition hash
{{- '; ' ~ sharing ~ ' of them shared with earlier keys (more slots than partitions)' if sharing > 0 else '' }}
        {%- endset -%}
        {%- do placed.lines.append(line | replace('\n', ' ')) -%}
    {%- endfor -%}
    {{- return(placed) -}}
{%- endmacro %}


{#- `when` evaluated on `side`'s rows (under alias `alias`), on the keys cast
    to their common type: references to the driver's keys become the
    corresponding keys of `side`. -#}
{% macro _sj_when_on_side(join, when, driver, side, alias) -%}
    {%- set mapping = {} -%}
    {%- set driver_alias = join[driver].alias | lower -%}
    {%- for k in join['keys'] -%}
        {%- set driver_col = (k.left if driver == 'left' else k.right) | lower -%}
        {%- set expr = alias ~ '.' ~ (k.left_ident if side == 'left' else k.right_ident) -%}
        {%- set cast = skewjoin._sj_cast(expr, k.left_type if side == 'left' else k.right_type, k.type) -%}
        {%- do mapping.update({driver_alias ~ '.' ~ driver_col: '(' ~ cast ~ ')'}) -%}
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
    {%- set common_keys = skewjoin._sj_common_keys(join, side, alias) -%}
    {%- set keys_hash = 'xxhash64(' ~ (common_keys | join(', ')) ~ ')' -%}
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
            {%- set row_hash = skewjoin._sj_row_hash(join[side].columns, alias) -%}
            {%- set slot_index = 'pmod(' ~ row_hash ~ ', ' ~ g.slots ~ ')' -%}
            {%- set role = 'spread by a hash of the row' -%}
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
                {%- do placed_arms.append('when ' ~ p[0] ~ ' then ' ~ skewjoin._sj_indent(placed_value, 4)[4:]) -%}
            {%- endfor -%}
            {%- set value -%}
case {{ common_keys[0] }}
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


{#- Decision-record lines for a groups plan: each group's range, how its
    rows are routed, and the copies it makes of the other side's rows. -#}
{% macro _sj_group_record_lines(join, plan, slots_source) -%}
    {%- set lines = [] -%}
    {%- set header -%}
skew groups: {{ plan.groups | length }}, total slots {{ plan.total_slots }} (from {{ slots_source }});
rows in no group: slots #0-#{{ plan.rest_slots - 1 }} by key hash
    {%- endset -%}
    {%- do lines.append(header | replace('\n', ' ')) -%}
    {%- for g in plan.groups -%}
        {%- set other_alias = join[g.other].alias -%}
        {%- set driver_alias = join[g.driver].alias -%}
        {%- if g.slots == 1 -%}
            {%- set how = 'one slot, nothing multicast' -%}
        {%- elif g.distribute == 'keys' -%}
            {%- set how = 'both sides routed by a hash of the keys, nothing multicast' -%}
            {%- set selected = skewjoin._sj_when_key_values(join, g) -%}
            {%- if selected is not none and selected | length == 1 -%}
                {%- set warning -%}
WARNING group {{ g.index }} {{ g.name }} distributes by keys but its `when` selects one key ({{ selected[0] }}): all
its rows go to one of its {{ g.slots }} slots, so the key is not spread. To spread one heavy key, declare it in
hot_keys (joined by broadcast where its rows are read; legal for every join type)
                {%- endset -%}
                {%- set how = how ~ '; ' ~ (warning | replace('\n', ' ')) -%}
                {%- do skewjoin._sj_warn(join.macro, warning | replace('\n', ' ')) -%}
            {%- endif -%}
        {%- else -%}
            {%- set spread = 'a hash of the whole row' if g.distribute == 'random'
                else 'xxhash64(' ~ g.expression ~ ')' -%}
            {%- set how -%}
{{ driver_alias }} rows spread by {{ spread }}; {{ other_alias }} rows of the group multicast x{{ g.slots }}
(each of them is read once and copied to {{ g.slots }} slots: {{ g.slots - 1 }} extra rows per row)
            {%- endset -%}
        {%- endif -%}
        {%- set line -%}
group {{ g.index }} {{ g.name }}: when '{{ g.when }}', driver {{ driver_alias }}, {{ g.size_text }} -> slots
#{{ g.start }}-#{{ g.end }}, distribute {{ g.distribute }}: {{ how }}
        {%- endset -%}
        {%- do lines.append(line | replace('\n', ' ')) -%}
    {%- endfor -%}
    {{- return(lines) -}}
{%- endmacro %}


{#- The key values a group's `when` selects, when it reads `x.k = v` or
    `x.k in (v, ...)` on a one-column key (values as written, quotes off);
    none when the `when` is anything else. -#}
{% macro _sj_when_key_values(join, g) -%}
    {%- if join['keys'] | length != 1 -%}
        {{- return(none) -}}
    {%- endif -%}
    {%- set value_pattern = "(-?[0-9]+(?:[.][0-9]+)?|'[^'\\\\]*')" -%}
    {%- set key_ref = join[g.driver].alias ~ '\\s*[.]\\s*`?' ~ join[g.driver].key_names[0] ~ '`?' -%}
    {%- set eq = modules.re.fullmatch('\\s*' ~ key_ref ~ '\\s*=\\s*' ~ value_pattern ~ '\\s*', g.when,
                                      flags=modules.re.I) -%}
    {%- set inn = modules.re.fullmatch('\\s*' ~ key_ref ~ '\\s+in\\s*\\(([^)]*)\\)\\s*', g.when,
                                       flags=modules.re.I) -%}
    {%- set values = [] -%}
    {%- if eq is not none -%}
        {%- do values.append(eq.group(1)) -%}
    {%- elif inn is not none -%}
        {%- set items = inn.group(1).split(',') -%}
        {%- for v in items if modules.re.fullmatch('\\s*' ~ value_pattern ~ '\\s*', v) is not none -%}
            {%- do values.append(v | trim) -%}
        {%- endfor -%}
        {%- if values | length != items | length -%}
            {{- return(none) -}}
        {%- endif -%}
    {%- else -%}
        {{- return(none) -}}
    {%- endif -%}
    {%- set out = [] -%}
    {%- for v in values -%}{%- do out.append(v[1:-1] if v.startswith("'") else v) -%}{%- endfor -%}
    {{- return(out) -}}
{%- endmacro %}


{#- Groups the hot keys leave empty. Hot keys go to the broadcast branch
    before the groups are formed, so a group whose `when` selects only hot
    keys (`a.k = 0`, `a.k in (0, 1)` with those keys hot) receives no row and
    its slots stay idle; one that selects some hot keys loses their rows.
    Says so in the record and warns in the log. -#}
{% macro _sj_groups_left_empty(join, plan, hot) -%}
    {%- set lines = [] -%}
    {%- for g in plan.groups -%}
        {%- set k = join['keys'][0] -%}
        {%- set values = skewjoin._sj_when_key_values(join, g) or [] -%}
        {%- set hot_values = [] -%}
        {%- set cold_values = [] -%}
        {%- for raw in values -%}
            {%- set lit = skewjoin._sj_literal(raw, k.type) -%}
            {%- if lit is not none and [lit] in hot.taken -%}
                {%- do hot_values.append(raw) -%}
            {%- else -%}
                {%- do cold_values.append(raw) -%}
            {%- endif -%}
        {%- endfor -%}
        {%- if hot_values and not cold_values -%}
            {%- set line -%}
WARNING group {{ g.index }} {{ g.name }} can receive no rows: every key its `when` selects
({{ hot_values | join(', ') }}) is a hot key, and hot keys are joined by the broadcast branch before the groups are
formed; its {{ g.slots }} slots
(#{{ g.start }}-#{{ g.end }}) stay idle. Drop the group, or drop these keys from hot_keys
            {%- endset -%}
            {%- do lines.append(line | replace('\n', ' ')) -%}
            {%- do skewjoin._sj_warn(join.macro, line | replace('\n', ' ')) -%}
        {%- elif hot_values -%}
            {%- do lines.append('group ' ~ g.index ~ ' ' ~ g.name ~ ': its keys ' ~ (hot_values | join(', '))
                ~ ' are hot keys, so their rows go to the broadcast branch, not to the group') -%}
        {%- endif -%}
    {%- endfor -%}
    {{- return(lines) -}}
{%- endmacro %}
