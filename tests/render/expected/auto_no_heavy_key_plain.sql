/* skewjoin.skew_join decision record (model unit_model)
  inner join on a.k (int) = b.k (int); skew specification from none
  strategy: plain join (no skew groups and no hot keys)
*/
select
    a.id,
    a.k,
    b.label
from skewjoin_it.spread_left as a
inner join skewjoin_it.spread_right as b
    on a.k = b.k
