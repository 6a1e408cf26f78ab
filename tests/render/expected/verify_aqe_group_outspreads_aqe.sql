/* skewjoin.skew_join decision record (model unit_model)
  inner join on a.k (int) = b.k (int); skew specification from config skew_join
  group 1 group_1 verified: 62.5% of a's rows (600 of 960) >= 5% (one slot's even share, 1/20 slots): kept
  AQE forecast, key 0: about 610.4 KiB (600 rows of a) against a skew bar of 9.2 KiB (max of 5.0 x the median 1.8 KiB, skewedPartitionThresholdInBytes 1.0 KiB); pieces of 1.8 KiB, at most one a map task (4): 4, against the skew plan's 8 (group 1 group_1, 8 slots, distribute random)
  AQE forecast for the declared plan (would Spark split the plain join itself?): not for every key (AQE on, 200 shuffle partitions, the join is the whole model): key 0: AQE would cut 4 pieces, the skew plan spreads it over 8
  skew groups: 1, total slots 20 (from var('skewjoin_total_slots')); rows in no group: slots #0-#11 by key hash
  group 1 group_1: when 'a.k = 0', driver a, 8 slots -> slots #12-#19, distribute random: a rows spread by a hash of the whole row and its input split; b rows of the group multicast x8 (each of them is read once and copied to 8 slots: 7 extra rows per row)
  group 1: key 0's 8 slots placed on 8 distinct shuffle partitions of 200 (spark.sql.shuffle.partitions), slot values chosen by Spark's partition hash
  strategy: skew groups over a shuffle join on (keys, slot)
  measuring cost: 19 compile-time queries (1 reading data), <elapsed> s of wall time; by kind: verification 1, <elapsed> s; column lists 2, <elapsed> s; settings 14, <elapsed> s; size estimates 1, <elapsed> s; slot placement 1, <elapsed> s
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
            -- group 1: slots #12-#19, spread by a hash of the row and its input split (slot values placed on distinct shuffle partitions; other keys #12-#19)
            when 1 then case a.k
                when cast(0 as int) then element_at(array(0, 1, 2, 3, 4, 5, 6, 7), cast(pmod(pmod(xxhash64(a.id, a.k), 8) + spark_partition_id(), 8) as int) + 1)
                else 12 + pmod(pmod(xxhash64(a.id, a.k), 8) + spark_partition_id(), 8)
            end
            -- rows in no group: slots #0-#11 by a hash of the keys
            else pmod(xxhash64(a.k), 12)
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
            -- group 1: slots #12-#19, multicast to every slot (slot values placed on distinct shuffle partitions; other keys #12-#19)
            when 1 then case b.k
                when cast(0 as int) then array(0, 1, 2, 3, 4, 5, 6, 7)
                else sequence(12, 19)
            end
            -- rows in no group: slots #0-#11 by a hash of the keys
            else array(pmod(xxhash64(b.k), 12))
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
