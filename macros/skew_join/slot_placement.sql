{#- Slot placement: each slot of a hot group on its own shuffle partition. -#}


{#- The record of the groups' layout (no query: the slots were placed by
    `_sj_place_slots` when the skew was planned, in plan.placement): the
    layout, the placement, and the groups the hot keys leave empty. Returns
    the record lines. -#}
{% macro _sj_place_groups(join, plan, slots_source, hot) -%}
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
    {%- for row in skewjoin._sj_run_query(query, 'metadata').rows -%}
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
