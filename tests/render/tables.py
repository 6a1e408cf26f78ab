"""The integration project's input tables as the render tier's fake Spark
describes them: the columns and types of integration_tests/models/inputs (and
the seed src), keyed as ``ref()`` writes them. Sizes and rows only where a
test needs them; a test copies what it changes (``tables(...)``)."""

from __future__ import annotations

import copy

from .harness import SCHEMA, Table

_TYPED = [
    ("k_int", "int"), ("k_big", "bigint"), ("k_str", "string"), ("k_date", "date"), ("k_ts", "timestamp"),
    ("region", "string"),
]  # fmt: skip

INPUTS: dict[str, Table] = {
    "typed_left": Table([("id", "bigint"), *_TYPED[:3], ("k_dec", "decimal(18,4)"), *_TYPED[3:], ("payload", "string")]),
    "typed_left_b_region": Table([("id", "bigint"), *_TYPED[:3], ("k_dec", "decimal(18,4)"), *_TYPED[3:],
                                  ("payload", "string"), ("b_region", "string")]),
    "typed_right": Table([("rid", "bigint"), *_TYPED[:3], ("k_dec2", "decimal(10,2)"), *_TYPED[3:], ("attr", "string")]),
    "src": Table([("key", "string"), ("value", "string")]),
    "hostile_keys": Table([("pos", "int"), ("hkey", "string")]),
    "hostile_left": Table([("hkey", "string"), ("pos", "int"), ("copy_no", "bigint")]),
    "hostile_right": Table([("hkey", "string"), ("label", "string")]),
    "spread_left": Table([("id", "bigint"), ("k", "int")]),
    "spread_right": Table([("k", "int"), ("label", "string")]),
    "star_sales": Table(
        [("sale_id", "bigint"), ("store_id", "int"), ("sold_date", "date"), ("ship_date", "date"),
         ("product_id", "bigint"), ("customer_id", "string"), ("promo_code", "string"), ("channel_id", "int"),
         ("warehouse_id", "int"), ("amount", "decimal(10,2)"), ("qty", "int")],
        stats_bytes=180_000,
    ),
    "star_stores": Table([("store_id", "bigint"), ("store_name", "string"), ("region", "string")], stats_bytes=1_700),
    "star_dates": Table([("date_key", "date"), ("year", "int"), ("month", "int"), ("day_name", "string")],
                        stats_bytes=3_900),
    "star_customers": Table([("customer_id", "string"), ("segment", "string"), ("country", "string")],
                            stats_bytes=4_800),
    "star_promos": Table([("store_id", "int"), ("discount_pct", "decimal(5,2)"), ("promo_code", "string")],
                         stats_bytes=2_300),
    "star_products": Table([("product_id", "bigint"), ("category", "string"), ("product_name", "string"),
                            ("description", "string")], stats_bytes=260_000),
    "star_channels": Table([("channel_id", "int"), ("channel_name", "string")], file_bytes=1_100),
    "star_warehouses": Table([("warehouse_id", "int"), ("warehouse_name", "string")], file_bytes=1_000),
    "star_store_regions": Table([("store_id", "bigint"), ("store_region", "string")], kind="VIEW"),
    "prune_sales": Table([("sale_id", "bigint"), ("amount", "decimal(12,2)"), ("store_id", "int"),
                          ("customer", "string"), ("date_key", "date")], partition_by=["date_key"]),
    "prune_sales_flat": Table([("sale_id", "bigint"), ("store_id", "int"), ("amount", "decimal(12,2)"),
                               ("customer", "string"), ("date_key", "date")]),
    "prune_dates": Table([("date_key", "date"), ("year", "int"), ("month", "int"), ("is_weekend", "boolean")]),
    "prune_stores": Table([("store_id", "int"), ("region", "string")]),
    "prune_promos": Table([("date_key", "date"), ("store_id", "int"), ("promo_type", "string")]),
}  # fmt: skip


def tables(*names: str, **extra: Table) -> dict[str, Table]:
    """Fresh copies of the named inputs (keyed ``skewjoin_it.<name>``) plus
    extra tables keyed as given (a table name, a path or a query's text)."""
    out = {f"{SCHEMA}.{name}": copy.deepcopy(INPUTS[name]) for name in names}
    out.update(extra)
    return out
