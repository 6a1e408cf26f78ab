/* skewjoin.skew_join decision record (model unit_model)
  inner join on a.k (int) = b.k (int); skew specification from config skew_join
  hot key 0 of a verified: 60.0% of a's rows (600 of 1,000) >= 5% (one slot's even share, 1/20 slots): kept
  hot keys of a (declared): 0
  AQE forecast, key 0: about 585.9 KiB (600 rows of a) against a skew bar of 9.8 KiB (max of 5.0 x the median 2.0 KiB, skewedPartitionThresholdInBytes 1.0 KiB); pieces of 2.0 KiB, at most one a map task (4): 4, against the skew plan's 20 (hot key of a, spread over 20 partitions)
  AQE forecast for the declared plan (would Spark split the plain join itself?): not for every key (AQE on, 200 shuffle partitions, the join is the whole model): key 0: AQE would cut 4 pieces, the skew plan spreads it over 20
  hot rows of a spread by xxhash64 of the whole row and its input split over 20 partitions: its input has only 4 splits (< spread_min_splits 8) for a default parallelism of 64, which would make the broadcast branch a straggler (cost: one shuffle of the hot rows (written and read once), no sort)
  hot branch for keys of a (0): a's hot rows inner join the broadcast rows of b with those keys; multicast: those rows of b are broadcast, one copy to each of the 20 tasks of the branch; no run-time count is made; rows never hash-shuffled by these keys
  strategy: hot keys by broadcast + plain shuffle join for the rest, results unioned
  measuring cost: 17 compile-time queries (1 reading data), <elapsed> s of wall time; by kind: verification 1, <elapsed> s; column lists 2, <elapsed> s; parallelism 1, <elapsed> s; settings 12, <elapsed> s; size estimates 1, <elapsed> s
*/
with

a_input as (
    select * from skewjoin_it.spread_left as sj_source
),

b_input as (
    select * from skewjoin_it.spread_right as sj_source
),

a_hot_a_read as (
    select * from a_input as a
    where coalesce(a.k in (cast(0 as int)), false)
),

a_hot_a_hashed as (
    select *, xxhash64(a_hot_a_read.id, a_hot_a_read.k, spark_partition_id()) as sj_spread from a_hot_a_read
),

a_hot_a_spread as (
    select /*+ repartition(20, sj_spread) */ * from a_hot_a_hashed
),

a_hot_a as (
    select id, k from a_hot_a_spread
),

a_rest as (
    select * from a_input as a
    where not (
        coalesce(a.k in (cast(0 as int)), false)
    )
),

b_hot_a as (
    select * from b_input as b
    where coalesce(b.k in (cast(0 as int)), false)
),

b_rest as (
    select * from b_input as b
    where not (
        coalesce(b.k in (cast(0 as int)), false)
    )
),

hot_a as (
    select /*+ broadcast(b) */
        a.id,
        a.k,
        b.label
    from a_hot_a as a
    inner join b_hot_a as b
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

select * from hot_a
union all
select * from rest_joined
