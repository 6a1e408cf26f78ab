{#- The decision record of a star join, rendered from its plan
    (`_sj_star_plan`): the budget and the rule, each dimension with its size,
    where that size came from and the verdict with its reason, the
    broadcasts, the join order, renamed columns, the size queries' time and
    the pruning of the fact. -#}

{% macro _sj_star_record(plan) -%}
    {%- set spec = plan.spec -%}
    {%- set options = plan.options -%}
    {%- set fa = spec.fact_alias -%}
    {%- set lines = [] -%}
    {%- do lines.append('star join: fact ' ~ fa ~ ' (' ~ spec.fact.label ~ ') with ' ~ (spec.dims | length)
        ~ ' dimension(s); broadcast budget ' ~ skewjoin._sj_star_bytes_text(options.budget)
        ~ ' from ' ~ options.budget_source) -%}
    {%- set rule -%}
rule: Hive's map-join conversion with one budget: the dimensions that may be broadcast (inner, left, left semi, left
anti joins; known size) are taken smallest first while the sum of their sizes x size factor fits the budget (this
broadcasts as many as fit); unknown sizes are never broadcast
    {%- endset -%}
    {%- do lines.append(rule | replace('\n', ' ')) -%}
    {%- for d in spec.dims -%}
        {%- do lines.append(skewjoin._sj_star_dimension_line(fa, d, options)) -%}
    {%- endfor -%}
    {%- set on_disk = [] -%}
    {%- for d in spec.dims if d.bytes is not none and d.factor == 1.0
            and skewjoin._sj_star_factor_source(d, options) == 'default' -%}
        {%- do on_disk.append(d.alias) -%}
    {%- endfor -%}
    {%- if on_disk -%}
        {%- set note -%}
memory: the size{{ 's' if on_disk | length > 1 else '' }} of {{ on_disk | join(', ') }} {{ 'are' if on_disk | length > 1
else 'is' }} on disk (size factor 1, the default); a broadcast hash table takes several times its size on disk (4.4x
to 35x measured for parquet dimensions), so the broadcasts may need that many times the budget in memory; set
size_factor (argument, config star_join.size_factor or var skewjoin_size_factor; per format or per dimension) to count
memory
        {%- endset -%}
        {%- do lines.append(note | replace('\n', ' ')) -%}
    {%- endif -%}
    {%- set chosen = spec.dims | selectattr('verdict', 'equalto', 'broadcast') | map(attribute='alias') | list -%}
    {%- set others = spec.dims | selectattr('verdict', 'equalto', 'shuffle') | map(attribute='alias') | list -%}
    {%- set ranked = [] -%}
    {%- for d in plan.ranked -%}{%- do ranked.append(d.alias ~ ' ' ~ d.estimate) -%}{%- endfor -%}
    {%- do lines.append('candidates smallest first (bytes x factor): ' ~ ((ranked | join(', ')) or 'none')) -%}
    {%- if others and options.shuffle_hint != 'none' -%}
        {%- set others_note = ' (hint ' ~ options.shuffle_hint
            ~ ', so that Spark does not broadcast them past the budget)' -%}
    {%- else -%}
        {%- set others_note = ' (left to Spark)' if others else '' -%}
    {%- endif -%}
    {%- do lines.append('broadcast: ' ~ ((chosen | join(', ')) or 'none') ~ ' (total ' ~ plan.used ~ ' of '
        ~ options.budget ~ ' bytes); shuffle: ' ~ ((others | join(', ')) or 'none') ~ others_note) -%}
    {%- set fixed = plan.order.fixed -%}
    {%- if fixed -%}
        {%- set rule = 'as given, because ' ~ (fixed | join(', ')) ~ ' ' ~ ('is' if fixed | length == 1 else 'are')
            ~ ' right- or full-joined and such a join does not commute with the others' -%}
    {%- else -%}
        {%- set rule = 'broadcast joins first (filtering joins, then left joins), then shuffle joins' -%}
    {%- endif -%}
    {%- do lines.append('join order: ' ~ (plan.order.dims | map(attribute='alias') | join(', '))
        ~ ' (' ~ rule ~ ')') -%}
    {%- if spec.renamed -%}
        {%- do lines.append('output columns renamed to avoid duplicate names: ' ~ (spec.renamed | join(', '))) -%}
    {%- endif -%}
    {%- if plan.seconds is none -%}
        {%- set off -%}
size queries: none, compile-time queries are off {{ skewjoin._sj_queries_off_reason() }}: no size was looked up, so only
dimensions with broadcast: true are broadcast
        {%- endset -%}
        {%- do lines.append(off | replace('\n', ' ')) -%}
    {%- else -%}
        {%- do lines.append('size queries: ' ~ ('%.2f' | format(plan.seconds)) ~ ' s') -%}
    {%- endif -%}
    {%- if plan.pruning is not none -%}
        {%- do lines.extend(skewjoin._sj_star_prune_record(plan.pruning)) -%}
    {%- endif -%}
    {{- return(lines) -}}
{%- endmacro %}


{% macro _sj_star_bytes_text(n) -%}
    {%- if n is none -%}
        {{- return('unknown') -}}
    {%- endif -%}
    {%- set units = [[1099511627776, 'TiB'], [1073741824, 'GiB'], [1048576, 'MiB'], [1024, 'KiB']] -%}
    {%- for u in units if n >= u[0] -%}
        {{- return(n ~ ' bytes (' ~ '%.1f' | format(n / u[0]) ~ ' ' ~ u[1] ~ ')') -}}
    {%- endfor -%}
    {{- return(n ~ ' bytes') -}}
{%- endmacro %}


