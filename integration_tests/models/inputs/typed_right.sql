-- Right input: 90 rows; k = 0 appears 5 times (a hot key that fans out),
-- keys 31..39 match nothing on the left, every 15th key is NULL, and the
-- first 10 rows appear twice.
with base as (
    select
        id as rid,
        case
            when pmod(id, 15) = 0 then null
            when id < 6 then 0
            else pmod(xxhash64(id, 9), 40)
        end as k
    from range(90)
),

typed as (
    select
        rid,
        cast(k as int) as k_int,
        cast(k as bigint) as k_big,
        cast(k as string) as k_str,
        cast(k + 0.25 as decimal(10, 2)) as k_dec2,
        date_add(date '2026-01-01', cast(k as int)) as k_date,
        timestamp_seconds(1767225600 + k * 3600) as k_ts,
        case when k is null then null else element_at(array('EU', 'NA', 'APAC'), cast(pmod(rid, 3) + 1 as int)) end as region,
        concat('right-', cast(rid as string)) as attr
    from base
)

select
    typed.rid,
    typed.k_int,
    typed.k_big,
    typed.k_str,
    typed.k_dec2,
    typed.k_date,
    typed.k_ts,
    typed.region,
    typed.attr
from typed
union all
select
    typed.rid,
    typed.k_int,
    typed.k_big,
    typed.k_str,
    typed.k_dec2,
    typed.k_date,
    typed.k_ts,
    typed.region,
    typed.attr
from typed
where typed.rid < 10
