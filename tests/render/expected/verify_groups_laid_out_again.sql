/* skewjoin.skew_join decision record (model unit_model)
  inner join on a.k_int (int) = b.k_int (int); skew specification from argument skew
  group 1 group_1 dropped: 0.1% of a's rows (1 of 1,000), under 5% (one slot's even share, 1/20 slots): the data does not have the skew this group was declared for, and its slots would cost a slot per row and a (keys, slot) sort without splitting a straggler. Set verify: false to plan declared groups as written
  group 2 group_2 verified: 40.0% of b's rows (400 of 1,000) >= 5% (one slot's even share, 1/20 slots): kept
  AQE forecast for the declared plan (would Spark split the plain join itself?): not for every key (AQE on, 200 shuffle partitions, the join is the whole model): key 5: Spark gives no size estimate of b
  skew groups: 1, total slots 20 (from var('skewjoin_total_slots')); rows in no group: slots #0-#13 by key hash
  group 2 group_2: when 'b.k_int = 5', driver b, 6 slots -> slots #14-#19, distribute random: b rows spread by a hash of the whole row and its input split; a rows of the group multicast x6 (each of them is read once and copied to 6 slots: 5 extra rows per row)
  group 2: key 5's 6 slots placed on 6 distinct shuffle partitions of 200 (spark.sql.shuffle.partitions), slot values chosen by Spark's partition hash
  strategy: skew groups over a shuffle join on (keys, slot)
  measuring cost: 20 compile-time queries (2 reading data), <elapsed> s of wall time; by kind: verification 2, <elapsed> s; column lists 2, <elapsed> s; settings 14, <elapsed> s; size estimates 1, <elapsed> s; slot placement 1, <elapsed> s
*/
with

a_input as (
    select * from skewjoin_it.typed_left as sj_source
),

b_input as (
    select * from skewjoin_it.typed_right as sj_source
),

a_grouped as (
    select
        a.*,
        case
            when (a.k_int) = 5 then 2
            else 0
        end as sj_group
    from a_input as a
),

a_slotted as (
    select
        a.*,
        explode(case a.sj_group
            -- group 2: slots #14-#19, multicast to every slot (slot values placed on distinct shuffle partitions; other keys #14-#19)
            when 2 then case a.k_int
                when cast(5 as int) then array(0, 1, 2, 3, 4, 5)
                else sequence(14, 19)
            end
            -- rows in no group: slots #0-#13 by a hash of the keys
            else array(pmod(xxhash64(a.k_int), 14))
        end) as sj_slot
    from a_grouped as a
),

b_grouped as (
    select
        b.*,
        case
            when (b.k_int) = 5 then 2
            else 0
        end as sj_group
    from b_input as b
),

b_slotted as (
    select
        b.*,
        case b.sj_group
            -- group 2: slots #14-#19, spread by a hash of the row and its input split (slot values placed on distinct shuffle partitions; other keys #14-#19)
            when 2 then case b.k_int
                when cast(5 as int) then element_at(array(0, 1, 2, 3, 4, 5), cast(pmod(pmod(xxhash64(b.rid, b.k_int, b.k_big, b.k_str, b.k_dec2, b.k_date, b.k_ts, b.region, b.attr), 6) + spark_partition_id(), 6) as int) + 1)
                else 14 + pmod(pmod(xxhash64(b.rid, b.k_int, b.k_big, b.k_str, b.k_dec2, b.k_date, b.k_ts, b.region, b.attr), 6) + spark_partition_id(), 6)
            end
            -- rows in no group: slots #0-#13 by a hash of the keys
            else pmod(xxhash64(b.k_int), 14)
        end as sj_slot
    from b_grouped as b
)

select
    a.id,
    b.rid
from a_slotted as a
inner join b_slotted as b
    on a.k_int = b.k_int
    and a.sj_slot = b.sj_slot
