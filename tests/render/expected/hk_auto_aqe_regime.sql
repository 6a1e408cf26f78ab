/* skewjoin.skew_join decision record (model unit_model)
  inner join on a.k (int) = b.k (int); skew specification from argument skew
  hot keys 'auto': AQE regime (measure, or leave the join to AQE?): left to AQE, nothing counted: AQE on, 200 shuffle partitions, the join is the whole model, an inner join (AQE splits either side); Spark estimates a at 976.6 KiB and b at 351.6 KiB, a mean partition of 6.6 KiB over 200 shuffle partitions; the largest partition AQE leaves whole is a 24.4 KiB, b 8.8 KiB (max of skewedPartitionThresholdInBytes 1.0 KiB and skewedPartitionFactor 5.0 x the mean, at most the side), its pieces 1.0 KiB (advisoryPartitionSizeInBytes), against 5 x the mean partition, 33.2 KiB. AQE balances this join at run time with exact sizes; counting its keys would read both sides in full
  hot keys of a not measured: the join is left to AQE (its regime, above)
  hot keys: none to handle, so no hot-key branch
  strategy: plain join, left to AQE (hot keys 'auto': the AQE regime above, nothing detected)
  measuring cost: 16 compile-time queries (0 reading data), <elapsed> s of wall time; by kind: column lists 2, <elapsed> s; settings 12, <elapsed> s; size estimates 2, <elapsed> s
*/
select
    a.id,
    a.k,
    b.label
from skewjoin_it.spread_left as a
inner join skewjoin_it.spread_right as b
    on a.k = b.k
