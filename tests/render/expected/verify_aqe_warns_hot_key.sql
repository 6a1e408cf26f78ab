/* skewjoin.skew_join decision record (model unit_model)
  inner join on a.k (int) = b.k (int); skew specification from config skew_join
  hot key 0 of a verified: 60.0% of a's rows (600 of 1,000) >= 5% (one slot's even share, 1/20 slots): kept
  hot keys of a (declared): 0
  AQE forecast, key 0: about 585.9 KiB (600 rows of a) against a skew bar of 9.8 KiB (max of 5.0 x the median 2.0 KiB, skewedPartitionThresholdInBytes 1.0 KiB); pieces of 2.0 KiB, at most one a map task (4): 4, against the skew plan's 4 (hot key of a, its 4 input splits)
  AQE forecast for the declared plan (would Spark split the plain join itself?): yes (AQE on, 200 shuffle partitions, the join is the whole model), for every key: the declared plan is kept, see the warning
  warning: this hand-written skew specification will likely lose to AQE: in this session (AQE on, 200 shuffle partitions, the join is the whole model) AQE would split the plain join's partition of every declared key at least as finely as the specification spreads it: key 0 (hot key of a, its 4 input splits): about 585.9 KiB of a against the skew bar 9.8 KiB (max of skewedPartitionFactor 5.0 x the median partition 2.0 KiB, skewedPartitionThresholdInBytes 1.0 KiB); AQE cuts 4 pieces, the specification spreads it over 4. The specification is planned as written, but a hot-key branch reads both sides again: work added to a join AQE already balances. Remove skew_join from this model (the plain join), or use skew_join 'auto', which measures the keys and hands the join back to AQE where this forecast says so
  hot rows of a joined where they are read: its 4 input splits already use half or more of the 2 tasks Spark runs at once (default parallelism), so a spread would cost a shuffle of the hot rows and gain no parallelism
  hot branch for keys of a (0): a's hot rows inner join the broadcast rows of b with those keys; multicast: those rows of b are broadcast, one copy to each of the 4 tasks of the branch; no run-time count is made; rows never hash-shuffled by these keys
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

a_hot_a as (
    select * from a_hot_a_read
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
