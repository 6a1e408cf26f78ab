{#- What the measuring cost: every compile-time query `_sj_run_query` runs is
    timed (dbt's modules.datetime) and written to the model's ledger, and each
    decision record ends with one line that sums the entries written since
    the last record (`_sj_cost_line`): how many queries, their wall time, and
    which kinds.

    The ledger lives in the `model` mapping of the node's render context (dbt
    builds it once per node, from node.to_dict(); every macro of the render
    sees the same mapping, and nothing reads it back), under the key
    `sj_query_ledger`. Where there is no such mapping (a run-operation), no
    ledger is kept and the records have no cost line.
    A record takes the entries no record took before it: a model that calls
    two macros gets each one's queries in its own record. -#}


{#- The model's ledger (a list), or none outside a node's render. -#}
{% macro _sj_query_ledger() -%}
    {%- if model is not defined or model is none or model is not mapping -%}
        {{- return(none) -}}
    {%- endif -%}
    {%- if 'sj_query_ledger' not in model -%}
        {%- do model.update({'sj_query_ledger': []}) -%}
    {%- endif -%}
    {{- return(model['sj_query_ledger']) -}}
{%- endmacro %}


{#- What a compile-time query is for, from its text: the package writes each
    kind with its own marks (aliases such as `sj_counts`, `sj_verify`), and
    tests/render checks that every query of every case has a named kind. -#}
{% macro _sj_query_kind(sql) -%}
    {%- set text = sql | string | trim -%}
    {%- set rules = [
        ['^describe query ', 'column lists'],
        ['^set ', 'settings'],
        ['^describe table extended \\S+ \\S+$', 'column statistics'],
        ['^(describe table|show partitions|show tables|show functions) ', 'catalog'],
        ['^analyze table ', 'analyze'],
        ['^explain cost ', 'size estimates'],
        ['^explain select \\* from range\\(0, 100000\\) as sj_parallelism$', 'parallelism'],
        ['\\) as sj_counts\\b', "'auto' counts"],
        ['\\) as sj_verify\\b|\\bas sj_hot_1\\b', 'verification'],
        ['\\) as sj_salt_reach\\b', 'salt reach'],
        ['\\bas sj_parallelism\\b', 'parallelism'],
        ['\\) as sj_placed\\b', 'slot placement'],
        ['\\) as sj_probe\\b', 'input splits'],
        ['\\bgrouping_id\\(\\) as sj_grouping\\b', 'hot-key detection'],
        ['\\) as sj_hot_counts\\b', 'hot-key detection'],
        ['\\) as sj_file_list\\b', 'file sizes'],
        ['\\bsj_kept as \\(', 'key sets'],
        ['^select count\\(\\*\\) as sj_kept\\b', 'partitions'],
        ['^select distinct sj_key_set\\b', 'prune cache'],
    ] -%}
    {%- for rule in rules -%}
        {%- if modules.re.search(rule[0], text, flags=modules.re.I) -%}
            {{- return(rule[1]) -}}
        {%- endif -%}
    {%- endfor -%}
    {{- return('other') -}}
{%- endmacro %}


{#- Write one query to the ledger. -#}
{% macro _sj_ledger_add(sql, reads, seconds) -%}
    {%- set ledger = skewjoin._sj_query_ledger() -%}
    {%- if ledger is not none -%}
        {%- do ledger.append({'kind': skewjoin._sj_query_kind(sql), 'reads': reads, 'seconds': seconds,
                              'taken': false}) -%}
    {%- endif -%}
{%- endmacro %}


{#- Seconds as the records print them. -#}
{% macro _sj_seconds_text(seconds) -%}
    {{- return('%.2f' | format(seconds) ~ ' s') -}}
{%- endmacro %}


{#- The record's cost line: the ledger's entries no record took yet, summed,
    and by kind (the kinds that read data first, then the metadata reads,
    each alphabetically); the entries are then taken. none without a ledger. -#}
{% macro _sj_cost_line() -%}
    {%- set ledger = skewjoin._sj_query_ledger() -%}
    {%- if ledger is none -%}
        {{- return(none) -}}
    {%- endif -%}
    {%- set total = namespace(queries=0, seconds=0.0, data=0) -%}
    {%- set kinds = {} -%}
    {%- for e in ledger if not e.taken -%}
        {%- do e.update({'taken': true}) -%}
        {%- set total.queries = total.queries + 1 -%}
        {%- set total.seconds = total.seconds + e.seconds -%}
        {%- set total.data = total.data + (1 if e.reads == 'data' else 0) -%}
        {%- set key = (0 if e.reads == 'data' else 1, e.kind) -%}
        {%- set counted = kinds.get(key, [0, 0.0]) -%}
        {%- do kinds.update({key: [counted[0] + 1, counted[1] + e.seconds]}) -%}
    {%- endfor -%}
    {%- if total.queries == 0 -%}
        {{- return('measuring cost: no compile-time query') -}}
    {%- endif -%}
    {%- set parts = [] -%}
    {%- for key in kinds | sort -%}
        {%- do parts.append(key[1] ~ ' ' ~ kinds[key][0] ~ ', ' ~ skewjoin._sj_seconds_text(kinds[key][1])) -%}
    {%- endfor -%}
    {%- set line = 'measuring cost: ' ~ total.queries ~ ' compile-time quer' ~ ('y' if total.queries == 1 else 'ies')
        ~ ' (' ~ total.data ~ ' reading data), ' ~ skewjoin._sj_seconds_text(total.seconds)
        ~ ' of wall time; by kind: ' ~ (parts | join('; ')) -%}
    {{- return(line) -}}
{%- endmacro %}
