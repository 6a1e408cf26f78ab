{#- Which dimensions are broadcast (Hive's map-join auto conversion with one
    budget for all of them), in which order the joins run, and the decision
    record. -#}

{#- Why a dimension may not be broadcast, or none when it may. Rule (the
    join-semantics table, for `fact <join_type> dimension`): a broadcast hash
    join builds only a side whose unmatched rows need not be kept. -#}
{% macro _sj_star_not_broadcastable(d) -%}
    {%- if 'right' in skewjoin._sj_join_semantics(d.join_type).broadcastable -%}
        {{- return(none) -}}
    {%- elif d.join_type == 'full' -%}
        {{- return('a full outer join preserves both sides, so neither may be broadcast') -}}
    {%- endif -%}
    {{- return('a ' ~ d.join_type ~ ' join preserves ' ~ d.alias ~ ' (all its rows are returned); only the'
        ~ ' non-preserved side of an outer join may be broadcast, and here that side holds the fact') -}}
{%- endmacro %}


{#- Which dimensions are broadcast: forced ones first, then the candidates
    smallest first while the running total fits the budget. Sets each
    dimension's verdict and reason. -#}
{% macro _sj_star_choose(spec, options) -%}
    {%- set budget = options.budget -%}
    {%- set state = namespace(used=0) -%}
    {#- forced broadcasts take their share of the budget first -#}
    {%- for d in spec.dims if d.broadcast is sameas true -%}
        {%- set unknown = '' if d.estimate is not none else '; size unknown, not counted' -%}
        {%- do d.update({'verdict': 'broadcast', 'reason': 'broadcast: true (forced' ~ unknown ~ ')'}) -%}
        {%- set state.used = state.used + (d.estimate or 0) -%}
    {%- endfor -%}
    {%- set candidates = [] -%}
    {%- for d in spec.dims if d.broadcast is not sameas true -%}
        {%- set illegal = skewjoin._sj_star_not_broadcastable(d) -%}
        {%- if illegal is not none -%}
            {%- do d.update({'verdict': 'shuffle', 'reason': 'cannot be broadcast: ' ~ illegal}) -%}
        {%- elif d.broadcast is sameas false -%}
            {%- do d.update({'verdict': 'shuffle', 'reason': 'broadcast: false'}) -%}
        {%- elif d.estimate is none -%}
            {%- do d.update({'verdict': 'shuffle',
                             'reason': 'size unknown, and a dimension of unknown size is never broadcast'}) -%}
        {%- else -%}
            {%- do candidates.append(d) -%}
        {%- endif -%}
    {%- endfor -%}
    {#- smallest first (ties: the order given); stable sort -#}
    {%- set ranked = candidates | sort(attribute='index') | sort(attribute='estimate') | list -%}
    {%- for d in ranked -%}
        {%- set total = state.used + d.estimate -%}
        {%- if total <= budget -%}
            {%- set state.used = total -%}
            {%- do d.update({'verdict': 'broadcast',
                             'reason': 'fits: broadcast total ' ~ total ~ ' <= budget ' ~ budget}) -%}
        {%- else -%}
            {%- set sum_text = state.used ~ ' + ' ~ d.estimate ~ ' = ' ~ total -%}
            {%- do d.update({'verdict': 'shuffle',
                             'reason': 'over budget: broadcast total would be ' ~ sum_text ~ ' > ' ~ budget}) -%}
        {%- endif -%}
    {%- endfor -%}
    {%- set taken = [] -%}
    {%- for d in ranked -%}
        {%- do taken.append(d.alias ~ ' ' ~ d.estimate) -%}
    {%- endfor -%}
    {{- return({'used': state.used, 'ranked': taken}) -}}
{%- endmacro %}


{#- The join order. Inner, semi and anti joins and left joins of dimensions
    on fact columns commute, so the broadcast joins go first (they run in
    the stage that scans the fact, one after the other, as a chain of map
    joins), filtering joins before left joins, then the shuffle joins in the
    same way; the order given breaks ties. A right or full join does not
    commute with the others: with one in the list, the order given is kept. -#}
{% macro _sj_star_order(spec) -%}
    {%- set fixed = spec.dims | selectattr('join_type', 'in', ['right', 'full']) | list -%}
    {%- if fixed -%}
        {%- set rule = 'as given, because ' ~ (fixed | map(attribute='alias') | join(', ')) ~ ' '
            ~ ('is' if fixed | length == 1 else 'are')
            ~ ' right- or full-joined and such a join does not commute with the others' -%}
        {{- return({'dims': spec.dims, 'rule': rule}) -}}
    {%- endif -%}
    {%- set ranked = [] -%}
    {%- for d in spec.dims -%}
        {%- set rank = (0 if d.verdict == 'broadcast' else 2) + (1 if d.join_type == 'left' else 0) -%}
        {%- do ranked.append({'rank': rank, 'index': d.index, 'dim': d}) -%}
    {%- endfor -%}
    {%- set ordered = ranked | sort(attribute='index') | sort(attribute='rank') | map(attribute='dim') | list -%}
    {{- return({'dims': ordered,
                'rule': 'broadcast joins first (filtering joins, then left joins), then shuffle joins'}) -}}
{%- endmacro %}


{% macro _sj_star_on_text(fa, d) -%}
    {%- set parts = [] -%}
    {%- for k in d['keys'] -%}
        {%- do parts.append(fa ~ '.' ~ skewjoin._sj_ident(k.fact) ~ ' = '
            ~ d.alias ~ '.' ~ skewjoin._sj_ident(k.dim)) -%}
    {%- endfor -%}
    {{- return(parts) -}}
{%- endmacro %}


{#- One dimension's record line: what it is, its size and the verdict. -#}
{% macro _sj_star_dimension_line(fa, d) -%}
    {%- if d.bytes is none -%}
        {%- set size_text = 'size unknown (' ~ d.size_source ~ ')' -%}
    {%- else -%}
        {%- set size_text = skewjoin._sj_star_bytes_text(d.bytes) ~ ' from ' ~ d.size_source
            ~ (', ' ~ d.bound if d.bound else '') ~ '; x size factor ' ~ ('%g' | format(d.factor))
            ~ ' (' ~ d.factor_source ~ ') = ' ~ d.estimate ~ ' bytes' -%}
    {%- endif -%}
    {%- set filter_text = (', filter: ' ~ d.filter) if d.filter is not none else '' -%}
    {%- set line -%}
dimension {{ d.alias }} ({{ d.input.label }}, {{ d.join_type }} join on
{{- ' ' ~ skewjoin._sj_star_on_text(fa, d) | join(' and ') }}{{ filter_text }}): {{ size_text }} -> {{ d.verdict }}
{{- ' (' ~ d.reason ~ ')' }}
    {%- endset -%}
    {{- return(line) -}}
{%- endmacro %}


{% macro _sj_star_record_lines(spec, options, choice, order, seconds) -%}
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
        {%- do lines.append(skewjoin._sj_star_dimension_line(fa, d)) -%}
    {%- endfor -%}
    {%- set on_disk = spec.dims | selectattr('bytes', 'ne', none) | selectattr('factor', 'eq', 1.0)
        | selectattr('factor_source', 'eq', 'default') | map(attribute='alias') | list -%}
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
    {%- do lines.append('candidates smallest first (bytes x factor): ' ~ ((choice.ranked | join(', ')) or 'none')) -%}
    {%- if others and options.shuffle_hint != 'none' -%}
        {%- set others_note = ' (hint ' ~ options.shuffle_hint
            ~ ', so that Spark does not broadcast them past the budget)' -%}
    {%- else -%}
        {%- set others_note = ' (left to Spark)' if others else '' -%}
    {%- endif -%}
    {%- do lines.append('broadcast: ' ~ ((chosen | join(', ')) or 'none') ~ ' (total ' ~ choice.used ~ ' of '
        ~ options.budget ~ ' bytes); shuffle: ' ~ ((others | join(', ')) or 'none') ~ others_note) -%}
    {%- do lines.append('join order: ' ~ (order.dims | map(attribute='alias') | join(', '))
        ~ ' (' ~ order.rule ~ ')') -%}
    {%- if spec.renamed -%}
        {%- do lines.append('output columns renamed to avoid duplicate names: ' ~ (spec.renamed | join(', '))) -%}
    {%- endif -%}
    {%- if seconds is none -%}
        {%- set off -%}
size queries: none, run-time queries are off {{ skewjoin._sj_queries_off_reason() }}: no size was looked up, so only
dimensions with broadcast: true are broadcast
        {%- endset -%}
        {%- do lines.append(off | replace('\n', ' ')) -%}
    {%- else -%}
        {%- do lines.append('size queries: ' ~ ('%.2f' | format(seconds)) ~ ' s') -%}
    {%- endif -%}
    {{- return(lines) -}}
{%- endmacro %}
