{{ config(materialized='view') }}
-- A view as a dimension: a view has no statistics and no files of its own,
-- so its size is unknown.
select
    s.store_id,
    s.region as store_region
from {{ ref('star_stores') }} as s
where s.store_id < 40
