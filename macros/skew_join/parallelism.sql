{#- Whether the skew plans pay on this Spark at all.

    A skewed key makes one task of the join a straggler: with P tasks
    running at once the join stage takes at most P times its balanced time,
    and on a cluster (P in the tens or hundreds) that straggler is the
    whole job. On a local Spark with two or three cores it is not: the
    straggler runs beside the other tasks, while every skew plan does work
    the plain join does not (hot keys read the hot side again, skew groups
    copy rows and shuffle a slot column). Measured on 2 cores (README,
    Performance), the plain join with AQE's defaults was faster than every
    skew plan in every scenario.

    So when Spark runs locally (spark.master local...) with fewer tasks at
    once than min_parallelism (skew option, else var
    skewjoin_min_parallelism, else 4), skew_join emits the plain join and
    says why. A cluster is never declined: its parallelism at compile time
    can be low only because dynamic allocation has not scaled up yet.
    An empty specification, min_parallelism 1 (no query) and a
    dbt-databricks target (a cluster or a SQL warehouse) read nothing and
    decline nothing. Both reads (SET
    spark.master, and a range() that counts the tasks of Spark's default
    parallelism) touch no data, so they run with compile-time queries off too.

    A measure: returns {'declined', 'parallelism' (none when not read),
    'master' (none when not read), 'minimum', 'source'}; `_sj_guard_record`
    says it. -#}
{% macro _sj_parallelism_guard(skew) -%}
    {%- set planned = {'declined': false, 'parallelism': none, 'master': none} -%}
    {%- if skew.empty -%}
        {{- return(planned) -}}
    {%- endif -%}
    {%- if skew.min_parallelism is not none -%}
        {%- set minimum = skew.min_parallelism -%}
        {%- set source = 'skew_join.min_parallelism' -%}
    {%- elif var('skewjoin_min_parallelism', none) is not none -%}
        {%- set minimum = skewjoin._sj_whole_number((skew.get('macro') or 'skew_join'), 'skew_join.min_parallelism',
            var('skewjoin_min_parallelism'), 1, '1',
            "min_parallelism (from var('skewjoin_min_parallelism')), a whole number") -%}
        {%- set source = "var('skewjoin_min_parallelism')" -%}
    {%- else -%}
        {%- set minimum = 4 -%}
        {%- set source = 'default' -%}
    {%- endif -%}
    {#- dbt-spark only: a dbt-databricks target is a cluster or a SQL warehouse (which may refuse to show
        spark.master) -#}
    {%- if minimum <= 1 or not execute or adapter.type() != 'spark' -%}
        {{- return(planned) -}}
    {%- endif -%}
    {%- set master = skewjoin._sj_spark_conf('spark.master', '') -%}
    {%- if not (master | lower).startswith('local') -%}
        {{- return(planned) -}}
    {%- endif -%}
    {%- set parallelism = skewjoin._sj_default_parallelism() -%}
    {{- return({'declined': parallelism < minimum, 'parallelism': parallelism, 'master': master, 'minimum': minimum,
                'source': source}) -}}
{%- endmacro %}
