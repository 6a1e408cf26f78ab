/* skewjoin.skew_join decision record (model unit_model)
  left join on a.rid (bigint) = b.id (bigint); skew specification from argument skew
  hot keys of a found at compile time (sketched: one query read every row of a once and counted its rows, NULL keys and input splits exactly, and its heaviest keys with a frequent-items sketch (approx_top_k, 1,000 keys tracked; 21 key(s) listed, each count exact: the side has no more rows than the sketch holds keys); <elapsed> s, 90 rows in 1 input splits; min_share 0.5, max_keys 20): none above the threshold
  hot keys: none to handle, so no hot-key branch
  strategy: plain join (no skew groups, hot keys declined)
  measuring cost: 5 compile-time queries (1 reading data), <elapsed> s of wall time; by kind: hot-key detection 1, <elapsed> s; catalog 1, <elapsed> s; column lists 2, <elapsed> s; settings 1, <elapsed> s
*/
select
    a.rid
from skewjoin_it.typed_right as a
left outer join skewjoin_it.typed_left as b
    on a.rid = b.id
