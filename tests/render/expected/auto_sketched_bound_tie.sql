/* skewjoin.skew_join decision record (model unit_model)
  inner join on a.k (int) = b.k (int); skew specification from config skew_join ('auto')
  auto: AQE regime (measure, or leave the join to AQE?): measure: Spark estimates a at 39.1 KiB and b at 976.6 KiB, a mean partition of 5.1 KiB over 200 shuffle partitions; the largest partition AQE leaves whole is a 39.1 KiB, b 976.6 KiB (max of skewedPartitionThresholdInBytes 256.0 MiB and skewedPartitionFactor 5.0 x the mean, at most the side), its pieces 64.0 MiB (advisoryPartitionSizeInBytes), against 5 x the mean partition, 25.4 KiB; AQE may leave a hot key whole
  skew measured on a (sketched: one query read every row of a once and counted its rows, NULL keys and input splits exactly, and its heaviest keys with a frequent-items sketch (approx_top_k, 1,000 keys tracked; 3 key(s) listed, each count exact: the side has no more rows than the sketch holds keys); the 2 key(s) the other side listed were not counted here: the sketch puts each at most 2 rows, too few to change the plan; <elapsed> s): 245 rows in 4 input splits, 0 with a NULL key; heaviest keys: 100 0.8%; 101 0.8%; 102 0.8%
  skew measured on b (sketched: one query read every row of b once and counted its rows, NULL keys and input splits exactly, and its heaviest keys with a frequent-items sketch (approx_top_k, 1,000 keys tracked; 2 key(s) listed, each count exact: the side has no more rows than the sketch holds keys); <elapsed> s): 600 rows in 1 input splits, 0 with a NULL key; heaviest keys: 1 50.0%; 2 50.0%
  auto: rules min_share 0.01, max_keys 1, broadcast budget 100,000 rows, multicast budget 10,000,000 rows, 20 slots (from var('skewjoin_total_slots'))
  auto: key 1 (a at most 2 rows (0.8%), b 300 rows (50.0%)): hot key of b: broadcast a's at most 2 row(s) of this key
  auto: 1 more key(s) above min_share left to the shuffle join (max_keys 1)
  auto: AQE forecast, key 1: about 488.3 KiB (300 rows of b) against a skew bar of 256.0 MiB (max of 5.0 x the median 2.4 KiB, skewedPartitionThresholdInBytes 256.0 MiB); pieces of 64.0 MiB, at most one a map task (1): 1, against the skew plan's 1 (hot key of b, its 1 input splits)
  auto: AQE forecast (would Spark split the plain join itself?): not for every key (AQE on, 200 shuffle partitions, the join is the whole model): key 1: under twice the skew bar; the skew plan is kept
  auto: planned specification; to pin it (and skip the measuring), paste into the model (Jinja): {{ config(skew_join={'hot_keys': {'b': [1]}}) }}
  auto: the same specification in YAML (a properties file or dbt_project.yml): skew_join: {"hot_keys": {"b": [1]}}
  auto: pinned, that specification is counted at compile time as any declared one: a group or hot key under one slot's even share (1/20) is dropped; add 'verify': 0.01 to keep auto's min_share, or 'verify': false to plan it as written
  hot keys of b (planned from the measured counts): 1
  hot rows of b spread by xxhash64 of the whole row and its input split over 2 partitions: its input has only 1 splits (< spread_min_splits 8) for a default parallelism of 2, which would make the broadcast branch a straggler (cost: one shuffle of the hot rows (written and read once), no sort)
  hot branch for keys of b (1): b's hot rows inner join the broadcast rows of a with those keys; multicast: those rows of a are broadcast, one copy to each of the 2 tasks of the branch; no run-time count is made; rows never hash-shuffled by these keys
  strategy: hot keys by broadcast + plain shuffle join for the rest, results unioned
  measuring cost: 22 compile-time queries (2 reading data), <elapsed> s of wall time; by kind: 'auto' counts 2, <elapsed> s; catalog 1, <elapsed> s; column lists 2, <elapsed> s; column statistics 2, <elapsed> s; parallelism 1, <elapsed> s; settings 12, <elapsed> s; size estimates 2, <elapsed> s
*/
with

a_input as (
    select * from skewjoin_it.spread_left as sj_source
),

b_input as (
    select * from skewjoin_it.spread_right as sj_source
),

a_hot_b as (
    select * from a_input as a
    where coalesce(a.k in (cast(1 as int)), false)
),

a_rest as (
    select * from a_input as a
    where not (
        coalesce(a.k in (cast(1 as int)), false)
    )
),

b_hot_b_read as (
    select * from b_input as b
    where coalesce(b.k in (cast(1 as int)), false)
),

b_hot_b_hashed as (
    select *, xxhash64(b_hot_b_read.k, b_hot_b_read.label, spark_partition_id()) as sj_spread from b_hot_b_read
),

b_hot_b_spread as (
    select /*+ repartition(2, sj_spread) */ * from b_hot_b_hashed
),

b_hot_b as (
    select k, label from b_hot_b_spread
),

b_rest as (
    select * from b_input as b
    where not (
        coalesce(b.k in (cast(1 as int)), false)
    )
),

hot_b as (
    select /*+ broadcast(a) */
        a.id,
        a.k,
        b.label
    from b_hot_b as b
    inner join a_hot_b as a
        on a.k = b.k
),

rest_joined as (
    select
        a.id,
        a.k,
        b.label
    from a_rest as a
    inner join b_rest as b
        on a.k = b.k
)

select * from hot_b
union all
select * from rest_joined
