{#- The one error of a public macro on an adapter other than spark or
    databricks (their `default__` implementation). `why`: what the macro
    needs of Spark. -#}
{% macro _sj_spark_only(macro_name, why) -%}
    {%- set problem -%}
{{ macro_name }} {{ why }}; it supports the spark and databricks adapters; this target uses {{ adapter.type() }}
    {%- endset -%}
    {%- do skewjoin._sj_raise(macro_name, 'adapter', problem, 'a profile with type: spark') -%}
{%- endmacro %}
