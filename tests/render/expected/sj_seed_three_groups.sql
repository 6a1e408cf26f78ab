-- The seed's own example (HIVE-3286) on a src-like table, 20 slots:
-- group 0 on a (2 slots, random), group 1 on b (4 slots, by upper(b.key)),
-- group 2 on a (8 slots, by keys); the rest uses slots #0-#5.

/* skewjoin.skew_join decision record (model sj_seed_three_groups)
  inner join on a.key (string) = b.key (string); skew specification from config skew_join
  skew groups not verified against the data (verify false, from var('skewjoin_verify'))
  skew groups: 3, total slots 20 (from skew_join.total_slots); rows in no group: slots #0-#5 by key hash
  group 1 group_1: when 'a.key = '0'', driver a, 10% of 20 = 2 slots -> slots #6-#7, distribute random: a rows spread by a hash of the whole row and its input split; b rows of the group multicast x2 (each of them is read once and copied to 2 slots: 1 extra rows per row)
  group 2 group_2: when 'b.key < '100'', driver b, 20% of 20 = 4 slots -> slots #8-#11, distribute expression: b rows spread by xxhash64(upper(b.key)); a rows of the group multicast x4 (each of them is read once and copied to 4 slots: 3 extra rows per row)
  group 3 group_3: when 'cast(a.key as int) > 300', driver a, 40% of 20 = 8 slots -> slots #12-#19, distribute keys: both sides routed by a hash of the keys, nothing multicast
  group 1: key 0's 2 slots placed on 2 distinct shuffle partitions of 200 (spark.sql.shuffle.partitions), slot values chosen by Spark's partition hash
  strategy: skew groups over a shuffle join on (keys, slot)
  measuring cost: 6 compile-time queries (0 reading data), <elapsed> s of wall time; by kind: column lists 2, <elapsed> s; settings 3, <elapsed> s; slot placement 1, <elapsed> s
*/
with

a_input as (
    select * from skewjoin_it.src as sj_source
),

b_input as (
    select * from skewjoin_it.src as sj_source
),

a_grouped as (
    select
        a.*,
        case
            when (rtrim(a.`key`)) = '0' then 1
            when (rtrim(a.`key`)) < '100' then 2
            when cast((rtrim(a.`key`)) as int) > 300 then 3
            else 0
        end as sj_group
    from a_input as a
),

a_slotted as (
    select
        a.*,
        explode(case a.sj_group
            -- group 1: slots #6-#7, spread by a hash of the row and its input split (slot values placed on distinct shuffle partitions; other keys #6-#7)
            when 1 then case rtrim(a.`key`)
                when '0' then array(element_at(array(0, 1), cast(pmod(pmod(xxhash64(a.`key`, a.`value`), 2) + spark_partition_id(), 2) as int) + 1))
                else array(6 + pmod(pmod(xxhash64(a.`key`, a.`value`), 2) + spark_partition_id(), 2))
            end
            -- group 2: slots #8-#11, multicast to every slot
            when 2 then sequence(8, 11)
            -- group 3: slots #12-#19, by a hash of the keys
            when 3 then array(12 + pmod(xxhash64(rtrim(a.`key`)), 8))
            -- rows in no group: slots #0-#5 by a hash of the keys
            else array(pmod(xxhash64(rtrim(a.`key`)), 6))
        end) as sj_slot
    from a_grouped as a
),

b_grouped as (
    select
        b.*,
        case
            when (rtrim(b.`key`)) = '0' then 1
            when (rtrim(b.`key`)) < '100' then 2
            when cast((rtrim(b.`key`)) as int) > 300 then 3
            else 0
        end as sj_group
    from b_input as b
),

b_slotted as (
    select
        b.*,
        explode(case b.sj_group
            -- group 1: slots #6-#7, multicast to every slot (slot values placed on distinct shuffle partitions; other keys #6-#7)
            when 1 then case rtrim(b.`key`)
                when '0' then array(0, 1)
                else sequence(6, 7)
            end
            -- group 2: slots #8-#11, spread by the distribute expression
            when 2 then array(8 + pmod(xxhash64(upper(b.key)), 4))
            -- group 3: slots #12-#19, by a hash of the keys
            when 3 then array(12 + pmod(xxhash64(rtrim(b.`key`)), 8))
            -- rows in no group: slots #0-#5 by a hash of the keys
            else array(pmod(xxhash64(rtrim(b.`key`)), 6))
        end) as sj_slot
    from b_grouped as b
)

select
    a.key,
    a.value,
    b.value as b_value
from a_slotted as a
inner join b_slotted as b
    on a.`key` = b.`key`
    and a.sj_slot = b.sj_slot
