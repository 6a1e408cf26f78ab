/* skewjoin.skew_join decision record (model unit_model)
  inner join on a.k (int) = b.k (int); skew specification from config skew_join ('auto')
  skew measured on a (sketched: one query read every row of a once and counted its rows, NULL keys and input splits exactly, and its heaviest keys with a frequent-items sketch (approx_top_k, 1,000 keys tracked; 22 key(s) listed, each count exact: the side has no more rows than the sketch holds keys); <elapsed> s): 1000 rows in 4 input splits, 0 with a NULL key; heaviest keys: 0 60.0%; 1 0.8%; 10 0.8%; 11 0.8%; 12 0.8%
  skew measured on b (sketched: one query read every row of b once and counted its rows, NULL keys and input splits exactly, and its heaviest keys with a frequent-items sketch (approx_top_k, 1,000 keys tracked; 22 key(s) listed, each count exact: the side has no more rows than the sketch holds keys), and 1 key(s) the other side listed, exactly; <elapsed> s): 259 rows in 1 input splits, 0 with a NULL key; heaviest keys: 0 77.2%; 1 0.4%; 10 0.4%; 11 0.4%; 12 0.4% (a's heavy keys counted exactly)
  auto: rules min_share 0.01, max_keys 20, broadcast budget 100 rows, multicast budget 10,000,000 rows, 20 slots (from skew_join.total_slots)
  auto: key 0 (a 600 rows (60.0%), b 200 rows (77.2%)): skew group driven by a, 12 slots, multicast 2,400 rows: b has 200 rows of this key, over the broadcast budget of 100 rows; 12 slot(s) for 600 of the 1,000 rows a shuffles
  auto: AQE forecast (would Spark split the plain join itself?): not for every key (AQE on, 200 shuffle partitions, the join is the whole model): key 0: Spark gives no size estimate of a; the skew plan is kept
  auto: group 'a.k = 0' (driver a, 12 slots): its 600 rows of a are 600 distinct rows in 4 input splits: the salt (a hash of the row and its input split) reaches all 12 slots
  auto: planned specification; to pin it (and skip the measuring), paste into the model (Jinja): {{ config(skew_join={'groups': [{'when': 'a.k = 0', 'slots': 12, 'distribute': 'random'}], 'total_slots': 20}) }}
  auto: the same specification in YAML (a properties file or dbt_project.yml): skew_join: {"groups": [{"when": "a.k = 0", "slots": 12, "distribute": "random"}], "total_slots": 20}
  auto: pinned, that specification is counted at compile time as any declared one: a group or hot key under one slot's even share (1/20) is dropped; add 'verify': 0.01 to keep auto's min_share, or 'verify': false to plan it as written
  skew groups: 1, total slots 20 (from skew_join.total_slots); rows in no group: slots #0-#7 by key hash
  group 1 group_1: when 'a.k = 0', driver a, 12 slots -> slots #8-#19, distribute random: a rows spread by a hash of the whole row and its input split; b rows of the group multicast x12 (each of them is read once and copied to 12 slots: 11 extra rows per row)
  group 1: key 0's 12 slots placed on 12 distinct shuffle partitions of 200 (spark.sql.shuffle.partitions), slot values chosen by Spark's partition hash
  strategy: skew groups over a shuffle join on (keys, slot)
  measuring cost: 25 compile-time queries (3 reading data), <elapsed> s of wall time; by kind: 'auto' counts 2, <elapsed> s; salt reach 1, <elapsed> s; catalog 1, <elapsed> s; column lists 2, <elapsed> s; column statistics 2, <elapsed> s; settings 14, <elapsed> s; size estimates 2, <elapsed> s; slot placement 1, <elapsed> s
*/
with

a_input as (
    select * from skewjoin_it.spread_left as sj_source
),

b_input as (
    select * from skewjoin_it.spread_right as sj_source
),

a_grouped as (
    select
        a.*,
        case
            when (a.k) = 0 then 1
            else 0
        end as sj_group
    from a_input as a
),

a_slotted as (
    select
        a.*,
        case a.sj_group
            -- group 1: slots #8-#19, spread by a hash of the row and its input split (slot values placed on distinct shuffle partitions; other keys #8-#19)
            when 1 then case a.k
                when cast(0 as int) then element_at(array(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11), cast(pmod(pmod(xxhash64(a.id, a.k), 12) + spark_partition_id(), 12) as int) + 1)
                else 8 + pmod(pmod(xxhash64(a.id, a.k), 12) + spark_partition_id(), 12)
            end
            -- rows in no group: slots #0-#7 by a hash of the keys
            else pmod(xxhash64(a.k), 8)
        end as sj_slot
    from a_grouped as a
),

b_grouped as (
    select
        b.*,
        case
            when (b.k) = 0 then 1
            else 0
        end as sj_group
    from b_input as b
),

b_slotted as (
    select
        b.*,
        explode(case b.sj_group
            -- group 1: slots #8-#19, multicast to every slot (slot values placed on distinct shuffle partitions; other keys #8-#19)
            when 1 then case b.k
                when cast(0 as int) then array(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11)
                else sequence(8, 19)
            end
            -- rows in no group: slots #0-#7 by a hash of the keys
            else array(pmod(xxhash64(b.k), 8))
        end) as sj_slot
    from b_grouped as b
)

select
    a.id,
    a.k,
    b.label
from a_slotted as a
inner join b_slotted as b
    on a.k = b.k
    and a.sj_slot = b.sj_slot
