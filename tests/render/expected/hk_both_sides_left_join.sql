/* skewjoin.skew_join decision record (model unit_model)
  left join on a.k_int (int) = b.k_int (int); skew specification from argument skew
  hot keys of a not verified against the data (verify false, from var('skewjoin_verify'))
  hot keys of a (declared): 0 + NULL keys
  hot keys of b not verified against the data (verify false, from var('skewjoin_verify'))
  hot keys of b (declared): 7
  rows of a with a NULL key bypass the join (they can never match): kept once, the other side NULL
  hot rows of a spread by xxhash64 of the whole row and its input split over 2 partitions: its input has only 1 splits (< spread_min_splits 8) for a default parallelism of 2, which would make the broadcast branch a straggler (cost: one shuffle of the hot rows (written and read once), no sort)
  hot rows of b spread by xxhash64 of the whole row and its input split over 2 partitions: its input has only 1 splits (< spread_min_splits 8) for a default parallelism of 2, which would make the broadcast branch a straggler (cost: one shuffle of the hot rows (written and read once), no sort)
  hot branch for keys of a (0): a's hot rows left outer join the broadcast rows of b with those keys; multicast: those rows of b are broadcast, one copy to each of the 2 tasks of the branch; no run-time count is made; rows never hash-shuffled by these keys
  hot branch for keys of b (7): b's hot rows inner join the broadcast rows of a with those keys; multicast: those rows of a are broadcast, one copy to each of the 2 tasks of the branch; no run-time count is made; a is preserved: its rows of these keys with no match are found by an anti join against the broadcast distinct keys of b's hot rows; rows of the keys of a's branch are left out, so a value hot on both sides is joined once, there; rows never hash-shuffled by these keys
  strategy: hot keys by broadcast + plain shuffle join for the rest, results unioned
  measuring cost: 6 compile-time queries (2 reading data), <elapsed> s of wall time; by kind: input splits 2, <elapsed> s; column lists 2, <elapsed> s; parallelism 1, <elapsed> s; settings 1, <elapsed> s
*/
with

a_input as (
    select * from skewjoin_it.typed_left as sj_source
),

b_input as (
    select * from skewjoin_it.typed_right as sj_source
),

a_null_keys as (
    select * from a_input as a
    where (a.k_int is null)
),

a_null_keys_kept as (
    select
        a.id,
        b.rid
    from a_null_keys as a
    left outer join (select * from b_input where false) as b
        on false
),

a_hot_a_read as (
    select * from a_input as a
    where coalesce(a.k_int in (cast(0 as int)), false)
),

a_hot_a_hashed as (
    select *, xxhash64(a_hot_a_read.id, a_hot_a_read.k_int, a_hot_a_read.k_big, a_hot_a_read.k_str, a_hot_a_read.k_dec, a_hot_a_read.k_date, a_hot_a_read.k_ts, a_hot_a_read.region, a_hot_a_read.payload, spark_partition_id()) as sj_spread from a_hot_a_read
),

a_hot_a_spread as (
    select /*+ repartition(2, sj_spread) */ * from a_hot_a_hashed
),

a_hot_a as (
    select id, k_int, k_big, k_str, k_dec, k_date, k_ts, region, payload from a_hot_a_spread
),

a_hot_b as (
    select * from a_input as a
    where (coalesce(a.k_int in (cast(7 as int)), false) and not coalesce(a.k_int in (cast(0 as int)), false))
),

a_rest as (
    select * from a_input as a
    where not (
        (a.k_int is null)
        or coalesce(a.k_int in (cast(0 as int)), false)
        or coalesce(a.k_int in (cast(7 as int)), false)
    )
),

b_hot_a as (
    select * from b_input as b
    where coalesce(b.k_int in (cast(0 as int)), false)
),

b_hot_b_read as (
    select * from b_input as b
    where (coalesce(b.k_int in (cast(7 as int)), false) and not coalesce(b.k_int in (cast(0 as int)), false))
),

b_hot_b_hashed as (
    select *, xxhash64(b_hot_b_read.rid, b_hot_b_read.k_int, b_hot_b_read.k_big, b_hot_b_read.k_str, b_hot_b_read.k_dec2, b_hot_b_read.k_date, b_hot_b_read.k_ts, b_hot_b_read.region, b_hot_b_read.attr, spark_partition_id()) as sj_spread from b_hot_b_read
),

b_hot_b_spread as (
    select /*+ repartition(2, sj_spread) */ * from b_hot_b_hashed
),

b_hot_b as (
    select rid, k_int, k_big, k_str, k_dec2, k_date, k_ts, region, attr from b_hot_b_spread
),

b_rest as (
    select * from b_input as b
    where not (
        coalesce(b.k_int in (cast(0 as int)), false)
        or coalesce(b.k_int in (cast(7 as int)), false)
    )
),

hot_a as (
    select /*+ broadcast(b) */
        a.id,
        b.rid
    from a_hot_a as a
    left outer join b_hot_a as b
        on a.k_int = b.k_int
),

hot_b as (
    select /*+ broadcast(a) */
        a.id,
        b.rid
    from b_hot_b as b
    inner join a_hot_b as a
        on a.k_int = b.k_int
),

b_hot_b_keys as (
    select distinct b.k_int
    from b_hot_b_read as b
),

a_hot_b_unmatched as (
    select /*+ broadcast(b) */ a.*
    from a_hot_b as a
    left anti join b_hot_b_keys as b
        on a.k_int = b.k_int
),

a_hot_b_unmatched_kept as (
    select
        a.id,
        b.rid
    from a_hot_b_unmatched as a
    left outer join (select * from b_input where false) as b
        on false
),

rest_joined as (
    select
        a.id,
        b.rid
    from a_rest as a
    left outer join b_rest as b
        on a.k_int = b.k_int
)

select * from a_null_keys_kept
union all
select * from hot_a
union all
select * from hot_b
union all
select * from a_hot_b_unmatched_kept
union all
select * from rest_joined
