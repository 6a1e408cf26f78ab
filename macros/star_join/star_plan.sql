{#- Which dimensions are broadcast (Hive's map-join auto conversion with one
    budget for all of them), in which order the joins run, and the decision
    record. -#}

{#- Why a dimension may not be broadcast (none when it may). Rule: a map join
    streams the side whose rows must all be kept; only the other side can be
    built into the hash table. -#}
{% macro _sj_star_illegal_reason(d) -%}
    {%- if d.join_type == 'right' -%}
        {{- return('a right join preserves ' ~ d.alias ~ ' (all its rows are returned); only the non-preserved side of an outer join may be broadcast, and here that side holds the fact') -}}
    {%- elif d.join_type == 'full' -%}
        {{- return('a full outer join preserves both sides, so neither may be broadcast') -}}
    {%- endif -%}
    {{- return(none) -}}
{%- endmacro %}


{% macro _sj_star_choose(spec, options) -%}
    {%- set budget = options.budget -%}
    {%- set state = namespace(used=0) -%}
    {#- forced broadcasts take their share of the budget first -#}
    {%- for d in spec.dims if d.broadcast is sameas true -%}
        {%- do d.update({'verdict': 'broadcast', 'reason': 'broadcast: true (forced' ~ ('' if d.estimate is not none else '; size unknown, not counted') ~ ')'}) -%}
        {%- set state.used = state.used + (d.estimate or 0) -%}
    {%- endfor -%}
    {%- set candidates = [] -%}
    {%- for d in spec.dims if d.broadcast is not sameas true -%}
        {%- set illegal = skewjoin._sj_star_illegal_reason(d) -%}
        {%- if illegal is not none -%}
            {%- do d.update({'verdict': 'shuffle', 'reason': 'cannot be broadcast: ' ~ illegal}) -%}
        {%- elif d.broadcast is sameas false -%}
            {%- do d.update({'verdict': 'shuffle', 'reason': 'broadcast: false'}) -%}
        {%- elif d.estimate is none -%}
            {%- do d.update({'verdict': 'shuffle', 'reason': 'size unknown, and a dimension of unknown size is never broadcast'}) -%}
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
            {%- do d.update({'verdict': 'broadcast', 'reason': 'fits: broadcast total ' ~ total ~ ' <= budget ' ~ budget}) -%}
        {%- else -%}
            {%- do d.update({'verdict': 'shuffle', 'reason': 'over budget: broadcast total would be ' ~ (state.used ~ ' + ' ~ d.estimate ~ ' = ' ~ total) ~ ' > ' ~ budget}) -%}
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
        {{- return({'dims': spec.dims, 'rule': 'as given, because ' ~ (fixed | map(attribute='alias') | join(', ')) ~ ' ' ~ ('is' if fixed | length == 1 else 'are') ~ ' right- or full-joined and such a join does not commute with the others'}) -}}
    {%- endif -%}
    {%- set ranked = [] -%}
    {%- for d in spec.dims -%}
        {%- set rank = (0 if d.verdict == 'broadcast' else 2) + (1 if d.join_type == 'left' else 0) -%}
        {%- do ranked.append({'rank': rank, 'index': d.index, 'dim': d}) -%}
    {%- endfor -%}
    {%- set ordered = ranked | sort(attribute='index') | sort(attribute='rank') | map(attribute='dim') | list -%}
    {{- return({'dims': ordered, 'rule': 'broadcast joins first (filtering joins, then left joins), then shuffle joins'}) -}}
{%- endmacro %}


{% macro _sj_star_on_text(fa, d) -%}
    {%- set parts = [] -%}
    {%- for k in d['keys'] -%}
        {%- do parts.append(fa ~ '.' ~ skewjoin._sj_ident(k.fact) ~ ' = ' ~ d.alias ~ '.' ~ skewjoin._sj_ident(k.dim)) -%}
    {%- endfor -%}
    {{- return(parts) -}}
{%- endmacro %}


{% macro _sj_star_record_lines(spec, options, choice, order, seconds) -%}
    {%- set fa = spec.fact_alias -%}
    {%- set lines = [] -%}
    {%- do lines.append('star join: fact ' ~ fa ~ ' (' ~ spec.fact.label ~ ') with ' ~ (spec.dims | length) ~ ' dimension(s); broadcast budget ' ~ skewjoin._sj_star_bytes_text(options.budget) ~ ' from ' ~ options.budget_source) -%}
    {%- do lines.append("rule: Hive's map-join conversion with one budget: the dimensions that may be broadcast (inner, left, left semi, left anti joins; known size) are taken smallest first while the sum of their sizes x size factor fits the budget (this broadcasts as many as fit); unknown sizes are never broadcast") -%}
    {%- for d in spec.dims -%}
        {%- set factor_text = ('%g' | format(d.factor)) -%}
        {%- if d.bytes is none -%}
            {%- set size_text = 'size unknown (' ~ d.size_source ~ ')' -%}
        {%- else -%}
            {%- set size_text = skewjoin._sj_star_bytes_text(d.bytes) ~ ' from ' ~ d.size_source ~ (', ' ~ d.bound if d.bound else '') ~ '; x size factor ' ~ factor_text ~ ' (' ~ d.factor_source ~ ') = ' ~ d.estimate ~ ' bytes' -%}
        {%- endif -%}
        {%- do lines.append('dimension ' ~ d.alias ~ ' (' ~ d.input.label ~ ', ' ~ d.join_type ~ ' join on ' ~ (skewjoin._sj_star_on_text(fa, d) | join(' and ')) ~ (', filter: ' ~ d.filter if d.filter is not none else '') ~ '): ' ~ size_text ~ ' -> ' ~ d.verdict ~ ' (' ~ d.reason ~ ')') -%}
    {%- endfor -%}
    {%- set chosen = spec.dims | selectattr('verdict', 'equalto', 'broadcast') | map(attribute='alias') | list -%}
    {%- set others = spec.dims | selectattr('verdict', 'equalto', 'shuffle') | map(attribute='alias') | list -%}
    {%- do lines.append('candidates smallest first (bytes x factor): ' ~ ((choice.ranked | join(', ')) or 'none')) -%}
    {%- do lines.append('broadcast: ' ~ ((chosen | join(', ')) or 'none') ~ ' (total ' ~ choice.used ~ ' of ' ~ options.budget ~ ' bytes); shuffle: ' ~ ((others | join(', ')) or 'none') ~ (' (hint ' ~ options.shuffle_hint ~ ', so that Spark does not broadcast them past the budget)' if others and options.shuffle_hint != 'none' else (' (left to Spark)' if others else ''))) -%}
    {%- do lines.append('join order: ' ~ (order.dims | map(attribute='alias') | join(', ')) ~ ' (' ~ order.rule ~ ')') -%}
    {%- if spec.renamed -%}
        {%- do lines.append('output columns renamed to avoid duplicate names: ' ~ (spec.renamed | join(', '))) -%}
    {%- endif -%}
    {%- do lines.append('size queries: ' ~ ('%.2f' | format(seconds)) ~ ' s') -%}
    {{- return(lines) -}}
{%- endmacro %}
