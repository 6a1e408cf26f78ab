-- Benchmark: bench_aggregated_plain with the join done by hot keys (the
-- configuration of bench_skewed_hot_keys), then the same aggregate by key.
{{ config(enabled=var('skewjoin_bench', false)) }}
{%- set hot = [] -%}
{%- for key in var('skewjoin_bench_hot_keys', [0]) -%}
    {%- do hot.append(key | int) -%}
{%- endfor %}
{{ bench_skew_join('aggregated', {'hot_keys': {'f': hot}, 'total_slots': var('skewjoin_bench_total_slots', 200)}) }}
