/* skewjoin.skew_join decision record (model unit_model)
  inner join on a.k_int (int) = b.k_int (int); skew specification from argument skew
  output columns of b renamed to avoid duplicate names: k_big -> b_k_big, k_str -> b_k_str, k_date -> b_k_date, k_ts -> b_k_ts, region -> b_region
  hot keys of a not verified against the data (verify false, from var('skewjoin_verify'))
  hot keys of a (declared): 0
  hot rows of a spread by xxhash64 of the whole row and its input split over 64 partitions: its input has only 2 splits (< spread_min_splits 8) for a default parallelism of 64, which would make the broadcast branch a straggler (cost: one shuffle of the hot rows (written and read once), no sort)
  hot branch for keys of a (0): a's hot rows inner join the broadcast rows of b with those keys; multicast: those rows of b are broadcast, one copy to each of the 64 tasks of the branch; no run-time count is made; rows never hash-shuffled by these keys
  strategy: hot keys by broadcast + plain shuffle join for the rest, results unioned
  measuring cost: 5 compile-time queries (1 reading data), <elapsed> s of wall time; by kind: input splits 1, <elapsed> s; column lists 2, <elapsed> s; parallelism 1, <elapsed> s; settings 1, <elapsed> s
*/
with

a_input as (
    select * from skewjoin_it.typed_left as sj_source
),

b_input as (
    select * from skewjoin_it.typed_right as sj_source
),

a_hot_a_read as (
    select * from a_input as a
    where coalesce(a.k_int in (cast(0 as int)), false)
),

a_hot_a_hashed as (
    select *, xxhash64(a_hot_a_read.id, a_hot_a_read.k_int, a_hot_a_read.k_big, a_hot_a_read.k_str, a_hot_a_read.k_dec, a_hot_a_read.k_date, a_hot_a_read.k_ts, a_hot_a_read.region, a_hot_a_read.payload, spark_partition_id()) as sj_spread from a_hot_a_read
),

a_hot_a_spread as (
    select /*+ repartition(64, sj_spread) */ * from a_hot_a_hashed
),

a_hot_a as (
    select id, k_int, k_big, k_str, k_dec, k_date, k_ts, region, payload from a_hot_a_spread
),

a_rest as (
    select * from a_input as a
    where not (
        coalesce(a.k_int in (cast(0 as int)), false)
    )
),

b_hot_a as (
    select * from b_input as b
    where coalesce(b.k_int in (cast(0 as int)), false)
),

b_rest as (
    select * from b_input as b
    where not (
        coalesce(b.k_int in (cast(0 as int)), false)
    )
),

hot_a as (
    select /*+ broadcast(b) */
        a.id,
        a.k_int,
        a.k_big,
        a.k_str,
        a.k_dec,
        a.k_date,
        a.k_ts,
        a.region,
        a.payload,
        b.rid,
        b.k_big as b_k_big,
        b.k_str as b_k_str,
        b.k_dec2,
        b.k_date as b_k_date,
        b.k_ts as b_k_ts,
        b.region as b_region,
        b.attr
    from a_hot_a as a
    inner join b_hot_a as b
        on a.k_int = b.k_int
),

rest_joined as (
    select
        a.id,
        a.k_int,
        a.k_big,
        a.k_str,
        a.k_dec,
        a.k_date,
        a.k_ts,
        a.region,
        a.payload,
        b.rid,
        b.k_big as b_k_big,
        b.k_str as b_k_str,
        b.k_dec2,
        b.k_date as b_k_date,
        b.k_ts as b_k_ts,
        b.region as b_region,
        b.attr
    from a_rest as a
    inner join b_rest as b
        on a.k_int = b.k_int
)

select * from hot_a
union all
select * from rest_joined
