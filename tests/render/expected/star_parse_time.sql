select *
from skewjoin_it.star_sales as f
cross join skewjoin_it.star_stores as s
cross join skewjoin_it.star_customers as c
cross join skewjoin_it.star_dates as d
cross join skewjoin_it.star_promos as pr
