-- Left input for type, NULL and duplicate tests: one logical key k per row
-- written in every supported key type. About 40% of the rows have k = 0
-- (hot), 10% k = 7, 5% a NULL key; the first 20 rows appear twice.
with base as (
    select
        id,
        case
            when pmod(id, 20) = 0 then null
            when pmod(id, 10) < 4 then 0
            when pmod(id, 10) = 4 then 7
            else pmod(xxhash64(id), 30) + 1
        end as k
    from range(400)
),

typed as (
    select
        id,
        cast(k as int) as k_int,
        cast(k as bigint) as k_big,
        cast(k as string) as k_str,
        cast(k + 0.25 as decimal(18, 4)) as k_dec,
        date_add(date '2026-01-01', cast(k as int)) as k_date,
        timestamp_seconds(1767225600 + k * 3600) as k_ts,
        case when k is null then null else element_at(array('EU', 'NA', 'APAC'), cast(pmod(id, 3) + 1 as int)) end as region,
        concat('left-', cast(id as string)) as payload
    from base
)

select
    typed.id,
    typed.k_int,
    typed.k_big,
    typed.k_str,
    typed.k_dec,
    typed.k_date,
    typed.k_ts,
    typed.region,
    typed.payload
from typed
union all
select
    typed.id,
    typed.k_int,
    typed.k_big,
    typed.k_str,
    typed.k_dec,
    typed.k_date,
    typed.k_ts,
    typed.region,
    typed.payload
from typed
where typed.id < 20
