-- depends_on: {{ ref('star_customers') }}, {{ ref('star_stores') }}
-- Path-based dimensions (parquet.`/path`): their size is the sum of their
-- files. The paths are the locations of two input tables, read here (from
-- the tables' names: under --empty a ref() renders as an empty subquery).
{%- set loc = namespace(customers='/nowhere', stores='/nowhere') -%}
{%- if execute -%}
    {%- for row in run_query('describe table extended ' ~ ref('star_customers').schema ~ '.' ~ ref('star_customers').identifier).rows if row[0] == 'Location' -%}
        {%- set loc.customers = row[1] -%}
    {%- endfor -%}
    {%- for row in run_query('describe table extended ' ~ ref('star_stores').schema ~ '.' ~ ref('star_stores').identifier).rows if row[0] == 'Location' -%}
        {%- set loc.stores = row[1] -%}
    {%- endfor -%}
{%- endif %}
{{ skewjoin.star_join(ref('star_sales'), [
    {'relation': 'parquet.`' ~ loc.customers ~ '`', 'alias': 'c', 'on': ['customer_id'], 'join_type': 'left', 'size_factor': 2},
    {'relation': 'select store_id, store_name from parquet.`' ~ loc.stores ~ '` where region = \'EU\'', 'alias': 's', 'on': ['store_id']}
], columns=['f.sale_id', 'f.customer_id', 'c.segment', 's.store_name']) }}
