-- Date dimension for the pruning tests: 2025-12-01 .. 2026-03-31, one row a
-- day; the first five days of February appear twice (a duplicated dimension
-- row doubles the joined rows) and two rows have a NULL date_key.
with days as (
    select date_add(date '2025-12-01', cast(d.id as int)) as date_key
    from range(121) as d
),

dims as (
    select
        days.date_key,
        year(days.date_key) as year,
        month(days.date_key) as month,
        dayofweek(days.date_key) in (1, 7) as is_weekend
    from days
)

select
    dims.date_key,
    dims.year,
    dims.month,
    dims.is_weekend
from dims
union all
select
    dims.date_key,
    dims.year,
    dims.month,
    dims.is_weekend
from dims
where dims.date_key between date '2026-02-01' and date '2026-02-05'
union all
select
    cast(null as date) as date_key,
    2026 as year,
    2 as month,
    false as is_weekend
from range(2)
