/* skewjoin.skew_join decision record (model unit_model)
  inner join on a.k_int (int) = b.k_int (int) and a.k_str (string) = b.k_str (string); skew specification from argument skew
  hot key 0, it's of a verified: 50.0% of a's rows (500 of 1,000) >= 5% (one slot's even share, 1/20 slots): kept
  hot keys of a (declared): 0, it's
  AQE forecast for the declared plan (would Spark split the plain join itself?): not for every key (AQE on, 200 shuffle partitions, the join is the whole model): key 0, it's: Spark gives no size estimate of a
  hot rows of a joined where they are read: its input has 64 splits (>= spread_min_splits 8)
  hot branch for keys of a (0, it's): a's hot rows inner join the broadcast rows of b with those keys; multicast: those rows of b are broadcast, one copy to each of the 64 tasks of the branch; no run-time count is made; rows never hash-shuffled by these keys
  strategy: hot keys by broadcast + plain shuffle join for the rest, results unioned
  measuring cost: 16 compile-time queries (1 reading data), <elapsed> s of wall time; by kind: verification 1, <elapsed> s; column lists 2, <elapsed> s; settings 12, <elapsed> s; size estimates 1, <elapsed> s
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
    where coalesce((a.k_int = cast(0 as int) and rtrim(a.k_str) = rtrim(concat('it', chr(39), 's'))), false)
),

a_hot_a as (
    select * from a_hot_a_read
),

a_rest as (
    select * from a_input as a
    where not (
        coalesce((a.k_int = cast(0 as int) and rtrim(a.k_str) = rtrim(concat('it', chr(39), 's'))), false)
    )
),

b_hot_a as (
    select * from b_input as b
    where coalesce((b.k_int = cast(0 as int) and rtrim(b.k_str) = rtrim(concat('it', chr(39), 's'))), false)
),

b_rest as (
    select * from b_input as b
    where not (
        coalesce((b.k_int = cast(0 as int) and rtrim(b.k_str) = rtrim(concat('it', chr(39), 's'))), false)
    )
),

hot_a as (
    select /*+ broadcast(b) */
        a.id,
        b.rid
    from a_hot_a as a
    inner join b_hot_a as b
        on a.k_int = b.k_int
        and a.k_str = b.k_str
),

rest_joined as (
    select
        a.id,
        b.rid
    from a_rest as a
    inner join b_rest as b
        on a.k_int = b.k_int
        and a.k_str = b.k_str
)

select * from hot_a
union all
select * from rest_joined
