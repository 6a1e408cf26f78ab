-- analyze=true: a table without statistics gets them from ANALYZE TABLE
-- ... COMPUTE STATISTICS NOSCAN before its size is read.
{{ config(star_join={'analyze': true}) }}
{{ skewjoin.star_join(ref('star_sales'), [
    {'relation': ref('star_warehouses'), 'alias': 'w', 'on': ['warehouse_id']}
]) }}
