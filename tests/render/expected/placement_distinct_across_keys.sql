/* skewjoin.skew_join decision record (model unit_model)
  inner join on a.k_int (int) = b.k_int (int); skew specification from argument skew
  output columns of b renamed to avoid duplicate names: k_big -> b_k_big, k_str -> b_k_str, k_date -> b_k_date, k_ts -> b_k_ts, region -> b_region
  skew groups not verified against the data (verify false, from var('skewjoin_verify'))
  skew groups: 2, total slots 200 (from skew_join.total_slots); rows in no group: slots #0-#109 by key hash
  group 1 group_1: when 'a.k_int in (0, 7)', driver a, 60 slots -> slots #110-#169, distribute random: a rows spread by a hash of the whole row and its input split; b rows of the group multicast x60 (each of them is read once and copied to 60 slots: 59 extra rows per row)
  group 2 group_2: when 'a.k_int = -3', driver a, 30 slots -> slots #170-#199, distribute random: a rows spread by a hash of the whole row and its input split; b rows of the group multicast x30 (each of them is read once and copied to 30 slots: 29 extra rows per row)
  group 1: key 0's 60 slots placed on 60 distinct shuffle partitions of 200 (spark.sql.shuffle.partitions), slot values chosen by Spark's partition hash
  group 1: key 7's 60 slots placed on 60 distinct shuffle partitions of 200 (spark.sql.shuffle.partitions), slot values chosen by Spark's partition hash
  group 2: key -3's 30 slots placed on 30 distinct shuffle partitions of 200 (spark.sql.shuffle.partitions), slot values chosen by Spark's partition hash
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
            when (a.k_int) in (0, 7) then 1
            when (a.k_int) = -3 then 2
            else 0
        end as sj_group
    from a_input as a
),

a_slotted as (
    select
        a.*,
        case a.sj_group
            -- group 1: slots #110-#169, spread by a hash of the row and its input split (slot values placed on distinct shuffle partitions; other keys #110-#169)
            when 1 then case a.k_int
                when cast(0 as int) then element_at(array(
                        0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
                        16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 28, 31, 36, 39, 41,
                        44, 49, 52, 54, 57, 60, 62, 65, 70, 73, 75, 78, 83, 86, 91, 94,
                        96, 99, 104, 107, 109, 112, 115, 117, 120, 125, 128, 130
                    ), cast(pmod(pmod(xxhash64(a.id, a.k_int, a.k_big, a.k_str, a.k_dec, a.k_date, a.k_ts, a.region, a.payload), 60) + spark_partition_id(), 60) as int) + 1)
                when cast(7 as int) then element_at(array(
                        1, 4, 6, 9, 11, 12, 14, 17, 25, 151, 159, 164, 167, 172, 180, 183,
                        185, 188, 193, 196, 198, 201, 204, 206, 209, 214, 217, 219, 222, 227, 230, 235,
                        238, 240, 243, 248, 251, 253, 256, 259, 261, 264, 269, 272, 274, 277, 282, 285,
                        287, 290, 293, 295, 298, 303, 306, 308, 311, 316, 319, 324
                    ), cast(pmod(pmod(xxhash64(a.id, a.k_int, a.k_big, a.k_str, a.k_dec, a.k_date, a.k_ts, a.region, a.payload), 60) + spark_partition_id(), 60) as int) + 1)
                else 110 + pmod(pmod(xxhash64(a.id, a.k_int, a.k_big, a.k_str, a.k_dec, a.k_date, a.k_ts, a.region, a.payload), 60) + spark_partition_id(), 60)
            end
            -- group 2: slots #170-#199, spread by a hash of the row and its input split (slot values placed on distinct shuffle partitions; other keys #170-#199)
            when 2 then case a.k_int
                when cast(-3 as int) then element_at(array(
                        1, 4, 6, 9, 11, 12, 14, 17, 25, 345, 350, 358, 363, 366, 371, 374,
                        376, 379, 382, 384, 387, 392, 395, 397, 400, 405, 408, 413, 416, 418
                    ), cast(pmod(pmod(xxhash64(a.id, a.k_int, a.k_big, a.k_str, a.k_dec, a.k_date, a.k_ts, a.region, a.payload), 30) + spark_partition_id(), 30) as int) + 1)
                else 170 + pmod(pmod(xxhash64(a.id, a.k_int, a.k_big, a.k_str, a.k_dec, a.k_date, a.k_ts, a.region, a.payload), 30) + spark_partition_id(), 30)
            end
            -- rows in no group: slots #0-#109 by a hash of the keys
            else pmod(xxhash64(a.k_int), 110)
        end as sj_slot
    from a_grouped as a
),

b_grouped as (
    select
        b.*,
        case
            when (b.k_int) in (0, 7) then 1
            when (b.k_int) = -3 then 2
            else 0
        end as sj_group
    from b_input as b
),

b_slotted as (
    select
        b.*,
        explode(case b.sj_group
            -- group 1: slots #110-#169, multicast to every slot (slot values placed on distinct shuffle partitions; other keys #110-#169)
            when 1 then case b.k_int
                when cast(0 as int) then array(
                        0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
                        16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 28, 31, 36, 39, 41,
                        44, 49, 52, 54, 57, 60, 62, 65, 70, 73, 75, 78, 83, 86, 91, 94,
                        96, 99, 104, 107, 109, 112, 115, 117, 120, 125, 128, 130
                    )
                when cast(7 as int) then array(
                        1, 4, 6, 9, 11, 12, 14, 17, 25, 151, 159, 164, 167, 172, 180, 183,
                        185, 188, 193, 196, 198, 201, 204, 206, 209, 214, 217, 219, 222, 227, 230, 235,
                        238, 240, 243, 248, 251, 253, 256, 259, 261, 264, 269, 272, 274, 277, 282, 285,
                        287, 290, 293, 295, 298, 303, 306, 308, 311, 316, 319, 324
                    )
                else sequence(110, 169)
            end
            -- group 2: slots #170-#199, multicast to every slot (slot values placed on distinct shuffle partitions; other keys #170-#199)
            when 2 then case b.k_int
                when cast(-3 as int) then array(
                        1, 4, 6, 9, 11, 12, 14, 17, 25, 345, 350, 358, 363, 366, 371, 374,
                        376, 379, 382, 384, 387, 392, 395, 397, 400, 405, 408, 413, 416, 418
                    )
                else sequence(170, 199)
            end
            -- rows in no group: slots #0-#109 by a hash of the keys
            else array(pmod(xxhash64(b.k_int), 110))
        end) as sj_slot
    from b_grouped as b
)

select
    a.id,
    a.k_int,
    a.k_big,
    a.k_str,
    a.k_dec,
    a.k_date,
    a.k_ts,
    a.region,
    a.payload,
    b.rid,
    b.k_big as b_k_big,
    b.k_str as b_k_str,
    b.k_dec2,
    b.k_date as b_k_date,
    b.k_ts as b_k_ts,
    b.region as b_region,
    b.attr
from a_slotted as a
inner join b_slotted as b
    on a.k_int = b.k_int
    and a.sj_slot = b.sj_slot
