-- Promotions by (promo_code, store_id): a two-column key. Codes P0..P4 in
-- even stores below 40 (the fact has P0..P6 in every store).
select
    cast(2 * floor(p.id / 5) as int) as store_id,
    cast(5 + pmod(p.id, 4) * 5 as decimal(5, 2)) as discount_pct,
    concat('P', cast(pmod(p.id, 5) as string)) as promo_code
from range(100) as p
