/* skewjoin.skew_join decision record (model unit_model)
  inner join on a.k (int) = b.k (int); skew specification from config skew_join ('auto')
  skew measured on a (sketched: one query read every row of a once and counted its rows, NULL keys and input splits exactly, and its heaviest keys with a frequent-items sketch (approx_top_k, 1,000 keys tracked; 21 key(s) listed, each count exact: the side has no more rows than the sketch holds keys); <elapsed> s): 1000 rows in 4 input splits, 40 with a NULL key; heaviest keys: 0 60.0%; 1 0.8%; 10 0.8%; 2 0.8%; 3 0.8%
  skew measured on b (sketched: one query read every row of b once and counted its rows, NULL keys and input splits exactly, and its heaviest keys with a frequent-items sketch (approx_top_k, 1,000 keys tracked; 22 key(s) listed, each count exact: the side has no more rows than the sketch holds keys), and 1 key(s) the other side listed, exactly; <elapsed> s): 259 rows in 1 input splits, 0 with a NULL key; heaviest keys: 0 77.2%; 1 0.4%; 10 0.4%; 11 0.4%; 12 0.4% (a's heavy keys counted exactly)
  auto: rules min_share 0.01, max_keys 20, broadcast budget 100 rows, multicast budget 300 rows, 20 slots (from skew_join.total_slots)
  auto: key 0 (a 600 rows (60.0%), b 200 rows (77.2%)): left to the shuffle join: b has 200 rows of this key, over the broadcast budget of 100 rows; 13 slot(s) for 600 of the 960 rows a shuffles; 13 slots would copy 2,600 rows, over the multicast budget 300: nothing copied, the key hashed to one slot as distribute keys would; one slot spreads nothing: left to the shuffle join
  auto: NULL keys of a (4.0%): routed around the join (they never match)
  auto: AQE forecast (would Spark split the plain join itself?): not for every key (AQE on, 200 shuffle partitions, the join is the whole model): key NULL: Spark gives no size estimate of a; the skew plan is kept
  auto: planned specification; to pin it (and skip the measuring), paste into the model (Jinja): {{ config(skew_join={'hot_keys': {'a': [none]}}) }}
  auto: the same specification in YAML (a properties file or dbt_project.yml): skew_join: {"hot_keys": {"a": [null]}}
  auto: pinned, that specification is counted at compile time as any declared one: a group or hot key under one slot's even share (1/20) is dropped; add 'verify': 0.01 to keep auto's min_share, or 'verify': false to plan it as written
  hot keys of a (planned from the measured counts): none + NULL keys
  rows of a with a NULL key are dropped before the join (they can never match and a is not preserved)
  strategy: plain shuffle join, the rows with a NULL key dropped before it
  measuring cost: 21 compile-time queries (2 reading data), <elapsed> s of wall time; by kind: 'auto' counts 2, <elapsed> s; catalog 1, <elapsed> s; column lists 2, <elapsed> s; column statistics 2, <elapsed> s; settings 12, <elapsed> s; size estimates 2, <elapsed> s
*/
with

a_input as (
    select * from skewjoin_it.spread_left as sj_source
),

b_input as (
    select * from skewjoin_it.spread_right as sj_source
),

a_rest as (
    select * from a_input as a
    where not (
        (a.k is null)
    )
),

rest_joined as (
    select
        a.id,
        a.k,
        b.label
    from a_rest as a
    inner join b_input as b
        on a.k = b.k
)

select * from rest_joined
