-- Declared hot keys that are hostile strings: each becomes one escaped literal.
{{ config(skew_join={'hot_keys': [
    "it's", "back\\slash", "trailing\\", "\\' or 1=1 --", "--comment", "/*open", "close*/",
    "${var}", "${spark.sql.shuffle.partitions}", "{{ jinja }}", "new\nline", "tab\there", 'dq"x', "ünïcödé ✓ 日本", "", "x" * 3000, none
]}) }}
{{ skewjoin.skew_join(ref('hostile_left'), ref('hostile_right'), on=['hkey'], join_type='left', columns=['a.hkey', 'a.pos', 'a.copy_no', 'b.label']) }}
