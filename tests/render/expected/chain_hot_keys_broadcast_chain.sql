/* skewjoin.skew_join_chain decision record (model unit_model)
  chain: a inner join b on a.k_int = b.k_int, then left join c on a.k_int = c.k; keys compared as int; skew specification from argument skew
  hot keys of a not verified against the data (verify false, from var('skewjoin_verify'))
  hot keys of a (declared): 7 + NULL keys
  rows of a with a NULL key are dropped before the chain (they can never match, and an inner join of the chain drops them)
  hot keys of a (7): its hot rows meet a broadcast copy of each other side's rows of those keys, one join after the other (b, c), never hash-shuffled; multicast: those rows are broadcast, one copy to each task of the branch
  strategy: hot keys by a chain of broadcast joins + the plain chain for the rest, results unioned
  measuring cost: 6 compile-time queries (0 reading data), <elapsed> s of wall time; by kind: column lists 4, <elapsed> s; settings 2, <elapsed> s
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

a_hot as (
    select * from a_input as a
    where coalesce(a.k_int in (cast(7 as int)), false)
),

b_hot as (
    select * from b_input as b
    where coalesce(b.k_int in (cast(7 as int)), false)
),

b_rest as (
    select * from b_input as b
    where not coalesce(b.k_int in (cast(7 as int)), false)
),

c_hot as (
    select * from c_input as c
    where coalesce(c.k in (cast(7 as int)), false)
),

c_rest as (
    select * from c_input as c
    where not coalesce(c.k in (cast(7 as int)), false)
),

hot_chain as (
    select /*+ broadcast(b, c) */
        a.id,
        b.rid,
        c.label
    from a_hot as a
    inner join b_hot as b
        on a.k_int = b.k_int
    left join c_hot as c
        on a.k_int = c.k
),

a_rest as (
    select * from a_input as a
    where not (
        (a.k_int is null)
        or coalesce(a.k_int in (cast(7 as int)), false)
    )
),

rest_chain as (
    select
        a.id,
        b.rid,
        c.label
    from a_rest as a
    inner join b_rest as b
        on a.k_int = b.k_int
    left join c_rest as c
        on a.k_int = c.k
)

select * from hot_chain
union all
select * from rest_chain