{#- Where a dimension's size came from (`_sj_star_measure_base`). -#}
{% macro _sj_star_size_source(size) -%}
    {%- if size.how == 'off' -%}
        {{- return('not looked up: compile-time queries are off ' ~ skewjoin._sj_queries_off_reason()) -}}
    {%- elif size.how == 'query' -%}
        {%- set source -%}
a query other than `select <columns> from <table> [where ...]` is not estimated (give the table as relation with a
filter, or set broadcast: true)
        {%- endset -%}
    {%- elif size.how == 'path_files' -%}
        {%- set source = 'the sum of its ' ~ size.files ~ ' file(s) read through _metadata (path-based ' ~ size.format
            ~ ')' -%}
    {%- elif size.how == 'view' -%}
        {%- set source = 'a view has no statistics and no files of its own'
            ~ (' (ANALYZE does not apply to views)' if size.analyze != 'never' else '') -%}
    {%- elif size.how == 'statistics' -%}
        {%- set analyzed = (' after ANALYZE TABLE ... COMPUTE STATISTICS NOSCAN (' ~ size.analyzed ~ ')')
            if size.analyzed is not none else '' -%}
        {%- set source = 'catalog statistics' ~ analyzed ~ ' (' ~ size.format ~ ')' -%}
    {%- elif size.how == 'table_files' -%}
        {%- set source -%}
the sum of its {{ size.files }} file(s) read through _metadata (no catalog statistics; {{ size.format }} table;
analyze=true would store statistics instead)
        {%- endset -%}
    {%- else -%}
        {%- set source -%}
no catalog statistics, and a {{ size.provider or 'non-file' }} table whose files Spark cannot list through _metadata
(analyze=true runs ANALYZE TABLE ... NOSCAN)
        {%- endset -%}
    {%- endif -%}
    {{- return(source | replace('\n', ' ')) -}}
{%- endmacro %}


{#- Where a dimension's size factor came from (`_sj_star_measure`). -#}
{% macro _sj_star_factor_source(d, options) -%}
    {%- if d.factor_from == 'dimension' -%}
        {{- return(d.arg ~ '.size_factor') -}}
    {%- elif d.factor_from == 'format' -%}
        {{- return(options.factor_source ~ ' for ' ~ d.format) -}}
    {%- elif d.factor_from == 'option' -%}
        {{- return(options.factor_source) -}}
    {%- endif -%}
    {{- return('default') -}}
{%- endmacro %}


{#- Why a dimension got its verdict (`_sj_star_choose`). -#}
{% macro _sj_star_why(d) -%}
    {%- set why = d.why -%}
    {%- if why.rule == 'forced' -%}
        {%- set unknown = '' if d.estimate is not none else '; size unknown, not counted' -%}
        {{- return('broadcast: true (forced' ~ unknown ~ ')') -}}
    {%- elif why.rule == 'preserved' and d.join_type == 'full' -%}
        {{- return('cannot be broadcast: a full outer join preserves both sides, so neither may be broadcast') -}}
    {%- elif why.rule == 'preserved' -%}
        {{- return('cannot be broadcast: a ' ~ d.join_type ~ ' join preserves ' ~ d.alias ~ ' (all its rows are'
            ~ ' returned); only the non-preserved side of an outer join may be broadcast, and here that side holds'
            ~ ' the fact') -}}
    {%- elif why.rule == 'declined' -%}
        {{- return('broadcast: false') -}}
    {%- elif why.rule == 'unknown' -%}
        {{- return('size unknown, and a dimension of unknown size is never broadcast') -}}
    {%- elif why.rule == 'fits' -%}
        {{- return('fits: broadcast total ' ~ why.total ~ ' <= budget ' ~ why.budget) -}}
    {%- endif -%}
    {{- return('over budget: broadcast total would be ' ~ why.used ~ ' + ' ~ why.estimate ~ ' = ' ~ why.total ~ ' > '
        ~ why.budget) -}}
{%- endmacro %}


{#- One dimension's record line: what it is, its size and the verdict. -#}
{% macro _sj_star_dimension_line(fa, d, options) -%}
    {%- set source = skewjoin._sj_star_size_source(d.size) -%}
    {%- if d.bytes is none -%}
        {%- set size_text = 'size unknown (' ~ source ~ ')' -%}
    {%- else -%}
        {%- if d.bound is none -%}
            {%- set bound = '' -%}
        {%- elif d.bound.base is none -%}
            {%- set bound = ', upper bound: the filter is not estimated' -%}
        {%- else -%}
            {%- set bound = ', upper bound: the size of ' ~ d.bound.base
                ~ ', which the query only filters and projects' -%}
        {%- endif -%}
        {%- set size_text = skewjoin._sj_star_bytes_text(d.bytes) ~ ' from ' ~ source ~ bound ~ '; x size factor '
            ~ ('%g' | format(d.factor)) ~ ' (' ~ skewjoin._sj_star_factor_source(d, options) ~ ') = ' ~ d.estimate
            ~ ' bytes' -%}
    {%- endif -%}
    {%- set filter_text = (', filter: ' ~ d.filter) if d.filter is not none else '' -%}
    {%- set line -%}
dimension {{ d.alias }} ({{ d.input.label }}, {{ d.join_type }} join on
{{- ' ' ~ skewjoin._sj_star_on_text(fa, d) | join(' and ') }}{{ filter_text }}): {{ size_text }} -> {{ d.verdict }}
{{- ' (' ~ skewjoin._sj_star_why(d) ~ ')' }}
    {%- endset -%}
    {{- return(line) -}}
{%- endmacro %}
