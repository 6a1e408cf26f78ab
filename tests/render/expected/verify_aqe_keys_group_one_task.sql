/* skewjoin.skew_join decision record (model unit_model)
  inner join on a.k (int) = b.k (int); skew specification from config skew_join
  group 1 group_1 verified: 62.5% of a's rows (600 of 960) >= 5% (one slot's even share, 1/20 slots): kept
  AQE forecast, key 0: about 610.4 KiB (600 rows of a) against a skew bar of 9.2 KiB (max of 5.0 x the median 1.8 KiB, skewedPartitionThresholdInBytes 1.0 KiB); pieces of 1.8 KiB, at most one a map task (4): 4, against the skew plan's 1 (group 1 group_1, 4 slots, distribute keys: one task for the key)
  AQE forecast for the declared plan (would Spark split the plain join itself?): yes (AQE on, 200 shuffle partitions, the join is the whole model), for every key: the declared plan is kept, see the warning
  warning: this hand-written skew specification will likely lose to AQE: in this session (AQE on, 200 shuffle partitions, the join is the whole model) AQE would split the plain join's partition of every declared key at least as finely as the specification spreads it: key 0 (group 1 group_1, 4 slots, distribute keys: one task for the key): about 610.4 KiB of a against the skew bar 9.2 KiB (max of skewedPartitionFactor 5.0 x the median partition 1.8 KiB, skewedPartitionThresholdInBytes 1.0 KiB); AQE cuts 4 pieces, the specification spreads it over 1. The specification is planned as written, but a group adds a slot to every row and a (keys, slot) sort: work added to a join AQE already balances. Remove skew_join from this model (the plain join), or use skew_join 'auto', which measures the keys and hands the join back to AQE where this forecast says so
  skew groups: 1, total slots 20 (from var('skewjoin_total_slots')); rows in no group: slots #0-#15 by key hash
  group 1 group_1: when 'a.k = 0', driver a, 4 slots -> slots #16-#19, distribute keys: both sides routed by a hash of the keys, nothing multicast; WARNING group 1 group_1 distributes by keys but its `when` selects one key (0): all its rows go to one of its 4 slots, so the key is not spread. To spread one heavy key, declare it in hot_keys (joined by broadcast where its rows are read; legal for every join type)
  strategy: skew groups over a shuffle join on (keys, slot)
  measuring cost: 16 compile-time queries (1 reading data), <elapsed> s of wall time; by kind: verification 1, <elapsed> s; column lists 2, <elapsed> s; settings 12, <elapsed> s; size estimates 1, <elapsed> s
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
            -- group 1: slots #16-#19, by a hash of the keys
            when 1 then 16 + pmod(xxhash64(a.k), 4)
            -- rows in no group: slots #0-#15 by a hash of the keys
            else pmod(xxhash64(a.k), 16)
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
        case b.sj_group
            -- group 1: slots #16-#19, by a hash of the keys
            when 1 then 16 + pmod(xxhash64(b.k), 4)
            -- rows in no group: slots #0-#15 by a hash of the keys
            else pmod(xxhash64(b.k), 16)
        end as sj_slot
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
