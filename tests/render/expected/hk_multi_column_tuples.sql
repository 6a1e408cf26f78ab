/* skewjoin.skew_join decision record (model unit_model)
  inner join on a.k_int (int) = b.k_int (int) and a.region (string) = b.region (string); skew specification from argument skew
  output columns of b renamed to avoid duplicate names: k_big -> b_k_big, k_str -> b_k_str, k_date -> b_k_date, k_ts -> b_k_ts
  hot keys of a not verified against the data (verify false, from var('skewjoin_verify'))
  hot keys of a (declared): 0, EU; 7, it's
  hot rows of a not spread (spread: never)
  hot branch for keys of a (0, EU; 7, it's): a's hot rows inner join the broadcast rows of b with those keys; multicast: those rows of b are broadcast, one copy to each of the tasks (one per input split of a) of the branch; no run-time count is made; rows never hash-shuffled by these keys
  strategy: hot keys by broadcast + plain shuffle join for the rest, results unioned
  measuring cost: 3 compile-time queries (0 reading data), <elapsed> s of wall time; by kind: column lists 2, <elapsed> s; settings 1, <elapsed> s
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
    where coalesce((a.k_int = cast(0 as int) and rtrim(a.region) = 'EU') or (a.k_int = cast(7 as int) and rtrim(a.region) = rtrim(concat('it', chr(39), 's'))), false)
),

a_hot_a as (
    select * from a_hot_a_read
),

a_rest as (
    select * from a_input as a
    where not (
        coalesce((a.k_int = cast(0 as int) and rtrim(a.region) = 'EU') or (a.k_int = cast(7 as int) and rtrim(a.region) = rtrim(concat('it', chr(39), 's'))), false)
    )
),

b_hot_a as (
    select * from b_input as b
    where coalesce((b.k_int = cast(0 as int) and rtrim(b.region) = 'EU') or (b.k_int = cast(7 as int) and rtrim(b.region) = rtrim(concat('it', chr(39), 's'))), false)
),

b_rest as (
    select * from b_input as b
    where not (
        coalesce((b.k_int = cast(0 as int) and rtrim(b.region) = 'EU') or (b.k_int = cast(7 as int) and rtrim(b.region) = rtrim(concat('it', chr(39), 's'))), false)
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
        b.attr
    from a_hot_a as a
    inner join b_hot_a as b
        on a.k_int = b.k_int
        and a.region = b.region
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
        b.attr
    from a_rest as a
    inner join b_rest as b
        on a.k_int = b.k_int
        and a.region = b.region
)

select * from hot_a
union all
select * from rest_joined
