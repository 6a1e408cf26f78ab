{#- User-written SQL fragments (`when`, `distribute`, `columns`): split around
    string literals, find `alias.column` references, rewrite them, and refuse
    anything that could change the query's shape or is non-deterministic. -#}

{#- [text, literal, text, literal, ..., text]: odd positions are string
    literals. Comments (`-- ...` to the end of the line, `/* ... */`) and
    backticked identifiers stay in the text around them: a quote inside them
    opens no literal. A raw literal (r'...', R"..."; Spark takes no escape in it) is one literal
    with its prefix. -#}
{% macro _sj_split_literals(text) -%}
    {%- set text = text | string -%}
    {%- set pattern = "--[^\\n]*|/\\*.*?\\*/|`(?:[^`]|``)*`|((?<!\\w)[rR]'[^']*'|(?<!\\w)[rR]\"[^\"]*\"|"
        ~ "'(?:[^'\\\\]|\\\\.)*'|\"(?:[^\"\\\\]|\\\\.)*\")" -%}
    {%- set out = [] -%}
    {%- set state = namespace(start=0) -%}
    {%- for m in modules.re.finditer(pattern, text, flags=modules.re.S) if m.group(1) is not none -%}
        {%- do out.append(text[state.start:m.start()]) -%}
        {%- do out.append(m.group(1)) -%}
        {%- set state.start = m.end() -%}
    {%- endfor -%}
    {%- do out.append(text[state.start:]) -%}
    {{- return(out) -}}
{%- endmacro %}


{#- SQL text as its code reads: string literals are ` 0 `, comments a space,
    and a backticked name one word (`from a_input` is `from_a_input`), so
    that no keyword, name, quote, parenthesis or `;` inside them counts. An
    unterminated literal or comment stays as it is. -#}
{% macro _sj_code_text(text) -%}
    {%- set out = [] -%}
    {%- for part in skewjoin._sj_split_literals(text) -%}
        {%- if loop.index0 % 2 == 1 -%}
            {%- do out.append(' 0 ') -%}
        {%- else -%}
            {%- set state = namespace(start=0) -%}
            {%- for m in modules.re.finditer('`((?:[^`]|``)*)`|--[^\n]*|/\\*.*?\\*/', part, flags=modules.re.S) -%}
                {%- do out.append(part[state.start:m.start()]) -%}
                {%- do out.append(' ' if m.group(1) is none else '`' ~ modules.re.sub('\\W', '_', m.group(1)) ~ '`') -%}
                {%- set state.start = m.end() -%}
            {%- endfor -%}
            {%- do out.append(part[state.start:]) -%}
        {%- endif -%}
    {%- endfor -%}
    {{- return(out | join('')) -}}
{%- endmacro %}


{#- `alias.column` outside a longer name: group 1 the alias, group 2 the column, each a name or a
    backticked name; `column` replaces the column's pattern (`[*]`: `alias.*`). -#}
{#- Whether every parenthesis of `code` (text outside literals) closes after it opens, and all close. -#}
{% macro _sj_parentheses_balanced(code) -%}
    {%- set depth = namespace(value=0, bad=false) -%}
    {%- for ch in code -%}
        {%- set depth.value = depth.value + (1 if ch == '(' else (-1 if ch == ')' else 0)) -%}
        {%- if depth.value < 0 -%}{%- set depth.bad = true -%}{%- endif -%}
    {%- endfor -%}
    {{- return(not depth.bad and depth.value == 0) -}}
{%- endmacro %}


{% macro _sj_ref_pattern(column="([A-Za-z_]\\w*|`(?:[^`]|``)+`)") -%}
    {{- return("(?<![\\w.`])([A-Za-z_]\\w*|`(?:[^`]|``)+`)\\s*\\.\\s*" ~ column) -}}
{%- endmacro %}


{#- A name as `_sj_ref_pattern` matched it, unquoted: `a``b` is a`b. -#}
{% macro _sj_unquote_name(name) -%}
    {{- return(name[1:-1] | replace('``', '`') if name.startswith('`') and name.endswith('`') and name | length > 1
               else name) -}}
{%- endmacro %}


{#- [{'alias': 'a', 'column': 'key'}] referenced outside string literals;
    a lambda's parameter (`t -> t.name`, `(x, i) -> x.v`) is no alias. -#}
{% macro _sj_expr_refs(text) -%}
    {%- set refs = [] -%}
    {%- set parts = skewjoin._sj_split_literals(text) -%}
    {%- set params = [] -%}
    {%- for part in parts[::2] -%}
        {%- for m in modules.re.finditer('(?:\\(([^()]*)\\)|([A-Za-z_]\\w*))\\s*->', part) -%}
            {%- for name in (m.group(1) or m.group(2)).split(',') -%}
                {%- do params.append(name | trim | lower) -%}
            {%- endfor -%}
        {%- endfor -%}
    {%- endfor -%}
    {%- for part in parts -%}
        {%- if loop.index0 % 2 == 0 -%}
            {%- for m in modules.re.finditer(skewjoin._sj_ref_pattern(), part)
                   if skewjoin._sj_unquote_name(m.group(1)) | lower not in params -%}
                {%- do refs.append({'alias': skewjoin._sj_unquote_name(m.group(1)),
                                    'column': skewjoin._sj_unquote_name(m.group(2))}) -%}
            {%- endfor -%}
        {%- endif -%}
    {%- endfor -%}
    {{- return(refs) -}}
{%- endmacro %}


{#- Replace each `alias.column` found in `mapping` (keys 'alias.column',
    lowercase) with its value; literals are never touched. -#}
{% macro _sj_rewrite_refs(text, mapping) -%}
    {%- set out = [] -%}
    {%- set parts = skewjoin._sj_split_literals(text) -%}
    {%- for part in parts -%}
        {%- if loop.index0 % 2 == 1 -%}
            {%- do out.append(part) -%}
        {%- else -%}
            {%- set state = namespace(pos=0) -%}
            {%- for m in modules.re.finditer(skewjoin._sj_ref_pattern(), part) -%}
                {%- set ref_key = (skewjoin._sj_unquote_name(m.group(1)) ~ '.'
                    ~ skewjoin._sj_unquote_name(m.group(2))) | lower -%}
                {%- if ref_key in mapping -%}
                    {%- do out.append(part[state.pos:m.start()]) -%}
                    {%- do out.append(mapping[ref_key]) -%}
                    {%- set state.pos = m.end() -%}
                {%- endif -%}
            {%- endfor -%}
            {%- do out.append(part[state.pos:]) -%}
        {%- endif -%}
    {%- endfor -%}
    {{- return(out | join('')) -}}
{%- endmacro %}


{% macro _sj_nondeterministic_functions() -%}
    {{- return(['rand', 'randn', 'random', 'uuid', 'shuffle', 'current_timestamp', 'current_date',
                'current_time', 'now', 'localtimestamp', 'curdate', 'monotonically_increasing_id',
                'spark_partition_id', 'input_file_name', 'input_file_block_start',
                'input_file_block_length', 'unix_timestamp', 'randstr', 'uniform', 'try_reflect',
                'reflect', 'java_method']) -}}
{%- endmacro %}


{#- Spark's aggregate functions (4.x): none belongs in an expression over one row. -#}
{#- Spark's aggregate functions by name; any function named `*_agg` or `*_agg_<type>` is one too
    (`theta_sketch_agg`, `kll_sketch_agg_bigint`, `tuple_union_agg_double`, ...: _sj_check_fragment). -#}
{% macro _sj_aggregate_functions() -%}
    {{- return(['any', 'any_value', 'approx_count_distinct', 'approx_percentile', 'approx_top_k', 'array_agg',
                'avg', 'bit_and', 'bit_or', 'bit_xor', 'bitmap_construct_agg', 'bitmap_or_agg', 'bool_and',
                'bool_or', 'collect_list', 'collect_set', 'corr', 'count', 'count_if', 'count_min_sketch',
                'covar_pop', 'covar_samp', 'every', 'first', 'first_value', 'grouping', 'grouping_id',
                'histogram_numeric', 'hll_sketch_agg', 'hll_union_agg', 'kurtosis', 'last', 'last_value',
                'listagg', 'max', 'max_by', 'mean', 'median', 'min', 'min_by', 'mode', 'percentile',
                'percentile_approx', 'percentile_cont', 'percentile_disc', 'regr_avgx', 'regr_avgy', 'regr_count',
                'regr_intercept', 'regr_r2', 'regr_slope', 'regr_sxx', 'regr_sxy', 'regr_syy', 'skewness', 'some',
                'std', 'stddev', 'stddev_pop', 'stddev_samp', 'string_agg', 'sum', 'try_avg', 'try_sum', 'var_pop',
                'var_samp', 'variance', 'approx_top_k_accumulate', 'approx_top_k_combine', 'collect_union',
                'vector_avg', 'vector_sum']) -}}
{%- endmacro %}


{#- Refuse a fragment that could change the shape of the query or that is
    non-deterministic, or an aggregate unless `aggregates` (star_join's
    columns: one select, no branches). Returns nothing; raises on failure. -#}
{% macro _sj_check_fragment(macro_name, argument, text, example, aggregates=false) -%}
    {%- if text is not string or text | trim | length == 0 -%}
        {%- do skewjoin._sj_raise(macro_name, argument, 'expected a non-empty SQL expression string; got ' ~ text,
            example) -%}
    {%- endif -%}
    {%- set parts = skewjoin._sj_split_literals(text) -%}
    {%- set code = [] -%}
    {%- for part in parts -%}
        {%- do code.append(part if loop.index0 % 2 == 0 else ' 0 ') -%}
    {%- endfor -%}
    {#- a backticked name (`it's`, `a--b`) is a name: no quote, comment or keyword in it counts -#}
    {%- set joined = code | join(' ') -%}
    {%- set code = modules.re.sub('`[^`]*`', ' sj_name ', joined) -%}
    {#- for the function calls: a backticked name is the name (`rand`() is rand()), a qualifier
        (builtin.rand(), system.builtin.rand()) still names the function -#}
    {%- set calls = modules.re.sub('`([^`]*)`', '\\1', joined) | lower -%}
    {%- if "'" in code or '"' in code -%}
        {%- do skewjoin._sj_raise(macro_name, argument,
            'the expression ' ~ text ~ ' has an unterminated string literal',
            example) -%}
    {%- endif -%}
    {%- for token in [';', '--', '/*', '*/', '{{', '}}', '{%'] -%}
        {%- if token in code -%}
            {%- set problem -%}
the expression {{ text }} contains `{{ token }}` outside a string literal; an expression may not end the statement or
open a comment
            {%- endset -%}
            {%- do skewjoin._sj_raise(macro_name, argument, problem, example) -%}
        {%- endif -%}
    {%- endfor -%}
    {%- if not skewjoin._sj_parentheses_balanced(code) -%}
        {%- do skewjoin._sj_raise(macro_name, argument, 'the expression ' ~ text ~ ' has unbalanced parentheses',
            example) -%}
    {%- endif -%}
    {%- set lowered = code | lower -%}
    {%- for fn in skewjoin._sj_nondeterministic_functions() -%}
        {%- set called = modules.re.search('(?<!\\w)' ~ fn ~ '\\s*\\(', calls) -%}
        {%- set niladic = fn in ('current_timestamp', 'current_date', 'current_time', 'localtimestamp')
            and modules.re.search('(?<![\\w.])' ~ fn ~ '(?!\\w)', lowered) -%}
        {%- if called or niladic -%}
            {%- set problem -%}
the expression {{ text }} calls {{ fn }}(), which is non-deterministic; Spark re-runs failed tasks and a value that
changes between attempts loses or duplicates rows. Use only deterministic functions of the row
            {%- endset -%}
            {%- do skewjoin._sj_raise(macro_name, argument, problem, example) -%}
        {%- endif -%}
    {%- endfor -%}
    {%- set named_agg = modules.re.search('(?<!\\w)([a-z_][a-z0-9_]*_agg(?:_[a-z0-9_]+)?)\\s*\\(', calls) -%}
    {%- for fn in skewjoin._sj_aggregate_functions() + ([named_agg.group(1)] if named_agg else []) if not aggregates -%}
        {%- if modules.re.search('(?<!\\w)' ~ fn ~ '\\s*\\(', calls) -%}
            {%- set problem -%}
the expression {{ text }} calls {{ fn }}(), an aggregate; a skew plan joins in several branches and would aggregate
each apart. Only a scalar expression over the row is allowed: aggregate in a model over this one
            {%- endset -%}
            {%- do skewjoin._sj_raise(macro_name, argument, problem, example) -%}
        {%- endif -%}
    {%- endfor -%}
    {%- if not aggregates and modules.re.match('\\s*distinct(?!\\w)', code | lower) -%}
        {%- set problem -%}
the expression {{ text }} starts with DISTINCT; a skew plan joins in several branches and each would drop its own
duplicates, not the join's. Only a scalar expression over the row is allowed: select distinct in a model over this one
        {%- endset -%}
        {%- do skewjoin._sj_raise(macro_name, argument, problem, example) -%}
    {%- endif -%}
    {#- a query starts with select, or from (pipe syntax); `from` inside extract(), trim() or substring() and
        a backticked name are no keyword -#}
    {%- set bare = modules.re.sub('`[^`]*`', ' sj_name ', lowered) -%}
    {%- if modules.re.search('(?<![\\w.])(select|join|union|insert|drop|delete|over)(?!\\w)', bare)
           or modules.re.search('(?:^|[(,])\\s*from(?!\\w)', bare) -%}
        {%- set problem -%}
the expression {{ text }} holds a subquery, window or statement keyword; only a scalar expression over the row is
allowed
        {%- endset -%}
        {%- do skewjoin._sj_raise(macro_name, argument, problem, example) -%}
    {%- endif -%}
{%- endmacro %}


{#- Identifiers used bare (without an alias) that name a column of `columns`. -#}
{% macro _sj_bare_column_refs(text, columns) -%}
    {%- set names = columns | map(attribute='name') | map('lower') | list -%}
    {%- set found = [] -%}
    {%- set skip = ['and', 'or', 'not', 'in', 'is', 'null', 'between', 'like', 'rlike', 'ilike', 'case', 'when',
                    'then', 'else', 'end', 'true', 'false', 'as', 'cast', 'try_cast', 'string', 'int', 'bigint',
                    'smallint', 'tinyint', 'double', 'float', 'decimal', 'date', 'timestamp', 'boolean',
                    'interval', 'distinct', 'div', 'escape', 'collate', 'binary', 'integer', 'long'] -%}
    {%- set parts = skewjoin._sj_split_literals(text) -%}
    {%- for part in parts -%}
        {%- if loop.index0 % 2 == 0 -%}
            {%- for m in modules.re.finditer('(?<![\\w.`])([A-Za-z_]\\w*)(?![\\w`])(?!\\s*[.(])', part) -%}
                {%- set word = m.group(1) | lower -%}
                {%- if word in names and word not in skip -%}
                    {%- do found.append(m.group(1)) -%}
                {%- endif -%}
            {%- endfor -%}
        {%- endif -%}
    {%- endfor -%}
    {{- return(found) -}}
{%- endmacro %}
