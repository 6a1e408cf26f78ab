{#- The size of each dimension, from Spark at run time (needs `execute`).

    Sources, in order:
      1. a catalog table (ref()/source()/table name): its statistics from
         DESCRIBE TABLE EXTENDED (sizeInBytes); with analyze 'missing' (true)
         ANALYZE TABLE ... COMPUTE STATISTICS NOSCAN runs first when there
         are none, with 'always' it runs in any case (refreshes stale ones);
      2. a file-based table without statistics, or a path (parquet.`/path`):
         the sum of its file sizes, read by Spark from the `_metadata` column
         (a scan that reads no column data; files that hold no row are not
         counted, they add nothing to a hash table);
      3. a view, a table of another kind, or a query that is not a filtered
         single table: unknown, and an unknown size is never broadcast.
    A filter or a query of the form `select <columns> from <table> [where
    ...]` is bounded by its table's size: filtering and selecting columns
    only make a table smaller. The size is multiplied by the size factor of
    the dimension (else of its format, else the default) because compressed
    files expand in memory.
-#}

{#- The '# Detailed Table Information' rows of DESCRIBE TABLE EXTENDED as a dict. -#}
{% macro _sj_star_describe(name) -%}
    {%- set result = skewjoin._sj_run_query('describe table extended ' ~ name, 'metadata') -%}
    {%- set info = {} -%}
    {%- set state = namespace(detail=false) -%}
    {%- for row in result.rows -%}
        {%- set key = (row[0] | string) | trim -%}
        {%- if key == '# Detailed Table Information' -%}
            {%- set state.detail = true -%}
        {%- elif state.detail and key | length > 0 and not key.startswith('#') -%}
            {%- do info.update({key: (row[1] | string) | trim}) -%}
        {%- endif -%}
    {%- endfor -%}
    {{- return(info) -}}
{%- endmacro %}


{% macro _sj_star_stat_bytes(info) -%}
    {%- set m = modules.re.match('\\s*([0-9]+) bytes', info.get('Statistics', '')) -%}
    {{- return((m.group(1) | int) if m else none) -}}
{%- endmacro %}


{#- The storage format of a described table (for the size factor). -#}
{% macro _sj_star_table_format(info) -%}
    {%- set provider = info.get('Provider', '') | lower -%}
    {%- if provider and provider != 'hive' -%}
        {{- return(provider) -}}
    {%- endif -%}
    {%- set input_format = info.get('InputFormat', '') | lower -%}
    {%- for fmt in ['parquet', 'orc', 'avro'] if fmt in input_format -%}
        {{- return(fmt) -}}
    {%- endfor -%}
    {%- if 'textinputformat' in input_format -%}
        {{- return('text') -}}
    {%- endif -%}
    {{- return(provider or 'unknown') -}}
{%- endmacro %}


{#- Sum of the sizes of the files Spark reads for `from_text`, and how many. -#}
{% macro _sj_star_file_bytes(from_text) -%}
    {%- set query -%}
select
    cast(count(*) as string) as sj_files,
    cast(coalesce(sum(sj_file_size), 0) as string) as sj_bytes
from (
    select distinct
        sj_scan._metadata.file_path as sj_file_path,
        sj_scan._metadata.file_size as sj_file_size
    from {{ from_text }} as sj_scan
) as sj_file_list
    {%- endset -%}
    {%- set row = skewjoin._sj_run_query(query).rows[0] -%}
    {{- return({'files': row[0] | int, 'bytes': row[1] | int}) -}}
{%- endmacro %}


{#- The base table of a query `select <plain columns> from <table> [[as]
    alias] [where <condition without subqueries>]`, or none. Anything else
    (joins, aggregates, expressions that could make rows wider, explode,
    unions, subqueries) is not estimated. -#}
{% macro _sj_star_single_table(sql) -%}
    {%- set name = '(?:[A-Za-z_][A-Za-z0-9_]*|`[^`]+`)' -%}
    {%- set item = '(?:' ~ name ~ '\\s*\\.\\s*)?(?:\\*|' ~ name ~ ')(?:\\s+(?:as\\s+)?' ~ name ~ ')?' -%}
    {%- set table = '(?:' ~ name ~ '(?:\\s*\\.\\s*' ~ name ~ '){0,2}|(?:'
        ~ (skewjoin._sj_star_file_formats() | join('|')) ~ ')\\.`[^`]+`)' -%}
    {%- set pattern = 'select\\s+(' ~ item ~ '(?:\\s*,\\s*' ~ item ~ ')*)\\s+from\\s+(' ~ table ~ ')'
        ~ '(?:\\s+(?:as\\s+)?(?!where\\b)' ~ name ~ ')?(?:\\s+where\\s+(.+))?' -%}
    {%- set m = modules.re.fullmatch(pattern, sql | trim, flags=modules.re.I + modules.re.S) -%}
    {%- if m is none -%}
        {{- return(none) -}}
    {%- endif -%}
    {%- if modules.re.match('(distinct|all)\\b', m.group(1), flags=modules.re.I) -%}
        {{- return(none) -}}
    {%- endif -%}
    {%- set where = m.group(3) -%}
    {%- if where is not none -%}
        {%- set code = [] -%}
        {%- for part in skewjoin._sj_split_literals(where) -%}
            {%- if loop.index0 % 2 == 0 -%}{%- do code.append(part) -%}{%- endif -%}
        {%- endfor -%}
        {%- set code = code | join(' ') | lower -%}
        {%- set words = 'select|from|join|union|intersect|except|minus|group|order|limit|having|lateral|over|window'
            ~ '|distribute|cluster|sort|tablesample|pivot|unpivot' -%}
        {%- if modules.re.search('(?<![\\w.])(' ~ words ~ ')(?!\\w)', code)
               or ';' in code or '--' in code or '/*' in code -%}
            {{- return(none) -}}
        {%- endif -%}
    {%- endif -%}
    {{- return(m.group(2)) -}}
{%- endmacro %}


{#- Size of a table or path: {'bytes' (none when unknown), 'format', 'how'
    and the facts of how (`_sj_star_size_source` says them)}. -#}
{% macro _sj_star_measure_base(kind, from_text, fmt, analyze) -%}
    {%- if kind == 'path' -%}
        {%- set files = skewjoin._sj_star_file_bytes(from_text) -%}
        {{- return({'bytes': files.bytes, 'format': fmt, 'how': 'path_files', 'files': files.files}) -}}
    {%- endif -%}
    {%- set info = skewjoin._sj_star_describe(from_text) -%}
    {%- set fmt = skewjoin._sj_star_table_format(info) -%}
    {%- if (info.get('Type', '') | upper) == 'VIEW' -%}
        {{- return({'bytes': none, 'format': 'view', 'how': 'view', 'analyze': analyze}) -}}
    {%- endif -%}
    {%- set analyzed = none -%}
    {%- set stat = skewjoin._sj_star_stat_bytes(info) -%}
    {%- if analyze == 'always' or (analyze == 'missing' and stat is none) -%}
        {%- do skewjoin._sj_run_query('analyze table ' ~ from_text ~ ' compute statistics noscan') -%}
        {%- set analyzed = 'refreshed' if stat is not none else 'there were none' -%}
        {%- set info = skewjoin._sj_star_describe(from_text) -%}
        {%- set stat = skewjoin._sj_star_stat_bytes(info) -%}
    {%- endif -%}
    {%- if stat is not none -%}
        {{- return({'bytes': stat, 'format': fmt, 'how': 'statistics', 'analyzed': analyzed}) -}}
    {%- endif -%}
    {%- set provider = info.get('Provider', '') | lower -%}
    {%- if provider in skewjoin._sj_star_file_formats() -%}
        {%- set files = skewjoin._sj_star_file_bytes(from_text) -%}
        {{- return({'bytes': files.bytes, 'format': fmt, 'how': 'table_files', 'files': files.files}) -}}
    {%- endif -%}
    {{- return({'bytes': none, 'format': fmt, 'how': 'no_statistics', 'provider': provider}) -}}
{%- endmacro %}


{#- The size on disk of one dimension: as `_sj_star_measure_base`, and the
    bound it is: none, {'base': table} (a query that only filters and
    projects the table) or {'base': none} (a filter, not estimated). -#}
{% macro _sj_star_measure_dimension(d, options) -%}
    {%- set input = d.input -%}
    {%- if not skewjoin._sj_queries_allowed() -%}
        {{- return({'bytes': none, 'format': input.format or input.kind, 'bound': none, 'how': 'off'}) -}}
    {%- endif -%}
    {%- set bound = none -%}
    {%- if input.kind == 'query' -%}
        {%- set base = skewjoin._sj_star_single_table(input.sql) -%}
        {%- if base is none -%}
            {%- set m = {'bytes': none, 'format': 'query', 'how': 'query'} -%}
        {%- else -%}
            {%- set path = skewjoin._sj_star_path_match(base) -%}
            {%- if path -%}
                {%- set m = skewjoin._sj_star_measure_base('path', path['from'], path.format, options.analyze) -%}
            {%- else -%}
                {%- set m = skewjoin._sj_star_measure_base('table', base, none, options.analyze) -%}
            {%- endif -%}
            {%- set bound = {'base': base} -%}
        {%- endif -%}
    {%- else -%}
        {%- set m = skewjoin._sj_star_measure_base(input.kind, input['from'], input.format, options.analyze) -%}
    {%- endif -%}
    {%- if d.filter is not none and m.bytes is not none and bound is none -%}
        {%- set bound = {'base': none} -%}
    {%- endif -%}
    {%- set out = {'bound': bound} -%}
    {%- do out.update(m) -%}
    {{- return(out) -}}
{%- endmacro %}


{#- Fill in each dimension's size: raw bytes, 'size' (how it was measured,
    `_sj_star_measure_base`), format, bound, factor and where the factor
    comes from ('factor_from': 'dimension', 'format', 'option' or 'default'),
    and the estimate used against the budget (bytes x factor, rounded up).
    Returns the seconds the size queries took, none when compile-time queries
    are off. -#}
{% macro _sj_star_measure(spec, options) -%}
    {%- set started = modules.datetime.datetime.now() -%}
    {%- for d in spec.dims -%}
        {%- set m = skewjoin._sj_star_measure_dimension(d, options) -%}
        {%- if d.size_factor is not none -%}
            {%- set factor = d.size_factor -%}
            {%- set factor_from = 'dimension' -%}
        {%- elif m.format in options.factors -%}
            {%- set factor = options.factors[m.format] -%}
            {%- set factor_from = 'format' -%}
        {%- else -%}
            {%- set factor = options.factors.get('default', 1.0) -%}
            {%- set factor_from = 'option' if 'default' in options.factors else 'default' -%}
        {%- endif -%}
        {%- set estimate = none if m.bytes is none else ((m.bytes * factor) | round(0, 'ceil') | int) -%}
        {%- do d.update({'bytes': m.bytes, 'size': m, 'format': m.format, 'bound': m.bound,
                         'factor': factor, 'factor_from': factor_from, 'estimate': estimate}) -%}
    {%- endfor -%}
    {%- if not skewjoin._sj_queries_allowed() -%}
        {{- return(none) -}}
    {%- endif -%}
    {{- return((modules.datetime.datetime.now() - started).total_seconds()) -}}
{%- endmacro %}
