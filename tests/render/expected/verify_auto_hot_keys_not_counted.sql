/* skewjoin.skew_join decision record (model unit_model)
  inner join on a.k (int) = b.k (int); skew specification from config skew_join ('auto')
  skew measured on a (sketched: one query read every row of a once and counted its rows, NULL keys and input splits exactly, and its heaviest keys with a frequent-items sketch (approx_top_k, 1,000 keys tracked; 22 key(s) listed, each count exact: the side has no more rows than the sketch holds keys); <elapsed> s): 1000 rows in 4 input splits, 0 with a NULL key; heaviest keys: 0 60.0%; 1 0.8%; 10 0.8%; 11 0.8%; 12 0.8%
  skew measured on b (sketched: one query read every row of b once and counted its rows, NULL keys and input splits exactly, and its heaviest keys with a frequent-items sketch (approx_top_k, 1,000 keys tracked; 22 key(s) listed, each count exact: the side has no more rows than the sketch holds keys), and 1 key(s) the other side listed, exactly; <elapsed> s): 60 rows in 1 input splits, 0 with a NULL key; heaviest keys: 1 1.7%; 10 1.7%; 11 1.7%; 12 1.7%; 13 1.7% (a's heavy keys counted exactly)
  auto: rules min_share 0.01, max_keys 20, broadcast budget 100,000 rows, multicast budget 10,000,000 rows, 20 slots (from var('skewjoin_total_slots'))
  auto: key 0 (a 600 rows (60.0%), b 1 rows (1.7%)): hot key of a: broadcast b's 1 row(s) of this key
  auto: key 1 (a 8 rows (0.8%), b 1 rows (1.7%)): hot key of a: broadcast b's 1 row(s) of this key
  auto: key 10 (a 8 rows (0.8%), b 1 rows (1.7%)): hot key of a: broadcast b's 1 row(s) of this key
  auto: key 11 (a 8 rows (0.8%), b 1 rows (1.7%)): hot key of a: broadcast b's 1 row(s) of this key
  auto: key 12 (a 8 rows (0.8%), b 1 rows (1.7%)): hot key of a: broadcast b's 1 row(s) of this key
  auto: key 13 (a 8 rows (0.8%), b 1 rows (1.7%)): hot key of a: broadcast b's 1 row(s) of this key
  auto: key 14 (a 8 rows (0.8%), b 1 rows (1.7%)): hot key of a: broadcast b's 1 row(s) of this key
  auto: key 15 (a 8 rows (0.8%), b 1 rows (1.7%)): hot key of a: broadcast b's 1 row(s) of this key
  auto: key 16 (a 8 rows (0.8%), b 1 rows (1.7%)): hot key of a: broadcast b's 1 row(s) of this key
  auto: key 17 (a 8 rows (0.8%), b 1 rows (1.7%)): hot key of a: broadcast b's 1 row(s) of this key
  auto: key 18 (a 8 rows (0.8%), b 1 rows (1.7%)): hot key of a: broadcast b's 1 row(s) of this key
  auto: key 19 (a 8 rows (0.8%), b 1 rows (1.7%)): hot key of a: broadcast b's 1 row(s) of this key
  auto: key 2 (a 8 rows (0.8%), b 1 rows (1.7%)): hot key of a: broadcast b's 1 row(s) of this key
  auto: key 20 (a 8 rows (0.8%), b 1 rows (1.7%)): hot key of a: broadcast b's 1 row(s) of this key
  auto: key 21 (a 8 rows (0.8%), b 1 rows (1.7%)): hot key of a: broadcast b's 1 row(s) of this key
  auto: key 22 (a 8 rows (0.8%), b 1 rows (1.7%)): hot key of a: broadcast b's 1 row(s) of this key
  auto: key 23 (a 8 rows (0.8%), b 1 rows (1.7%)): hot key of a: broadcast b's 1 row(s) of this key
  auto: key 24 (a 8 rows (0.8%), b 1 rows (1.7%)): hot key of a: broadcast b's 1 row(s) of this key
  auto: key 25 (a 8 rows (0.8%), b 1 rows (1.7%)): hot key of a: broadcast b's 1 row(s) of this key
  auto: key 26 (a 8 rows (0.8%), b 1 rows (1.7%)): hot key of a: broadcast b's 1 row(s) of this key
  auto: 2 more key(s) above min_share left to the shuffle join (max_keys 20)
  auto: AQE forecast (would Spark split the plain join itself?): not for every key (AQE on, 200 shuffle partitions, the join is the whole model): key 0: Spark gives no size estimate of a; key 1: Spark gives no size estimate of a; key 10: Spark gives no size estimate of a; key 11: Spark gives no size estimate of a; key 12: Spark gives no size estimate of a; key 13: Spark gives no size estimate of a; key 14: Spark gives no size estimate of a; key 15: Spark gives no size estimate of a; key 16: Spark gives no size estimate of a; key 17: Spark gives no size estimate of a; key 18: Spark gives no size estimate of a; key 19: Spark gives no size estimate of a; key 2: Spark gives no size estimate of a; key 20: Spark gives no size estimate of a; key 21: Spark gives no size estimate of a; key 22: Spark gives no size estimate of a; key 23: Spark gives no size estimate of a; key 24: Spark gives no size estimate of a; key 25: Spark gives no size estimate of a; key 26: Spark gives no size estimate of a; the skew plan is kept
  auto: planned specification; to pin it (and skip the measuring), paste into the model (Jinja): {{ config(skew_join={'hot_keys': {'a': [0, 1, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 2, 20, 21, 22, 23, 24, 25, 26]}}) }}
  auto: the same specification in YAML (a properties file or dbt_project.yml): skew_join: {"hot_keys": {"a": [0, 1, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 2, 20, 21, 22, 23, 24, 25, 26]}}
  auto: pinned, that specification is counted at compile time as any declared one: a group or hot key under one slot's even share (1/20) is dropped; add 'verify': 0.01 to keep auto's min_share, or 'verify': false to plan it as written
  hot keys of a (planned from the measured counts): 0; 1; 10; 11; 12; 13; 14; 15; 16; 17; 18; 19; 2; 20; 21; 22; 23; 24; 25; 26
  hot rows of a joined where they are read: its 4 input splits already use half or more of the 2 tasks Spark runs at once (default parallelism), so a spread would cost a shuffle of the hot rows and gain no parallelism
  hot branch for keys of a (0; 1; 10; 11; 12; 13; 14; 15; 16; 17; 18; 19; 2; 20; 21; 22; 23; 24; 25; 26): a's hot rows inner join the broadcast rows of b with those keys; multicast: those rows of b are broadcast, one copy to each of the 4 tasks of the branch; no run-time count is made; rows never hash-shuffled by these keys
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
    where coalesce(a.k in (cast(0 as int), cast(1 as int), cast(10 as int), cast(11 as int), cast(12 as int), cast(13 as int), cast(14 as int), cast(15 as int), cast(16 as int), cast(17 as int), cast(18 as int), cast(19 as int), cast(2 as int), cast(20 as int), cast(21 as int), cast(22 as int), cast(23 as int), cast(24 as int), cast(25 as int), cast(26 as int)), false)
),

a_hot_a as (
    select * from a_hot_a_read
),

a_rest as (
    select * from a_input as a
    where not (
        coalesce(a.k in (cast(0 as int), cast(1 as int), cast(10 as int), cast(11 as int), cast(12 as int), cast(13 as int), cast(14 as int), cast(15 as int), cast(16 as int), cast(17 as int), cast(18 as int), cast(19 as int), cast(2 as int), cast(20 as int), cast(21 as int), cast(22 as int), cast(23 as int), cast(24 as int), cast(25 as int), cast(26 as int)), false)
    )
),

b_hot_a as (
    select * from b_input as b
    where coalesce(b.k in (cast(0 as int), cast(1 as int), cast(10 as int), cast(11 as int), cast(12 as int), cast(13 as int), cast(14 as int), cast(15 as int), cast(16 as int), cast(17 as int), cast(18 as int), cast(19 as int), cast(2 as int), cast(20 as int), cast(21 as int), cast(22 as int), cast(23 as int), cast(24 as int), cast(25 as int), cast(26 as int)), false)
),

b_rest as (
    select * from b_input as b
    where not (
        coalesce(b.k in (cast(0 as int), cast(1 as int), cast(10 as int), cast(11 as int), cast(12 as int), cast(13 as int), cast(14 as int), cast(15 as int), cast(16 as int), cast(17 as int), cast(18 as int), cast(19 as int), cast(2 as int), cast(20 as int), cast(21 as int), cast(22 as int), cast(23 as int), cast(24 as int), cast(25 as int), cast(26 as int)), false)
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
