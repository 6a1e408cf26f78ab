{#- A dimension without catalog statistics: the CTAS records the table's
    size, the TRUNCATE of the post-hook drops it, and the INSERT that refills
    the table does not add it back (spark.sql.statistics.size.autoUpdate.enabled
    is false by default). -#}
{%- set channel_rows -%}
select
    cast(c.id as int) as channel_id,
    element_at(array('web', 'store', 'phone', 'partner'), cast(pmod(c.id, 4) + 1 as int)) as channel_name
from range(8) as c
{%- endset -%}
{{ config(post_hook=["truncate table {{ this }}", "insert into {{ this }} " ~ channel_rows]) }}
{{ channel_rows }}
