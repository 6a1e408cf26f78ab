/* skewjoin.skew_join decision record (model unit_model)
  left join on a.k_int (int) = b.k_int (int); skew specification from argument skew
  output columns of b renamed to avoid duplicate names: k_big -> b_k_big, k_str -> b_k_str, k_date -> b_k_date, k_ts -> b_k_ts, region -> b_region
  hot keys of a not verified against the data (verify false, from var('skewjoin_verify'))
  hot keys of a (declared): 0; 1
  skew groups not verified against the data (verify false, from var('skewjoin_verify'))
  hot rows of a spread by xxhash64 of the whole row and its input split over 2 partitions: its input has only 1 splits (< spread_min_splits 8) for a default parallelism of 2, which would make the broadcast branch a straggler (cost: one shuffle of the hot rows (written and read once), no sort)
  hot branch for keys of a (0; 1): a's hot rows left outer join the broadcast rows of b with those keys; multicast: those rows of b are broadcast, one copy to each of the 2 tasks of the branch; no run-time count is made; rows never hash-shuffled by these keys
  skew groups: 1, total slots 20 (from var('skewjoin_total_slots')); rows in no group: slots #0-#15 by key hash
  group 1 group_1: when 'a.k_int in (0, 1)', driver a, 4 slots -> slots #16-#19, distribute random: a rows spread by a hash of the whole row and its input split; b rows of the group multicast x4 (each of them is read once and copied to 4 slots: 3 extra rows per row)
  group 1: key 0's 4 slots placed on 4 distinct shuffle partitions of 200 (spark.sql.shuffle.partitions), slot values chosen by Spark's partition hash
  group 1: key 1's 4 slots placed on 4 distinct shuffle partitions of 200 (spark.sql.shuffle.partitions), slot values chosen by Spark's partition hash
  WARNING group 1 group_1 can receive no rows: every key its `when` selects (0, 1) is a hot key, and hot keys are joined by the broadcast branch before the groups are formed; its 4 slots (#16-#19) stay idle. Drop the group, or drop these keys from hot_keys
  strategy: hot keys by broadcast + skew groups for the rest, results unioned
  measuring cost: 8 compile-time queries (1 reading data), <elapsed> s of wall time; by kind: input splits 1, <elapsed> s; column lists 2, <elapsed> s; parallelism 1, <elapsed> s; settings 3, <elapsed> s; slot placement 1, <elapsed> s
*/
with

a_input as (
    select * from skewjoin_it.typed_left as sj_source
),

b_input as (
    select * from skewjoin_it.typed_right as sj_source
),

a_hot_a_read as (
    select * from a_input as a
    where coalesce(a.k_int in (cast(0 as int), cast(1 as int)), false)
),

a_hot_a_hashed as (
    select *, xxhash64(a_hot_a_read.id, a_hot_a_read.k_int, a_hot_a_read.k_big, a_hot_a_read.k_str, a_hot_a_read.k_dec, a_hot_a_read.k_date, a_hot_a_read.k_ts, a_hot_a_read.region, a_hot_a_read.payload, spark_partition_id()) as sj_spread from a_hot_a_read
),

a_hot_a_spread as (
    select /*+ repartition(2, sj_spread) */ * from a_hot_a_hashed
),

a_hot_a as (
    select id, k_int, k_big, k_str, k_dec, k_date, k_ts, region, payload from a_hot_a_spread
),

a_rest as (
    select * from a_input as a
    where not (
        coalesce(a.k_int in (cast(0 as int), cast(1 as int)), false)
    )
),

b_hot_a as (
    select * from b_input as b
    where coalesce(b.k_int in (cast(0 as int), cast(1 as int)), false)
),

b_rest as (
    select * from b_input as b
    where not (
        coalesce(b.k_int in (cast(0 as int), cast(1 as int)), false)
    )
),

hot_a as (
    select /*+ broadcast(b) */
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
    from a_hot_a as a
    left outer join b_hot_a as b
        on a.k_int = b.k_int
),

a_grouped as (
    select
        a.*,
        case
            when (a.k_int) in (0, 1) then 1
            else 0
        end as sj_group
    from a_rest as a
),

a_slotted as (
    select
        a.*,
        case a.sj_group
            -- group 1: slots #16-#19, spread by a hash of the row and its input split (slot values placed on distinct shuffle partitions; other keys #16-#19)
            when 1 then case a.k_int
                when cast(0 as int) then element_at(array(0, 1, 2, 3), cast(pmod(pmod(xxhash64(a.id, a.k_int, a.k_big, a.k_str, a.k_dec, a.k_date, a.k_ts, a.region, a.payload), 4) + spark_partition_id(), 4) as int) + 1)
                when cast(1 as int) then element_at(array(0, 1, 2, 3), cast(pmod(pmod(xxhash64(a.id, a.k_int, a.k_big, a.k_str, a.k_dec, a.k_date, a.k_ts, a.region, a.payload), 4) + spark_partition_id(), 4) as int) + 1)
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
            when (b.k_int) in (0, 1) then 1
            else 0
        end as sj_group
    from b_rest as b
),

b_slotted as (
    select
        b.*,
        explode(case b.sj_group
            -- group 1: slots #16-#19, multicast to every slot (slot values placed on distinct shuffle partitions; other keys #16-#19)
            when 1 then case b.k_int
                when cast(0 as int) then array(0, 1, 2, 3)
                when cast(1 as int) then array(0, 1, 2, 3)
                else sequence(16, 19)
            end
            -- rows in no group: slots #0-#15 by a hash of the keys
            else array(pmod(xxhash64(b.k_int), 16))
        end) as sj_slot
    from b_grouped as b
),

rest_joined as (
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
    left outer join b_slotted as b
        on a.k_int = b.k_int
        and a.sj_slot = b.sj_slot
)

select * from hot_a
union all
select * from rest_joined
