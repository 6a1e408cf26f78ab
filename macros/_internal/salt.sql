{#- The salt of a row that is spread: a skew group's `distribute: random`
    slot (`_sj_salt_slot`) and the hot branch's spread (`_sj_salt_hash`).
    Both take the input split the row is read in (`spark_partition_id()`,
    evaluated where the side is read: the salting projection sits on the
    side's scan, below the join's shuffle) besides the row.

    Why the split: a hash of the row alone gives identical rows one value, so
    a side whose hot rows are all alike (a SELECT of the key and a constant)
    put every hot row on one slot. A group's slot is the row's hash modulo
    the slots, moved on by the split's number: identical rows read in s
    different splits take min(s, slots) different slots (consecutive ones
    from the row's own), and distinct rows stay spread by their hash. The
    hot branch's spread hashes the row and the split together (its rows are
    repartitioned by that hash, so consecutive values would not help).

    Why it stays deterministic: the value depends on the row and on which
    split holds it, never on the order of rows within a split or on a random
    draw. A re-run task reads the same split (file scans, and hash shuffles,
    whose partitions hold the same rows on every attempt), so every row gets
    the slot the first attempt gave it. Spark marks spark_partition_id()
    nondeterministic, which only keeps the optimizer from moving or
    duplicating the projection (it is not pushed through filters, not
    collapsed into its consumers): it stays on the scan, where the split is
    the one the row was read in. Identical rows within one split still share
    a slot; 'auto' measures that and says so (identical_rows.sql). No
    arithmetic here can overflow: pmod's result is below `slots`. -#}

{#- The slot index (0 to slots - 1) of a row of a random group. -#}
{% macro _sj_salt_slot(columns, alias, slots) -%}
    {{- return('pmod(pmod(' ~ skewjoin._sj_row_hash(columns, alias) ~ ', ' ~ slots ~ ') + spark_partition_id(), '
               ~ slots ~ ')') -}}
{%- endmacro %}


{#- The hash the hot branch's spread repartitions by. -#}
{% macro _sj_salt_hash(columns, alias) -%}
    {%- set row_hash = skewjoin._sj_row_hash(columns, alias) -%}
    {{- return(row_hash[:-1] ~ ', spark_partition_id())') -}}
{%- endmacro %}
