/* skewjoin.skew_join decision record (model unit_model)
  inner join on a.k_int (int) = b.k_int (int); skew specification from argument skew
  hot keys of a not verified: counting their rows needs a query and compile-time queries are off (var skewjoin_run_queries: false)
  hot keys of a (declared): 0; 1
  hot rows of a not spread: counting its input splits needs a query and run-time queries are off (var skewjoin_run_queries: false)
  hot branch for keys of a (0; 1): a's hot rows inner join the broadcast rows of b with those keys; multicast: those rows of b are broadcast, one copy to each of the tasks (one per input split of a) of the branch; no run-time count is made; rows never hash-shuffled by these keys
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
    where coalesce(a.k_int in (cast(0 as int), cast(1 as int)), false)
),

a_hot_a as (
    select * from a_hot_a_read
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
        b.rid
    from a_hot_a as a
    inner join b_hot_a as b
        on a.k_int = b.k_int
),

rest_joined as (
    select
        a.id,
        b.rid
    from a_rest as a
    inner join b_rest as b
        on a.k_int = b.k_int
)

select * from hot_a
union all
select * from rest_joined
