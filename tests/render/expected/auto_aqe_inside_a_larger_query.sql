select k, count(*) as n from (/* skewjoin.skew_join decision record (model unit_model)
  inner join on a.k (int) = b.k (int); skew specification from config skew_join ('auto')
  skew measured on a (sketched: one query read every row of a once and counted its rows, NULL keys and input splits exactly, and its heaviest keys with a frequent-items sketch (approx_top_k, 1,000 keys tracked; 21 key(s) listed, each count exact: the side has no more rows than the sketch holds keys), and 1 key(s) the other side listed, exactly; <elapsed> s): 1000 rows in 4 input splits, 40 with a NULL key; heaviest keys: 0 60.0%; 1 0.8%; 10 0.8%; 2 0.8%; 3 0.8% (b's heavy keys counted exactly)
  skew measured on b (sketched: one query read every row of b once and counted its rows, NULL keys and input splits exactly, and its heaviest keys with a frequent-items sketch (approx_top_k, 1,000 keys tracked; 22 key(s) listed, each count exact: the side has no more rows than the sketch holds keys); <elapsed> s): 360 rows in 1 input splits, 0 with a NULL key; heaviest keys: 5 83.6%; 0 0.3%; 1 0.3%; 10 0.3%; 11 0.3%
  auto: rules min_share 0.01, max_keys 20, broadcast budget 100,000 rows, multicast budget 10,000,000 rows, 20 slots (from var('skewjoin_total_slots'))
  auto: key 5 (a 8 rows (0.8%), b 301 rows (83.6%)): hot key of b: broadcast a's 8 row(s) of this key
  auto: key 0 (a 600 rows (60.0%), b 1 rows (0.3%)): hot key of a: broadcast b's 1 row(s) of this key
  auto: NULL keys of a (4.0%): routed around the join (they never match)
  auto: AQE forecast (would Spark split the plain join itself?): not counted on: the join is part of a larger query (the model's code is more than one skewjoin.skew_join call, or the model is a view or ephemeral, read inside other queries), where an operator above it that needs its partitioning (an aggregate by the key) makes AQE drop the split unless spark.sql.adaptive.forceOptimizeSkewedJoin; the skew plan is kept
  auto: planned specification; to pin it (and skip the measuring), paste into the model (Jinja): {{ config(skew_join={'hot_keys': {'a': [0, none], 'b': [5]}}) }}
  auto: the same specification in YAML (a properties file or dbt_project.yml): skew_join: {"hot_keys": {"a": [0, null], "b": [5]}}
  auto: pinned, that specification is counted at compile time as any declared one: a group or hot key under one slot's even share (1/20) is dropped; add 'verify': 0.01 to keep auto's min_share, or 'verify': false to plan it as written
  hot keys of a (planned from the measured counts): 0 + NULL keys
  hot keys of b (planned from the measured counts): 5
  hot keys of b (5) joined in a's branch: b's 301 counted rows of them fit max_broadcast_rows 100,000, so they are broadcast there beside b's rows of a's keys, and each side is read twice instead of three times
  rows of a with a NULL key are dropped before the join (they can never match and a is not preserved)
  hot rows of a joined where they are read: its 4 input splits already use half or more of the 2 tasks Spark runs at once (default parallelism), so a spread would cost a shuffle of the hot rows and gain no parallelism
  hot branch for keys of a (0; 5): a's hot rows inner join the broadcast rows of b with those keys; multicast: those rows of b are broadcast, one copy to each of the 4 tasks of the branch; no run-time count is made; rows never hash-shuffled by these keys
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
select * from rest_joined) as j group by k
