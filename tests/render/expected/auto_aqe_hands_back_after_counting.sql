/* skewjoin.skew_join decision record (model unit_model)
  inner join on a.k (int) = b.k (int); skew specification from config skew_join ('auto')
  auto: AQE regime (measure, or leave the join to AQE?): measure: Spark estimates a at 976.6 KiB and b at 351.6 KiB, a mean partition of 6.6 KiB over 200 shuffle partitions; the largest partition AQE leaves whole is a 39.1 KiB, b 14.1 KiB (max of skewedPartitionThresholdInBytes 1.0 KiB and skewedPartitionFactor 8.0 x the mean, at most the side), its pieces 1.0 KiB (advisoryPartitionSizeInBytes), against 5 x the mean partition, 33.2 KiB; AQE may leave a hot key whole
  skew measured on a (sketched: one query read every row of a once and counted its rows, NULL keys and input splits exactly, and its heaviest keys with a frequent-items sketch (approx_top_k, 1,000 keys tracked; 21 key(s) listed, each count exact: the side has no more rows than the sketch holds keys), and 1 key(s) the other side listed, exactly; <elapsed> s): 1000 rows in 4 input splits, 40 with a NULL key; heaviest keys: 0 60.0%; 1 0.8%; 10 0.8%; 2 0.8%; 3 0.8% (b's heavy keys counted exactly)
  skew measured on b (sketched: one query read every row of b once and counted its rows, NULL keys and input splits exactly, and its heaviest keys with a frequent-items sketch (approx_top_k, 1,000 keys tracked; 22 key(s) listed, each count exact: the side has no more rows than the sketch holds keys); <elapsed> s): 360 rows in 1 input splits, 0 with a NULL key; heaviest keys: 5 83.6%; 0 0.3%; 1 0.3%; 10 0.3%; 11 0.3%
  auto: rules min_share 0.01, max_keys 20, broadcast budget 100,000 rows, multicast budget 10,000,000 rows, 20 slots (from var('skewjoin_total_slots'))
  auto: key 5 (a 8 rows (0.8%), b 301 rows (83.6%)): hot key of b: broadcast a's 8 row(s) of this key
  auto: key 0 (a 600 rows (60.0%), b 1 rows (0.3%)): hot key of a: broadcast b's 1 row(s) of this key
  auto: NULL keys of a (4.0%): routed around the join (they never match)
  auto: AQE forecast, key 5: about 293.9 KiB (301 rows of b) against a skew bar of 2.3 KiB (max of 8.0 x the median 295 B, skewedPartitionThresholdInBytes 1.0 KiB); pieces of 1.0 KiB, at most one a map task (1): 1, against the skew plan's 1 (hot key of b, its 1 input splits)
  auto: AQE forecast, key 0: about 585.9 KiB (600 rows of a) against a skew bar of 14.1 KiB (max of 8.0 x the median 1.8 KiB, skewedPartitionThresholdInBytes 1.0 KiB); pieces of 1.8 KiB, at most one a map task (4): 4, against the skew plan's 4 (hot key of a, its 4 input splits)
  auto: AQE forecast, key NULL: about 39.1 KiB (40 rows of a) against a skew bar of 14.1 KiB (max of 8.0 x the median 1.8 KiB, skewedPartitionThresholdInBytes 1.0 KiB); pieces of 1.8 KiB, at most one a map task (4): 4, against the skew plan's 4 (NULL keys routed around the join)
  auto: AQE forecast (would Spark split the plain join itself?): yes (AQE on, 200 shuffle partitions, the join is the whole model), for every key: the plain join is written and AQE splits it (a skew plan would add work to a join AQE already balances)
  strategy: plain join, handed back to AQE (auto's forecast above: AQE splits every planned key as finely as the skew plan would)
  measuring cost: 21 compile-time queries (2 reading data), <elapsed> s of wall time; by kind: 'auto' counts 2, <elapsed> s; catalog 1, <elapsed> s; column lists 2, <elapsed> s; column statistics 2, <elapsed> s; settings 12, <elapsed> s; size estimates 2, <elapsed> s
*/
select
    a.id,
    a.k,
    b.label
from skewjoin_it.spread_left as a
inner join skewjoin_it.spread_right as b
    on a.k = b.k
