/* skewjoin.skew_join decision record (model unit_model)
  full join on a.k (int) = b.k (int); skew specification from argument skew
  hot keys of a found at compile time (sketched: one query read every row of a once and counted its rows, NULL keys and input splits exactly, and its heaviest keys with a frequent-items sketch (approx_top_k, 1,000 keys tracked; 21 key(s) listed, each count exact: the side has no more rows than the sketch holds keys); <elapsed> s, 1000 rows in 4 input splits; min_share 0.01, max_keys 20): 0 60.0%; NULL 4.0%
  hot keys of b found at compile time (sketched: one query read every row of b once and counted its rows, NULL keys and input splits exactly, and its heaviest keys with a frequent-items sketch (approx_top_k, 1,000 keys tracked; 21 key(s) listed, each count exact: the side has no more rows than the sketch holds keys); <elapsed> s, 360 rows in 1 input splits; min_share 0.01, max_keys 20): 5 83.6%
  rows of a with a NULL key bypass the join (they can never match): kept once, the other side NULL
  hot rows of a joined where they are read: its 4 input splits already use half or more of the 2 tasks Spark runs at once (default parallelism), so a spread would cost a shuffle of the hot rows and gain no parallelism
  hot rows of b spread by xxhash64 of the whole row and its input split over 2 partitions: its input has only 1 splits (< spread_min_splits 8) for a default parallelism of 2, which would make the broadcast branch a straggler (cost: one shuffle of the hot rows (written and read once), no sort)
  hot branch for keys of a (0): a's hot rows left outer join the broadcast rows of b with those keys; multicast: those rows of b are broadcast, one copy to each of the 4 tasks of the branch; no run-time count is made; b is preserved: its rows of these keys with no match are found by an anti join against the broadcast distinct keys of a's hot rows; rows never hash-shuffled by these keys
  hot branch for keys of b (5): b's hot rows left outer join the broadcast rows of a with those keys; multicast: those rows of a are broadcast, one copy to each of the 2 tasks of the branch; no run-time count is made; a is preserved: its rows of these keys with no match are found by an anti join against the broadcast distinct keys of b's hot rows; rows of the keys of a's branch are left out, so a value hot on both sides is joined once, there; rows never hash-shuffled by these keys
  strategy: hot keys by broadcast + plain shuffle join for the rest, results unioned
  measuring cost: 7 compile-time queries (2 reading data), <elapsed> s of wall time; by kind: hot-key detection 2, <elapsed> s; catalog 1, <elapsed> s; column lists 2, <elapsed> s; parallelism 1, <elapsed> s; settings 1, <elapsed> s
*/
with

a_input as (
    select * from skewjoin_it.spread_left as sj_source
),

b_input as (
    select * from skewjoin_it.spread_right as sj_source
),

a_null_keys as (
    select * from a_input as a
    where (a.k is null)
),

a_null_keys_kept as (
    select
        a.id,
        a.k,
        b.label
    from a_null_keys as a
    left outer join (select * from b_input where false) as b
        on false
),

a_hot_a_read as (
    select * from a_input as a
    where coalesce(a.k in (cast(0 as int)), false)
),

a_hot_a as (
    select * from a_hot_a_read
),

a_hot_b as (
    select * from a_input as a
    where (coalesce(a.k in (cast(5 as int)), false) and not coalesce(a.k in (cast(0 as int)), false))
),

a_rest as (
    select * from a_input as a
    where not (
        (a.k is null)
        or coalesce(a.k in (cast(0 as int)), false)
        or coalesce(a.k in (cast(5 as int)), false)
    )
),

b_hot_a as (
    select * from b_input as b
    where coalesce(b.k in (cast(0 as int)), false)
),

b_hot_b_read as (
    select * from b_input as b
    where (coalesce(b.k in (cast(5 as int)), false) and not coalesce(b.k in (cast(0 as int)), false))
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
        coalesce(b.k in (cast(0 as int)), false)
        or coalesce(b.k in (cast(5 as int)), false)
    )
),

hot_a as (
    select /*+ broadcast(b) */
        a.id,
        a.k,
        b.label
    from a_hot_a as a
    left outer join b_hot_a as b
        on a.k = b.k
),

a_hot_a_keys as (
    select distinct a.k
    from a_hot_a_read as a
),

b_hot_a_unmatched as (
    select /*+ broadcast(a) */ b.*
    from b_hot_a as b
    left anti join a_hot_a_keys as a
        on a.k = b.k
),

b_hot_a_unmatched_kept as (
    select
        a.id,
        a.k,
        b.label
    from b_hot_a_unmatched as b
    left outer join (select * from a_input where false) as a
        on false
),

hot_b as (
    select /*+ broadcast(a) */
        a.id,
        a.k,
        b.label
    from b_hot_b as b
    left outer join a_hot_b as a
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
    full outer join b_rest as b
        on a.k = b.k
)

select * from a_null_keys_kept
union all
select * from hot_a
union all
select * from b_hot_a_unmatched_kept
union all
select * from hot_b
union all
select * from a_hot_b_unmatched_kept
union all
select * from rest_joined
