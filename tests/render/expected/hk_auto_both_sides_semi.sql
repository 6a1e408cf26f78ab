/* skewjoin.skew_join decision record (model unit_model)
  left semi join on a.k (int) = b.k (int); skew specification from argument skew
  hot keys of a found at compile time (sketched: one query read every row of a once and counted its rows, NULL keys and input splits exactly, and its heaviest keys with a frequent-items sketch (approx_top_k, 1,000 keys tracked; 21 key(s) listed, each count exact: the side has no more rows than the sketch holds keys); <elapsed> s, 1000 rows in 4 input splits; min_share 0.01, max_keys 20): 0 60.0%; NULL 4.0%
  hot keys of b found at compile time (sketched: one query read every row of b once and counted its rows, NULL keys and input splits exactly, and its heaviest keys with a frequent-items sketch (approx_top_k, 1,000 keys tracked; 21 key(s) listed, each count exact: the side has no more rows than the sketch holds keys); <elapsed> s, 360 rows in 1 input splits; min_share 0.01, max_keys 20): 5 83.6%
  hot keys of b (5) joined in a's branch: b's 301 counted rows of them fit max_broadcast_rows 100,000, so they are broadcast there beside b's rows of a's keys, and each side is read twice instead of three times
  rows of a with a NULL key are dropped before the join (they can never match and a is not preserved)
  hot rows of a joined where they are read: its 4 input splits already use half or more of the 2 tasks Spark runs at once (default parallelism), so a spread would cost a shuffle of the hot rows and gain no parallelism
  hot branch for keys of a (0; 5): a's hot rows left semi join the broadcast rows of b with those keys; multicast: those rows of b are broadcast, one copy to each of the 4 tasks of the branch; no run-time count is made; rows never hash-shuffled by these keys
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

a_hot_a_read as (
    select * from a_input as a
    where coalesce(a.k in (cast(0 as int), cast(5 as int)), false)
),

a_hot_a as (
    select * from a_hot_a_read
),

a_rest as (
    select * from a_input as a
    where not (
        (a.k is null)
        or coalesce(a.k in (cast(0 as int), cast(5 as int)), false)
    )
),

b_hot_a as (
    select * from b_input as b
    where coalesce(b.k in (cast(0 as int), cast(5 as int)), false)
),

b_rest as (
    select * from b_input as b
    where not (
        coalesce(b.k in (cast(0 as int), cast(5 as int)), false)
    )
),

hot_a as (
    select /*+ broadcast(b) */
        a.id,
        a.k
    from a_hot_a as a
    left semi join b_hot_a as b
        on a.k = b.k
),

rest_joined as (
    select
        a.id,
        a.k
    from a_rest as a
    left semi join b_rest as b
        on a.k = b.k
)

select * from hot_a
union all
select * from rest_joined
