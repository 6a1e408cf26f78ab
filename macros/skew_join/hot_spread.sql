{#- The spread of a side's hot rows before the broadcast join. -#}


{#- Should the hot rows of `side` be spread before the broadcast join?
    The hot branch runs in as many tasks as the side has input splits. A
    spread helps only when those splits leave cores idle: it is made when the
    splits are fewer than spread_min_splits AND at most half the parallelism
    Spark has (the default parallelism of range(), i.e. the executors' cores;
    so a 2-core local Spark reading 2 splits never spreads). The spread is
    one shuffle of the hot rows, hash-partitioned by xxhash64 of the whole
    row (deterministic on retry, no sort, which a round-robin repartition
    needs), over spread_partitions or min(total slots, parallelism)
    partitions. Returns {'spread', 'partitions', 'tasks', 'line'}: `tasks`
    is how many tasks the hot branch runs in (each gets a copy of the
    broadcast rows). -#}
{% macro _sj_hot_spread(j, hot, side) -%}
    {%- set opts = hot.options -%}
    {%- set alias = j[side].alias -%}
    {%- set cost = 'cost: one shuffle of the hot rows (written and read once), no sort' -%}
    {%- if opts.spread == 'never' -%}
        {{- return({'spread': false, 'tasks': hot.get('splits_' ~ side),
                    'line': 'hot rows of ' ~ alias ~ ' not spread (spread: never)'}) -}}
    {%- endif -%}
    {%- set total = skewjoin._sj_total_slots(hot.skew)[0] | int -%}
    {%- if opts.spread == 'always' -%}
        {%- set partitions = (opts.spread_partitions or total) | int -%}
        {%- set line -%}
hot rows of {{ alias }} spread by xxhash64 of the whole row and its input split over {{ partitions }} partitions before the broadcast
join (spread: always; {{ cost }})
        {%- endset -%}
        {{- return({'spread': true, 'partitions': partitions, 'tasks': partitions,
                    'line': line | replace('\n', ' ')}) -}}
    {%- endif -%}
    {%- set splits = hot.get('splits_' ~ side) -%}
    {%- if splits is none and not skewjoin._sj_queries_allowed() -%}
        {{- return({'spread': false, 'tasks': none, 'line': 'hot rows of ' ~ alias ~ ' not spread: counting its input'
                    ~ ' splits needs a query and run-time queries are off ' ~ skewjoin._sj_queries_off_reason()}) -}}
    {%- endif -%}
    {%- if splits is none -%}
        {%- set probe -%}
select count(distinct sj_split) as sj_splits
from (select spark_partition_id() as sj_split from {{ j[side]['from'] }} as sj_probe) as sj_probe
        {%- endset -%}
        {%- set splits = skewjoin._sj_run_query(probe).rows[0][0] | int -%}
    {%- endif -%}
    {%- if splits >= (opts.spread_min_splits | int) -%}
        {{- return({'spread': false, 'tasks': splits, 'line': 'hot rows of ' ~ alias ~ ' joined where they are read:'
                    ~ ' its input has ' ~ splits ~ ' splits (>= spread_min_splits ' ~ opts.spread_min_splits ~ ')'}) -}}
    {%- endif -%}
    {#- the parallelism (read once per model: the guard may have read it already) -#}
    {%- if hot.parallelism is none -%}
        {%- do hot.update({'parallelism': skewjoin._sj_default_parallelism()}) -%}
    {%- endif -%}
    {%- set parallelism = hot.parallelism -%}
    {%- if splits * 2 > parallelism -%}
        {%- set line -%}
hot rows of {{ alias }} joined where they are read: its {{ splits }} input splits already use half or more of the
{{ parallelism }} tasks Spark runs at once (default parallelism), so a spread would cost a shuffle of the hot rows
and gain no parallelism
        {%- endset -%}
        {{- return({'spread': false, 'tasks': splits, 'line': line | replace('\n', ' ')}) -}}
    {%- endif -%}
    {%- set partitions = (opts.spread_partitions or ([total, parallelism] | min)) | int -%}
    {%- set line -%}
hot rows of {{ alias }} spread by xxhash64 of the whole row and its input split over {{ partitions }} partitions: its input has only
{{ splits }} splits (< spread_min_splits {{ opts.spread_min_splits }}) for a default parallelism of {{ parallelism }},
which would make the broadcast branch a straggler ({{ cost }})
    {%- endset -%}
    {{- return({'spread': true, 'partitions': partitions, 'tasks': partitions, 'line': line | replace('\n', ' ')}) -}}
{%- endmacro %}
