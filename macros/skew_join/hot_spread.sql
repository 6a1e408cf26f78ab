{#- The spread of a side's hot rows before the broadcast join.

    Should the hot rows of `side` be spread before the broadcast join?
    The hot branch runs in as many tasks as the side has input splits. A
    spread helps only when those splits leave cores idle: it is made when the
    splits are fewer than spread_min_splits AND at most half the parallelism
    Spark has (the default parallelism of range(), i.e. the executors' cores;
    so a 2-core local Spark reading 2 splits never spreads). The spread is
    one shuffle of the hot rows, hash-partitioned by xxhash64 of the whole
    row (deterministic on retry, no sort, which a round-robin repartition
    needs), over spread_partitions or min(total slots, parallelism)
    partitions. -#}


{#- The measure the rule needs for `side`: {'total' (slots), 'splits' (of
    its input, when not counted already), 'off' (why it could not count
    them), 'parallelism'}. `known` holds the parallelism read so far (read
    once per model). -#}
{% macro _sj_measure_spread(j, hot, side, known) -%}
    {%- set opts = hot.options -%}
    {%- set facts = {'splits': none, 'off': none, 'parallelism': none} -%}
    {%- if opts.spread == 'never' -%}
        {{- return(facts) -}}
    {%- endif -%}
    {%- do facts.update({'total': skewjoin._sj_total_slots(hot.skew)[0] | int}) -%}
    {%- set splits = hot.get('splits_' ~ side) -%}
    {%- if opts.spread == 'always' -%}
        {{- return(facts) -}}
    {%- elif splits is none and not skewjoin._sj_queries_allowed() -%}
        {%- do facts.update({'off': skewjoin._sj_queries_off_reason()}) -%}
        {{- return(facts) -}}
    {%- elif splits is none -%}
        {%- set probe -%}
select count(distinct sj_split) as sj_splits
from (select spark_partition_id() as sj_split from {{ j[side]['from'] }} as sj_probe) as sj_probe
        {%- endset -%}
        {%- set splits = skewjoin._sj_run_query(probe).rows[0][0] | int -%}
        {%- do facts.update({'splits': splits}) -%}
    {%- endif -%}
    {%- if splits >= (opts.spread_min_splits | int) -%}
        {{- return(facts) -}}
    {%- endif -%}
    {%- if known.parallelism is none -%}
        {%- do known.update({'parallelism': skewjoin._sj_default_parallelism()}) -%}
    {%- endif -%}
    {%- do facts.update({'parallelism': known.parallelism}) -%}
    {{- return(facts) -}}
{%- endmacro %}


{#- The decision (pure, from `_sj_measure_spread`): {'spread', 'partitions',
    'tasks' (how many tasks the hot branch runs in; each gets a copy of the
    broadcast rows), 'why' ('never', 'always', 'off', 'splits', 'half' or
    'idle'), 'splits', 'parallelism'}. -#}
{% macro _sj_hot_spread(hot, side, facts) -%}
    {%- set opts = hot.options -%}
    {%- if opts.spread == 'never' -%}
        {{- return({'spread': false, 'tasks': hot.get('splits_' ~ side), 'why': 'never'}) -}}
    {%- elif opts.spread == 'always' -%}
        {%- set partitions = (opts.spread_partitions or facts.total) | int -%}
        {{- return({'spread': true, 'partitions': partitions, 'tasks': partitions, 'why': 'always'}) -}}
    {%- elif facts.off is not none -%}
        {{- return({'spread': false, 'tasks': none, 'why': 'off', 'off': facts.off}) -}}
    {%- endif -%}
    {%- set splits = hot.get('splits_' ~ side) if facts.splits is none else facts.splits -%}
    {%- set out = {'spread': false, 'tasks': splits, 'splits': splits, 'parallelism': facts.parallelism} -%}
    {%- if splits >= (opts.spread_min_splits | int) -%}
        {%- do out.update({'why': 'splits'}) -%}
    {%- elif splits * 2 > facts.parallelism -%}
        {%- do out.update({'why': 'half'}) -%}
    {%- else -%}
        {%- set partitions = (opts.spread_partitions or ([facts.total, facts.parallelism] | min)) | int -%}
        {%- do out.update({'spread': true, 'partitions': partitions, 'tasks': partitions, 'why': 'idle'}) -%}
    {%- endif -%}
    {{- return(out) -}}
{%- endmacro %}
