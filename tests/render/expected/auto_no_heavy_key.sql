/* skewjoin.skew_join decision record (model unit_model)
  inner join on a.k (int) = b.k (int); skew specification from config skew_join ('auto')
  skew measured on a (sketched: one query read every row of a once and counted its rows, NULL keys and input splits exactly, and its heaviest keys with a frequent-items sketch (approx_top_k, 1,000 keys tracked; 22 key(s) listed, each count exact: the side has no more rows than the sketch holds keys); <elapsed> s): 500 rows in 4 input splits, 0 with a NULL key; heaviest keys: 0 0.2%; 1 0.2%; 10 0.2%; 100 0.2%; 101 0.2%
  skew measured on b (sketched: one query read every row of b once and counted its rows, NULL keys and input splits exactly, and its heaviest keys with a frequent-items sketch (approx_top_k, 1,000 keys tracked; 22 key(s) listed, each count exact: the side has no more rows than the sketch holds keys); <elapsed> s): 500 rows in 1 input splits, 0 with a NULL key; heaviest keys: 0 0.2%; 1 0.2%; 10 0.2%; 100 0.2%; 101 0.2%
  auto: rules min_share 0.01, max_keys 20, broadcast budget 100,000 rows, multicast budget 10,000,000 rows, 20 slots (from var('skewjoin_total_slots'))
  auto: no key of either side holds 1.0% (min_share) of its rows
  strategy: plain join (no skew groups and no hot keys)
  measuring cost: 21 compile-time queries (2 reading data), <elapsed> s of wall time; by kind: 'auto' counts 2, <elapsed> s; catalog 1, <elapsed> s; column lists 2, <elapsed> s; column statistics 2, <elapsed> s; settings 12, <elapsed> s; size estimates 2, <elapsed> s
*/
select
    a.id,
    a.k,
    b.label
from skewjoin_it.spread_left as a
inner join skewjoin_it.spread_right as b
    on a.k = b.k
