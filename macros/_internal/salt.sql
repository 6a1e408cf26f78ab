{#- The salt of a row that is spread (a skew group's `distribute: random`, the
    hot branch's spread): xxhash64 of its columns and of the input split it is
    read in, `spark_partition_id()` evaluated where the side is read (the
    salting projection sits on the side's scan, below the join's shuffle).

    Why the split: a hash of the row alone gives identical rows one value, so
    a side whose hot rows are all alike (a SELECT of the key and a constant)
    put every hot row on one slot. With the split, identical rows read in
    different splits get different slots: a hot key reaches up to as many
    slots as the splits holding it.

    Why it stays deterministic: the value depends on the row and on which
    split holds it, never on the order of rows within a split or on a random
    draw. A re-run task reads the same split (file scans, and hash shuffles,
    whose partitions hold the same rows on every attempt), so every row gets
    the slot the first attempt gave it. Spark marks spark_partition_id()
    nondeterministic, which only keeps the optimizer from moving or
    duplicating the projection (it is not pushed through filters, not
    collapsed into its consumers): it stays on the scan, where the split is
    the one the row was read in. Identical rows within one split still share
    a slot; 'auto' measures that and says so (identical_rows.sql). -#}
{% macro _sj_salt_hash(columns, alias) -%}
    {%- set row_hash = skewjoin._sj_row_hash(columns, alias) -%}
    {{- return(row_hash[:-1] ~ ', spark_partition_id())') -}}
{%- endmacro %}
