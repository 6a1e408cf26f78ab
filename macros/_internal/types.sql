{#- Key types, and the one type Spark compares two join keys in.

    Anything computed from a key on both sides (a group's `when`, a `keys`
    hash, a hot-key match) must see the same value on both sides, so it is
    computed on the keys cast to the type Spark's own equality uses. These
    rules were read off the analyzed plans of Spark 4.x (ANSI on and off) and
    are checked against a live Spark by the integration tests
    (test_common_key_type_matches_spark).
-#}

{% macro _sj_normalize_type(data_type) -%}
    {%- set t = (data_type | string | lower | trim) -%}
    {%- set t = modules.re.sub('\\s+', ' ', t) -%}
    {%- set t = modules.re.sub('\\s*([(),])\\s*', '\\1', t) -%}
    {%- set aliases = {
        'integer': 'int', 'long': 'bigint', 'short': 'smallint', 'byte': 'tinyint',
        'real': 'float', 'bool': 'boolean', 'decimal': 'decimal(10,0)', 'dec': 'decimal(10,0)',
        'numeric': 'decimal(10,0)', 'timestamp_ltz': 'timestamp', 'string collate utf8_binary': 'string'
    } -%}
    {%- if t in aliases -%}
        {{- return(aliases[t]) -}}
    {%- endif -%}
    {%- set m = modules.re.fullmatch('(?:decimal|dec|numeric)\\((\\d+)(?:,(\\d+))?\\)', t) -%}
    {%- if m -%}
        {{- return('decimal(' ~ m.group(1) ~ ',' ~ (m.group(2) or '0') ~ ')') -}}
    {%- endif -%}
    {{- return(t) -}}
{%- endmacro %}


{#- integral | decimal | fractional | string | boolean | date | timestamp | other -#}
{% macro _sj_type_kind(data_type) -%}
    {%- set t = skewjoin._sj_normalize_type(data_type) -%}
    {%- if t in ('tinyint', 'smallint', 'int', 'bigint') -%}
        {{- return('integral') -}}
    {%- elif t.startswith('decimal(') -%}
        {{- return('decimal') -}}
    {%- elif t in ('float', 'double') -%}
        {{- return('fractional') -}}
    {%- elif t == 'string' or modules.re.fullmatch('(var)?char\\(\\d+\\)', t) -%}
        {{- return('string') -}}
    {%- elif t == 'boolean' -%}
        {{- return('boolean') -}}
    {%- elif t == 'date' -%}
        {{- return('date') -}}
    {%- elif t == 'timestamp' -%}
        {{- return('timestamp') -}}
    {%- else -%}
        {{- return('other') -}}
    {%- endif -%}
{%- endmacro %}


{#- (precision, scale) of a decimal or an integral type seen as a decimal. -#}
{% macro _sj_decimal_parts(data_type) -%}
    {%- set t = skewjoin._sj_normalize_type(data_type) -%}
    {%- set integral_digits = {'tinyint': 3, 'smallint': 5, 'int': 10, 'bigint': 20} -%}
    {%- if t in integral_digits -%}
        {{- return([integral_digits[t], 0]) -}}
    {%- endif -%}
    {%- set m = modules.re.fullmatch('decimal\\((\\d+),(\\d+)\\)', t) -%}
    {{- return([m.group(1) | int, m.group(2) | int]) -}}
{%- endmacro %}


{#- Whether every value of `from_type` is a value of `to_type`, exactly and
    one to one, so that two values are equal in one type exactly when they
    are equal in the other: the same type; an integral or a decimal into a
    type that keeps all its integer digits and its scale; a float into a
    double; a date into a timestamp (midnight). A cast of text, a rounding
    or a float of a large integer is not. -#}
{% macro _sj_exact_widening(from_type, to_type) -%}
    {%- set f = skewjoin._sj_normalize_type(from_type) -%}
    {%- set t = skewjoin._sj_normalize_type(to_type) -%}
    {%- set fk = skewjoin._sj_type_kind(f) -%}
    {%- set tk = skewjoin._sj_type_kind(t) -%}
    {%- if f == t or (fk == 'string' and tk == 'string') -%}
        {{- return(true) -}}
    {%- elif fk in ('integral', 'decimal') and tk in ('integral', 'decimal') -%}
        {%- set a = skewjoin._sj_decimal_parts(f) -%}
        {%- set b = skewjoin._sj_decimal_parts(t) -%}
        {{- return(b[1] >= a[1] and b[0] - b[1] >= a[0] - a[1]) -}}
    {%- endif -%}
    {{- return((f == 'float' and t == 'double') or (fk == 'date' and tk == 'timestamp')) -}}
{%- endmacro %}


{#- The type Spark compares `left_type = right_type` in, or none when Spark
    cannot compare them (or compares them in a way we refuse to mirror). -#}
{% macro _sj_common_type(left_type, right_type, ansi=true) -%}
    {%- set l = skewjoin._sj_normalize_type(left_type) -%}
    {%- set r = skewjoin._sj_normalize_type(right_type) -%}
    {%- set lk = skewjoin._sj_type_kind(l) -%}
    {%- set rk = skewjoin._sj_type_kind(r) -%}
    {%- if 'collate' in l or 'collate' in r -%}
        {{- return(none) -}}
    {%- endif -%}
    {%- if lk == 'string' and rk == 'string' -%}
        {{- return('string') -}}
    {%- endif -%}
    {%- if l == r -%}
        {{- return(l) -}}
    {%- endif -%}
    {%- set rank = {'tinyint': 1, 'smallint': 2, 'int': 3, 'bigint': 4} -%}
    {%- if lk == 'integral' and rk == 'integral' -%}
        {{- return(l if rank[l] >= rank[r] else r) -}}
    {%- endif -%}
    {%- if lk in ('integral', 'decimal') and rk in ('integral', 'decimal') -%}
        {%- set lp = skewjoin._sj_decimal_parts(l) -%}
        {%- set rp = skewjoin._sj_decimal_parts(r) -%}
        {%- set scale = [lp[1], rp[1]] | max -%}
        {%- set whole = [lp[0] - lp[1], rp[0] - rp[1]] | max -%}
        {%- set precision = whole + scale -%}
        {%- if precision > 38 -%}
            {%- set scale = [scale - (precision - 38), 0] | max -%}
            {%- set precision = 38 -%}
        {%- endif -%}
        {{- return('decimal(' ~ precision ~ ',' ~ scale ~ ')') -}}
    {%- endif -%}
    {%- if lk in ('integral', 'decimal', 'fractional') and rk in ('integral', 'decimal', 'fractional') -%}
        {#- at least one side is float or double -#}
        {%- if not ansi and 'double' not in (l, r) and 'decimal' not in (lk, rk) -%}
            {{- return('float') -}}
        {%- endif -%}
        {{- return('double') -}}
    {%- endif -%}
    {%- if (lk == 'date' and rk == 'timestamp') or (lk == 'timestamp' and rk == 'date') -%}
        {{- return('timestamp') -}}
    {%- endif -%}
    {%- if lk == 'string' or rk == 'string' -%}
        {%- set other = r if lk == 'string' else l -%}
        {%- set other_kind = rk if lk == 'string' else lk -%}
        {%- if other_kind in ('boolean', 'date', 'timestamp') -%}
            {{- return(other) -}}
        {%- elif other_kind == 'integral' -%}
            {{- return('bigint' if ansi else other) -}}
        {%- elif other_kind == 'fractional' -%}
            {{- return('double' if ansi else other) -}}
        {%- elif other_kind == 'decimal' and ansi -%}
            {{- return('double') -}}
        {%- endif -%}
    {%- endif -%}
    {{- return(none) -}}
{%- endmacro %}


{#- `expr` (of `from_type`) as a value of `to_type`, as Spark's own equality
    reads it in the session's ANSI mode (`ansi`): widening casts cannot fail;
    with ANSI on a string is read with try_cast (a value Spark's own equality
    could not read fails the plain join, and matches nothing here); with ANSI
    off with cast, whose legacy reading is the equality's (it takes '1.9' and
    '1.0' as the int 1, where try_cast reads NULL), and never raises. -#}
{% macro _sj_cast(expr, from_type, to_type, ansi=true) -%}
    {%- set f = skewjoin._sj_normalize_type(from_type) -%}
    {%- set t = skewjoin._sj_normalize_type(to_type) -%}
    {%- if f == t or (skewjoin._sj_type_kind(f) == 'string' and t == 'string') -%}
        {{- return(expr) -}}
    {%- elif skewjoin._sj_type_kind(f) == 'string' and ansi -%}
        {{- return('try_cast(' ~ expr ~ ' as ' ~ t ~ ')') -}}
    {%- else -%}
        {{- return('cast(' ~ expr ~ ' as ' ~ t ~ ')') -}}
    {%- endif -%}
{%- endmacro %}


{#- Arrays, maps, structs and variants: no literal writes one (the profile's is_complex_type). -#}
{% macro _sj_is_complex_type(data_type) -%}
    {{- return(modules.re.match('\\s*(array|map|struct|variant|object)', data_type | string | lower) is not none) -}}
{%- endmacro %}
