-- Promotions on (date_key, store_id) pairs: a two-column key. Some pairs are
-- duplicated, some fall outside the fact's dates, some have a NULL part.
select
    date_add(date '2026-01-20', cast(pmod(p.id * 7, 45) as int)) as date_key,
    cast(pmod(p.id * 3, 22) as int) as store_id,
    case when pmod(p.id, 4) = 0 then 'holiday' else 'discount' end as promo_type
from range(80) as p
union all
select
    case when p.id = 0 then cast(null as date) else date '2026-01-25' end as date_key,
    case when p.id = 1 then cast(null as int) else 3 end as store_id,
    'holiday' as promo_type
from range(3) as p
