{#- A second dimension without catalog statistics (see star_channels), for
    the test that runs ANALYZE TABLE on it (analyze=true writes statistics,
    so no other test uses this table). -#}
{%- set warehouse_rows -%}
select
    cast(w.id as int) as warehouse_id,
    concat('warehouse ', cast(w.id as string)) as warehouse_name
from range(6) as w
{%- endset -%}
{{ config(post_hook=["truncate table {{ this }}", "insert into {{ this }} " ~ warehouse_rows]) }}
{{ warehouse_rows }}
