select * from skewjoin_it.typed_left as a cross join skewjoin_it.typed_right as b
