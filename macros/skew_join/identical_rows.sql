{#- skew_join 'auto': how far each planned group's salt spreads its rows.

    A `distribute: random` group spreads its driver's rows by a hash of the
    whole row and its input split (salt.sql). Identical rows in one split
    share that hash, so a side whose rows of the key are all alike (a SELECT
    of the key and a constant) reaches at most as many slots as the splits
    holding the key. 'auto' counts it, one query a group over the driver's
    rows of the group (the columns the salt hashes, so every column is
    read): rows, distinct rows, input splits, and the slots the salt puts
    them on, with the expression the compiled SQL uses. The
    record says what it found; under half the slots reached, a warning too.
    The plan is not changed: the rows are correct wherever they go. -#}


{#- The measure: each random group of an 'auto' plan (`config`, the planned
    specification) counted by `_sj_salt_reach_count`. Returns
    [{'group', 'side', 'reach'}]. -#}
{% macro _sj_auto_salt_reach_facts(j, config, options) -%}
    {%- set out = [] -%}
    {%- for g in config.get('groups') or [] if g.get('distribute', 'random') == 'random' and (g.slots | int) > 1 -%}
        {%- set m = modules.re.match('^\\s*(\\w+)\\.', g.when) -%}
        {%- set side = none if m is none else ('left' if m.group(1) == j.left.alias
            else ('right' if m.group(1) == j.right.alias else none)) -%}
        {%- if side is not none -%}
            {%- do out.append({'group': g, 'side': side,
                               'reach': skewjoin._sj_salt_reach_count(j, side, g.when, g.slots | int, options)}) -%}
        {%- endif -%}
    {%- endfor -%}
    {{- return(out) -}}
{%- endmacro %}


{#- The record's lines of the counted groups (`_sj_auto_salt_reach_facts`),
    with a warning for a group under half its slots. -#}
{% macro _sj_auto_salt_reach_record(j, reached) -%}
    {%- set lines = [] -%}
    {%- for r in reached -%}
        {%- set g = r.group -%}
        {%- set reach = r.reach -%}
        {%- set alias = j[r.side].alias -%}
        {%- set head = "auto: group '" ~ g.when ~ "' (driver " ~ alias ~ ', ' ~ g.slots ~ ' slots): its '
            ~ skewjoin._sj_rows_text(reach.rows) ~ ' rows of ' ~ alias ~ (' (sampled)' if reach.sampled else '')
            ~ ' are ' ~ skewjoin._sj_rows_text(reach.distinct) ~ ' distinct row' ~ ('' if reach.distinct == 1 else 's')
            ~ ' in ' ~ reach.splits ~ ' input split' ~ ('' if reach.splits == 1 else 's') -%}
        {%- if reach.reached >= (g.slots | int) -%}
            {%- do lines.append(head ~ ': the salt (a hash of the row and its input split) reaches all '
                ~ g.slots ~ ' slots') -%}
        {%- else -%}
            {%- set why = 'identical rows in one split share a slot' if reach.distinct < reach.rows
                else 'hash collisions' -%}
            {%- set line = head ~ ': the salt (a hash of the row and its input split) reaches ' ~ reach.reached
                ~ ' of its ' ~ g.slots ~ ' slots (' ~ why ~ '), so the key is spread over ' ~ reach.reached
                ~ ' tasks, not ' ~ g.slots -%}
            {%- do lines.append(line) -%}
            {%- if reach.reached * 2 < (g.slots | int) -%}
                {%- do skewjoin._sj_warn(j.macro, line[6:] ~ '; more input splits of ' ~ alias
                    ~ ' (or a column that tells its rows apart) spread it further') -%}
            {%- endif -%}
        {%- endif -%}
    {%- endfor -%}
    {{- return(lines) -}}
{%- endmacro %}


{#- One query: the driver's rows of a group, their distinct rows, input
    splits, and the distinct slots the group's salt (salt.sql) gives them. Returns
    {'rows', 'distinct', 'splits', 'reached', 'sampled'}. -#}
{% macro _sj_salt_reach_count(j, side, when, slots, options) -%}
    {%- set alias = j[side].alias -%}
    {%- set sampled = skewjoin._sj_sampled(options) -%}
    {%- set sample = (' tablesample (' ~ ((options.sample_fraction | float) * 100) ~ ' percent)')
        if sampled else '' -%}
    {%- set query -%}
select
    count(*) as sj_rows,
    count(distinct sj_row) as sj_distinct_rows,
    count(distinct sj_split) as sj_splits,
    count(distinct sj_slot) as sj_slots_reached
from (
    select
        {{ skewjoin._sj_row_hash(j[side].columns, alias) }} as sj_row,
        {{ skewjoin._sj_salt_slot(j[side].columns, alias, slots) }} as sj_slot,
        spark_partition_id() as sj_split
    from {{ j[side]['from'] }}{{ sample }} as {{ alias }}
    where {{ when }}
) as sj_salt_reach
    {%- endset -%}
    {%- set row = skewjoin._sj_run_query(query).rows[0] -%}
    {{- return({'rows': row[0] | int, 'distinct': row[1] | int, 'splits': row[2] | int, 'reached': row[3] | int,
                'sampled': sampled}) -}}
{%- endmacro %}
