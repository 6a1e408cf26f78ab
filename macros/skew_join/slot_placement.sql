{#- Slot placement: each slot of a hot group on its own shuffle partition. -#}


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

    The measure (`_sj_measure_placement`) reads the settings and the
    candidates; the plan (`_sj_place_slots`) chooses the values; the record
    (`_sj_placement_record`) says what was chosen. -#}


{#- The keys whose slots are placed (pure): each value a spread group's
    `when` names. -#}
{% macro _sj_placement_wanted(join, layout) -%}
    {%- set wanted = [] -%}
    {%- set k = join['keys'][0] -%}
    {%- for g in layout.groups if g.slots > 1 and g.distribute != 'keys' -%}
        {%- for raw in skewjoin._sj_when_key_values(join, g) or [] -%}
            {%- set lit = skewjoin._sj_literal(raw, k.type) -%}
            {%- if lit is not none and lit not in wanted | map(attribute='literal') | list -%}
                {%- do wanted.append({'group': g.index, 'literal': lit, 'shown': raw, 'slots': g.slots,
                                      'range': '#' ~ g.start ~ '-#' ~ g['end']}) -%}
            {%- endif -%}
        {%- endfor -%}
    {%- endfor -%}
    {{- return(wanted) -}}
{%- endmacro %}


{#- The measure: the shuffle partitions (and the setting they come from) and,
    for each wanted key, the partition of each candidate slot value.
    Returns {'wanted', 'partitions', 'source', 'candidates' ({key number:
    [[value, partition], ...]}, none when not asked)}. -#}
{% macro _sj_measure_placement(join, layout) -%}
    {%- set wanted = skewjoin._sj_placement_wanted(join, layout) -%}
    {%- set facts = {'wanted': wanted, 'candidates': none} -%}
    {%- if not wanted or not execute -%}
        {{- return(facts) -}}
    {%- endif -%}
    {%- set initial = skewjoin._sj_spark_conf('spark.sql.adaptive.coalescePartitions.initialPartitionNum') -%}
    {%- if initial is not none and skewjoin._sj_spark_conf('spark.sql.adaptive.enabled', 'true') | lower == 'true' -%}
        {%- do facts.update({'source': 'spark.sql.adaptive.coalescePartitions.initialPartitionNum',
                             'partitions': initial}) -%}
    {%- else -%}
        {%- do facts.update({'source': 'spark.sql.shuffle.partitions',
                             'partitions': skewjoin._sj_spark_conf('spark.sql.shuffle.partitions', '200')}) -%}
    {%- endif -%}
    {%- if not modules.re.fullmatch('[0-9]+', facts.partitions | string | trim) or (facts.partitions | int) < 2 -%}
        {{- return(facts) -}}
    {%- endif -%}
    {%- set p = facts.partitions | int -%}
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
    {%- do facts.update({'candidates': candidates}) -%}
    {{- return(facts) -}}
{%- endmacro %}


{#- The placement (pure, from `_sj_measure_placement`): each key's slot
    values, free partitions first. Returns {'groups': {group index:
    [[literal, [slot value, ...]], ...]}, 'keys': [what the record says of
    each key], 'skipped' (the setting that allowed no placement, or none),
    'partitions', 'source'}. -#}
{% macro _sj_place_slots(facts) -%}
    {%- set placed = {'groups': {}, 'keys': [], 'skipped': none, 'partitions': facts.get('partitions'),
                      'source': facts.get('source')} -%}
    {%- if not facts.wanted or facts.get('partitions') is none -%}
        {{- return(placed) -}}
    {%- elif facts.candidates is none -%}
        {%- do placed.update({'skipped': facts.source ~ ' is ' ~ facts.partitions}) -%}
        {{- return(placed) -}}
    {%- endif -%}
    {%- set used = {} -%}
    {%- for w in facts.wanted -%}
        {%- set options = facts.candidates.get(loop.index0, []) | sort -%}
        {%- set key = {'wanted': w, 'reachable': options | length, 'placed': false} -%}
        {%- do placed['keys'].append(key) -%}
        {%- if options | length < w.slots -%}
            {%- continue -%}
        {%- endif -%}
        {#- free partitions first, then (more slots than free partitions) shared ones, each in value order -#}
        {%- set free = [] -%}
        {%- set shared = [] -%}
        {%- for c in options -%}
            {%- do (shared if c[1] in used else free).append(c) -%}
        {%- endfor -%}
        {%- set values = [] -%}
        {%- for c in (free + shared)[:w.slots] -%}
            {%- do values.append(c[0]) -%}
            {%- do used.update({c[1]: true}) -%}
        {%- endfor -%}
        {%- do placed.groups.setdefault(w.group, []).append([w.literal, values]) -%}
        {%- do key.update({'placed': true, 'sharing': [w.slots - (free | length), 0] | max}) -%}
    {%- endfor -%}
    {{- return(placed) -}}
{%- endmacro %}
