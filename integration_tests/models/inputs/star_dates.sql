-- Date dimension: every day of 2026 (the fact also sells in December 2025
-- and in 2027).
select
    date_add(date '2026-01-01', cast(d.id as int)) as date_key,
    year(date_add(date '2026-01-01', cast(d.id as int))) as year,
    month(date_add(date '2026-01-01', cast(d.id as int))) as month,
    date_format(date_add(date '2026-01-01', cast(d.id as int)), 'EEEE') as day_name
from range(365) as d
