/* skewjoin.skew_join_chain decision record (model unit_model)
  chain: a left join b on a.k_int = b.k_big, then left join c on a.k_int = c.k; keys compared as bigint; skew specification from argument skew
  the keys compare in different types (a.k_int = c.k compares as int): the slots are hashed in bigint on every side, so rows that match still meet; Spark shuffles a join's input again where its key type differs from the previous join's (cast the keys to one type in subqueries to shuffle a once)
  skew groups not verified against the data (verify false, from var('skewjoin_verify'))
  skew groups: 1, total slots 20 (from var('skewjoin_total_slots')); rows in no group: slots #0-#13 by key hash
  group 1 group_1: when 'a.k_int = 0', driver a, 6 slots -> slots #14-#19, distribute random: a rows spread by a hash of the whole row and its input split; b rows of the group multicast x6 (each of them is read once and copied to 6 slots: 5 extra rows per row)
  group 1: key 0's 6 slots placed on 6 distinct shuffle partitions of 200 (spark.sql.shuffle.partitions), slot values chosen by Spark's partition hash
  every join of the chain matches on (keys, sj_slot): a is salted once and the rows of every other side (b, c) of a group are copied to the same slots, so a join whose key type matches the previous one's keeps its partitioning (the others shuffle again, see above)
  strategy: skew groups over a chain of shuffle joins on (keys, slot)
  measuring cost: 9 compile-time queries (0 reading data), <elapsed> s of wall time; by kind: column lists 4, <elapsed> s; settings 4, <elapsed> s; slot placement 1, <elapsed> s
*/
with

a_input as (
    select * from skewjoin_it.typed_left as sj_source
),

b_input as (
    select * from skewjoin_it.typed_right as sj_source
),

c_input as (
    select * from skewjoin_it.spread_right as sj_source
),

a_grouped as (
    select
        a.*,
        case
            when (cast(a.k_int as bigint)) = 0 then 1
            else 0
        end as sj_group
    from a_input as a
),

a_slotted as (
    select
        a.*,
        case a.sj_group
            -- group 1: slots #14-#19, spread by a hash of the row and its input split (slot values placed on distinct shuffle partitions; other keys #14-#19)
            when 1 then case cast(a.k_int as bigint)
                when cast(0 as bigint) then element_at(array(0, 1, 2, 3, 4, 5), cast(pmod(pmod(xxhash64(a.id, a.k_int, a.k_big, a.k_str, a.k_dec, a.k_date, a.k_ts, a.region, a.payload), 6) + spark_partition_id(), 6) as int) + 1)
                else 14 + pmod(pmod(xxhash64(a.id, a.k_int, a.k_big, a.k_str, a.k_dec, a.k_date, a.k_ts, a.region, a.payload), 6) + spark_partition_id(), 6)
            end
            -- rows in no group: slots #0-#13 by a hash of the keys
            else pmod(xxhash64(cast(a.k_int as bigint)), 14)
        end as sj_slot
    from a_grouped as a
),

b_grouped as (
    select
        b.*,
        case
            when (b.k_big) = 0 then 1
            else 0
        end as sj_group
    from b_input as b
),

b_slotted as (
    select
        b.*,
        explode(case b.sj_group
            -- group 1: slots #14-#19, multicast to every slot (slot values placed on distinct shuffle partitions; other keys #14-#19)
            when 1 then case b.k_big
                when cast(0 as bigint) then array(0, 1, 2, 3, 4, 5)
                else sequence(14, 19)
            end
            -- rows in no group: slots #0-#13 by a hash of the keys
            else array(pmod(xxhash64(b.k_big), 14))
        end) as sj_slot
    from b_grouped as b
),

c_grouped as (
    select
        c.*,
        case
            when (cast(c.k as bigint)) = 0 then 1
            else 0
        end as sj_group
    from c_input as c
),

c_slotted as (
    select
        c.*,
        explode(case c.sj_group
            -- group 1: slots #14-#19, multicast to every slot (slot values placed on distinct shuffle partitions; other keys #14-#19)
            when 1 then case cast(c.k as bigint)
                when cast(0 as bigint) then array(0, 1, 2, 3, 4, 5)
                else sequence(14, 19)
            end
            -- rows in no group: slots #0-#13 by a hash of the keys
            else array(pmod(xxhash64(cast(c.k as bigint)), 14))
        end) as sj_slot
    from c_grouped as c
)

select
    a.id,
    b.rid,
    c.label
from a_slotted as a
left join b_slotted as b
    on a.k_int = b.k_big
    and a.sj_slot = b.sj_slot
left join c_slotted as c
    on a.k_int = c.k
    and a.sj_slot = c.sj_slot
