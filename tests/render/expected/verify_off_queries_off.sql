/* skewjoin.skew_join decision record (model unit_model)
  inner join on a.k_int (int) = b.k_int (int); skew specification from argument skew
  skew groups not verified: counting their rows needs a query and compile-time queries are off (var skewjoin_run_queries: false); the groups are planned as declared
  skew groups: 1, total slots 20 (from var('skewjoin_total_slots')); rows in no group: slots #0-#15 by key hash
  group 1 group_1: when 'a.k_int = 0', driver a, 4 slots -> slots #16-#19, distribute random: a rows spread by a hash of the whole row and its input split; b rows of the group multicast x4 (each of them is read once and copied to 4 slots: 3 extra rows per row)
  group 1: key 0's 4 slots placed on 4 distinct shuffle partitions of 200 (spark.sql.shuffle.partitions), slot values chosen by Spark's partition hash
  strategy: skew groups over a shuffle join on (keys, slot)
  measuring cost: 6 compile-time queries (0 reading data), <elapsed> s of wall time; by kind: column lists 2, <elapsed> s; settings 3, <elapsed> s; slot placement 1, <elapsed> s
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
            when (a.k_int) = 0 then 1
            else 0
        end as sj_group
    from a_input as a
),

a_slotted as (
    select
        a.*,
        case a.sj_group
            -- group 1: slots #16-#19, spread by a hash of the row and its input split (slot values placed on distinct shuffle partitions; other keys #16-#19)
            when 1 then case a.k_int
                when cast(0 as int) then element_at(array(0, 1, 2, 3), cast(pmod(pmod(xxhash64(a.id, a.k_int, a.k_big, a.k_str, a.k_dec, a.k_date, a.k_ts, a.region, a.payload), 4) + spark_partition_id(), 4) as int) + 1)
                else 16 + pmod(pmod(xxhash64(a.id, a.k_int, a.k_big, a.k_str, a.k_dec, a.k_date, a.k_ts, a.region, a.payload), 4) + spark_partition_id(), 4)
            end
            -- rows in no group: slots #0-#15 by a hash of the keys
            else pmod(xxhash64(a.k_int), 16)
        end as sj_slot
    from a_grouped as a
),

b_grouped as (
    select
        b.*,
        case
            when (b.k_int) = 0 then 1
            else 0
        end as sj_group
    from b_input as b
),

b_slotted as (
    select
        b.*,
        explode(case b.sj_group
            -- group 1: slots #16-#19, multicast to every slot (slot values placed on distinct shuffle partitions; other keys #16-#19)
            when 1 then case b.k_int
                when cast(0 as int) then array(0, 1, 2, 3)
                else sequence(16, 19)
            end
            -- rows in no group: slots #0-#15 by a hash of the keys
            else array(pmod(xxhash64(b.k_int), 16))
        end) as sj_slot
    from b_grouped as b
)

select
    a.id,
    b.rid
from a_slotted as a
inner join b_slotted as b
    on a.k_int = b.k_int
    and a.sj_slot = b.sj_slot
