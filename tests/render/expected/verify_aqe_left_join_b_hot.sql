/* skewjoin.skew_join decision record (model unit_model)
  left join on a.k (int) = b.k (int); skew specification from config skew_join
  hot key 5 of b verified: 83.6% of b's rows (301 of 360) >= 5% (one slot's even share, 1/20 slots): kept
  hot keys of b (declared): 5
  AQE forecast for the declared plan (would Spark split the plain join itself?): not for every key (AQE on, 200 shuffle partitions, the join is the whole model): key 5: AQE never splits b in a left join
  hot rows of b spread by xxhash64 of the whole row and its input split over 2 partitions: its input has only 1 splits (< spread_min_splits 8) for a default parallelism of 2, which would make the broadcast branch a straggler (cost: one shuffle of the hot rows (written and read once), no sort)
  hot branch for keys of b (5): b's hot rows inner join the broadcast rows of a with those keys; multicast: those rows of a are broadcast, one copy to each of the 2 tasks of the branch; no run-time count is made; a is preserved: its rows of these keys with no match are found by an anti join against the broadcast distinct keys of b's hot rows; rows never hash-shuffled by these keys
  strategy: hot keys by broadcast + plain shuffle join for the rest, results unioned
  measuring cost: 16 compile-time queries (1 reading data), <elapsed> s of wall time; by kind: verification 1, <elapsed> s; column lists 2, <elapsed> s; parallelism 1, <elapsed> s; settings 12, <elapsed> s
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
    where coalesce(a.k in (cast(5 as int)), false)
),

a_rest as (
    select * from a_input as a
    where not (
        coalesce(a.k in (cast(5 as int)), false)
    )
),

b_hot_b_read as (
    select * from b_input as b
    where coalesce(b.k in (cast(5 as int)), false)
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
        coalesce(b.k in (cast(5 as int)), false)
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

b_hot_b_keys as (
    select distinct b.k
    from b_hot_b_read as b
),

a_hot_b_unmatched as (
    select /*+ broadcast(b) */ a.*
    from a_hot_b as a
    left anti join b_hot_b_keys as b
        on a.k = b.k
),

a_hot_b_unmatched_kept as (
    select
        a.id,
        a.k,
        b.label
    from a_hot_b_unmatched as a
    left outer join (select * from b_input where false) as b
        on false
),

rest_joined as (
    select
        a.id,
        a.k,
        b.label
    from a_rest as a
    left outer join b_rest as b
        on a.k = b.k
)

select * from hot_b
union all
select * from a_hot_b_unmatched_kept
union all
select * from rest_joined
