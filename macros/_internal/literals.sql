{#- SQL literals and identifiers built from data or config.

    A string is written so that Spark reads the same text in either literal
    mode and whatever it holds (quotes, `--`, `/*`, newlines, unicode): text
    that needs no escape as one literal; otherwise its plain runs as literals
    and each quote, backslash, newline, carriage return, tab, NUL and the `$`
    of `${` as `chr(n)`, joined with concat(). No backslash escape: with
    `spark.sql.parser.escapedStringLiterals=true` Spark keeps a literal's
    backslashes as written (`'it\'s'` reads as it\'s), so an escaped key
    matched nothing, and a pruning predicate dropped its rows. No `${`:
    Spark substitutes `${name}` in the statement text before parsing, inside
    literals too. Spark folds the concat() to a literal before it prunes
    partitions.
-#}

{% macro _sj_quote_string(value) -%}
    {%- set s = value | string -%}
    {%- set codes = {"'": 39, '\\': 92, '\n': 10, '\r': 13, '\t': 9, '\x00': 0} -%}
    {%- if '${' not in s and codes | select('in', s) | list | length == 0 -%}
        {{- return("'" ~ s ~ "'") -}}
    {%- endif -%}
    {%- set parts = [] -%}
    {%- set run = namespace(text='') -%}
    {%- for ch in s -%}
        {%- set dollar = ch == '$' and s[loop.index:loop.index + 1] == '{' -%}
        {%- if ch in codes or dollar -%}
            {%- if run.text -%}
                {%- do parts.append("'" ~ run.text ~ "'") -%}
                {%- set run.text = '' -%}
            {%- endif -%}
            {%- do parts.append('chr(' ~ (36 if dollar else codes[ch]) ~ ')') -%}
        {%- else -%}
            {%- set run.text = run.text ~ ch -%}
        {%- endif -%}
    {%- endfor -%}
    {%- if run.text -%}
        {%- do parts.append("'" ~ run.text ~ "'") -%}
    {%- endif -%}
    {{- return(parts[0] if parts | length == 1 else 'concat(' ~ (parts | join(', ')) ~ ')') -}}
{%- endmacro %}


{#- A typed literal for `value` compared against a column of `data_type`.
    None becomes a typed NULL. Numbers are validated so that nothing but a
    number can reach the SQL text. -#}
{% macro _sj_literal(value, data_type) -%}
    {%- set t = skewjoin._sj_normalize_type(data_type) -%}
    {%- if value is none -%}
        {{- return('cast(null as ' ~ t ~ ')') -}}
    {%- endif -%}
    {%- if skewjoin._sj_is_complex_type(t) -%}
        {{- return(none) -}}
    {%- endif -%}
    {%- set kind = skewjoin._sj_type_kind(t) -%}
    {%- set special = skewjoin._sj_special_float(value, t) -%}
    {%- if special is not none -%}
        {#- NaN and the infinities of a float or double: Spark's join matches NaN with NaN -#}
        {{- return('cast(' ~ skewjoin._sj_quote_string(special) ~ ' as ' ~ t ~ ')') -}}
    {%- endif -%}
    {%- if kind in ('integral', 'decimal', 'fractional') -%}
        {%- set text = value | string | trim -%}
        {%- set number = '[+-]?([0-9]+([.][0-9]*)?|[.][0-9]+)([eE][+-]?[0-9]+)?' -%}
        {%- if value is boolean or not modules.re.fullmatch(number, text) -%}
            {{- return(none) -}}
        {%- endif -%}
        {%- if kind == 'integral' and not modules.re.fullmatch('[+-]?[0-9]+', text) -%}
            {{- return(none) -}}
        {%- endif -%}
        {%- if not skewjoin._sj_value_fits(text, t) -%}
            {{- return(none) -}}
        {%- endif -%}
        {%- if kind == 'decimal' -%}
            {#- Spark reads a number with an exponent (1.2E-7, as cast(x as string) writes a small
                decimal with ANSI off) as a double: a decimal's literal is its plain text, and past
                38 digits (a double too) the string cast -#}
            {%- set text = skewjoin._sj_plain_number(text) -%}
            {%- if modules.re.sub('[^0-9]', '', text) | length > 38 -%}
                {{- return('cast(' ~ skewjoin._sj_quote_string(text) ~ ' as ' ~ t ~ ')') -}}
            {%- endif -%}
        {%- endif -%}
        {{- return('cast(' ~ text ~ ' as ' ~ t ~ ')') -}}
    {%- elif kind == 'boolean' -%}
        {%- set text = value | string | lower | trim -%}
        {%- if text not in ('true', 'false') -%}
            {{- return(none) -}}
        {%- endif -%}
        {{- return(text) -}}
    {%- elif kind == 'string' -%}
        {{- return(skewjoin._sj_quote_string(value)) -}}
    {%- elif kind in ('date', 'timestamp') and not skewjoin._sj_value_fits(value | string, t) -%}
        {{- return(none) -}}
    {%- else -%}
        {#- date, timestamp and anything else: a string literal cast to the type -#}
        {{- return('cast(' ~ skewjoin._sj_quote_string(value) ~ ' as ' ~ t ~ ')') -}}
    {%- endif -%}
{%- endmacro %}


{#- A key value as a config's `when` carries it (skewjoin.literals.spark_literal,
    the Python planner's form): integral and decimal numbers as plain numbers,
    which the slot placement reads back from the `when`; booleans and strings
    as `_sj_literal` writes them; every other type a string cast to the type.
    None when the value is not valid for the type. -#}
{% macro _sj_config_literal(value, data_type) -%}
    {%- set t = skewjoin._sj_normalize_type(data_type) -%}
    {%- set lit = skewjoin._sj_literal(value, t) -%}
    {%- if lit is none or value is none -%}
        {{- return(none) -}}
    {%- endif -%}
    {%- set kind = skewjoin._sj_type_kind(t) -%}
    {%- if kind in ('integral', 'decimal') -%}
        {{- return(skewjoin._sj_plain_number(value | string | trim)) -}}
    {%- elif kind in ('boolean', 'string') -%}
        {{- return(lit) -}}
    {%- endif -%}
    {{- return('cast(' ~ skewjoin._sj_quote_string(value) ~ ' as ' ~ t ~ ')') -}}
{%- endmacro %}


{#- Whether a value's text (a number's already checked by pattern) is a value of type `t` (normalized),
    which Spark's cast would otherwise refuse when the query runs: an integer within the type's range, a
    decimal with at most precision - scale whole digits, a date as Spark reads one ([+-]yyyy[-m[m][-d[d]]],
    then anything after a space or T) that the calendar has; a timestamp whose date the calendar has and
    whose hour, minute and second ([ T]h[h][:m[m][:s[s]]], then anything) are in range, or a time alone
    ([T]h[h]:m[m][:s[s]], then anything) in range. Other types: true. The profile's twin is skewjoin.literals.fits_type. -#}
{% macro _sj_value_fits(text, t) -%}
    {%- set kind = skewjoin._sj_type_kind(t) -%}
    {%- if kind == 'integral' -%}
        {%- set bits = {'tinyint': 7, 'smallint': 15, 'int': 31, 'bigint': 63}[t] -%}
        {%- set n = text | trim | int -%}
        {{- return(-(2 ** bits) <= n and n < 2 ** bits) -}}
    {%- elif kind == 'decimal' -%}
        {%- set parts = skewjoin._sj_decimal_parts(t) -%}
        {%- set exponent = modules.re.search('[eE]([+-]?[0-9]+)$', text | trim) -%}
        {%- if exponent is not none and (exponent.group(1) | int) | abs > 100 -%}
            {{- return(false) -}}
        {%- endif -%}
        {%- set number = skewjoin._sj_plain_number(text | trim).lstrip('+-').split('.') -%}
        {%- set whole = number[0].lstrip('0') -%}
        {%- set fraction = number[1] if number | length > 1 else '' -%}
        {#- every digit kept: a cast would round 1.15 to 1.2 in a decimal(5,1), another key -#}
        {{- return(fraction.rstrip('0') | length <= parts[1] and whole | length <= parts[0] - parts[1]) -}}
    {%- elif kind == 'fractional' -%}
        {#- a number the type's cast keeps finite, and not zero unless written as zero: a cast would turn
            1e300 into a float's Infinity and 1e-50 into its 0.0, other keys. A float rounds to Infinity
            from its largest value plus half a step, and to zero below half its smallest (3.4028235E38 and
            1.4E-45, as Spark writes them, are kept); a double's text is read as a double already. -#}
        {%- set value = text | trim | float | abs -%}
        {%- set finite = value < 3.4028235677973366e38 if t == 'float' else value <= 1.7976931348623157e308 -%}
        {%- set below = 7.006492321624085e-46 if t == 'float' else 0.0 -%}
        {%- set zero = modules.re.sub('[eE].*', '', text) | replace('0', '') | replace('.', '') | trim('+- ') == '' -%}
        {{- return(finite and (zero or value > below)) -}}
    {%- elif kind in ('date', 'timestamp') -%}
        {%- set time = '(?:[ T]([0-9]{1,2})(?::([0-9]{1,2})(?::([0-9]{1,2}))?)?.*)?' if kind == 'timestamp'
            else '(?:[ T].*)?' -%}
        {%- set m = modules.re.fullmatch('\\s*[+-]?([0-9]{4,7})(?:-([0-9]{1,2})(?:-([0-9]{1,2})' ~ time ~ ')?)?\\s*',
            text, flags=modules.re.S) -%}
        {%- if m is not none -%}
            {%- set fields = m.groups() -%}
            {%- set year = fields[0] | int -%}
            {%- set month = (fields[1] or '1') | int -%}
            {%- set day = (fields[2] or '1') | int -%}
            {%- set leap = (year % 4 == 0 and year % 100 != 0) or year % 400 == 0 -%}
            {%- set days = [31, 29 if leap else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31] -%}
            {%- set date_ok = 1 <= month <= 12 and 1 <= day <= days[month - 1] -%}
            {%- set clock = fields[3:] -%}
        {%- elif kind == 'timestamp' -%}
            {#- a time alone ([T]h[h]:m[m][:s[s]], then anything), which Spark puts on today -#}
            {%- set t = modules.re.fullmatch('\\s*T?([0-9]{1,2}):([0-9]{1,2})(?::([0-9]{1,2}))?.*', text,
                flags=modules.re.S) -%}
            {%- if t is none -%}
                {{- return(false) -}}
            {%- endif -%}
            {%- set date_ok = true -%}
            {%- set clock = t.groups() -%}
        {%- else -%}
            {{- return(false) -}}
        {%- endif -%}
        {%- set in_range = clock | length == 0 or ((clock[0] or '0') | int < 24 and (clock[1] or '0') | int < 60
            and (clock[2] or '0') | int < 60) -%}
        {{- return(date_ok and in_range) -}}
    {%- endif -%}
    {{- return(true) -}}
{%- endmacro %}


{#- A number's text without an exponent (1.2E-7 -> 0.00000012, -5e2 -> -500); other text as it is. -#}
{% macro _sj_plain_number(text) -%}
    {%- set m = modules.re.fullmatch('([+-]?)([0-9]*)(?:[.]([0-9]*))?[eE]([+-]?[0-9]+)', text) -%}
    {%- if m is none -%}
        {{- return(text) -}}
    {%- endif -%}
    {%- set whole = m.group(2) -%}
    {%- set digits = whole ~ (m.group(3) or '') -%}
    {%- set point = (whole | length) + (m.group(4) | int) -%}
    {%- if point <= 0 -%}
        {%- set plain = '0.' ~ ('0' * (0 - point)) ~ digits -%}
    {%- elif point >= (digits | length) -%}
        {%- set plain = digits ~ ('0' * (point - (digits | length))) -%}
    {%- else -%}
        {%- set plain = digits[:point] ~ '.' ~ digits[point:] -%}
    {%- endif -%}
    {%- set plain = modules.re.sub('^0+(?=[0-9])', '', plain) -%}
    {{- return(m.group(1) ~ plain) -}}
{%- endmacro %}


{#- Quote an identifier with backticks unless it is a plain lowercase-safe name. -#}
{% macro _sj_ident(name) -%}
    {%- set plain = modules.re.fullmatch('[A-Za-z_][A-Za-z0-9_]*', name) is not none -%}
    {%- if plain and (name | lower) not in skewjoin._sj_reserved_words() -%}
        {{- return(name) -}}
    {%- endif -%}
    {{- return('`' ~ name.replace('`', '``') ~ '`') -}}
{%- endmacro %}


{% macro _sj_reserved_words() -%}
    {{- return([
        'all', 'and', 'any', 'as', 'between', 'both', 'case', 'cast', 'check', 'collate', 'column',
        'constraint', 'create', 'cross', 'current_date', 'current_time', 'current_timestamp',
        'current_user', 'date', 'distinct', 'else', 'end', 'except', 'false', 'fetch', 'for',
        'foreign', 'from', 'full', 'grant', 'group', 'having', 'in', 'inner', 'intersect',
        'interval', 'into', 'is', 'join', 'key', 'lateral', 'leading', 'left', 'like', 'limit',
        'minus', 'natural', 'not', 'null', 'of', 'on', 'only', 'or', 'order', 'outer', 'primary',
        'references', 'right', 'select', 'semi', 'anti', 'session_user', 'some', 'table', 'then',
        'time', 'timestamp', 'to', 'trailing', 'true', 'union', 'unique', 'user', 'using',
        'values', 'when', 'where', 'window', 'with', 'value', 'values', 'range', 'rows', 'row',
        'partition', 'position', 'year', 'month', 'day', 'hour', 'minute', 'second', 'comment',
        'default', 'delete', 'update', 'insert', 'merge', 'drop', 'alter', 'rollup', 'cube',
        'sets', 'by', 'filter', 'over', 'qualify', 'escape', 'exists', 'if', 'returns', 'type'
    ]) -}}
{%- endmacro %}


{#- Make user or data text safe inside a /* ... */ comment: no comment end or
    start, and no ${ (Spark substitutes ${name} everywhere in the statement
    text, comments included, before parsing; a defined name changes the text
    and some values make the statement fail). -#}
{% macro _sj_comment_text(text) -%}
    {{- return((text | string).replace('*/', '* /').replace('/*', '/ *').replace('${', '$ {')) -}}
{%- endmacro %}
