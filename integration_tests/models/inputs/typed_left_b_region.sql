-- typed_left with one more column, b_region: the name a default output of a
-- join with typed_right (alias b) would give b's `region`, which clashes with
-- a's; the output builder must pick a free name instead.
select
    typed_left.id,
    typed_left.k_int,
    typed_left.k_big,
    typed_left.k_str,
    typed_left.k_dec,
    typed_left.k_date,
    typed_left.k_ts,
    typed_left.region,
    typed_left.payload,
    concat('own-', typed_left.region) as b_region
from {{ ref('typed_left') }} as typed_left
