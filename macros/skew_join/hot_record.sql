{#- The decision record of the hot keys, from their plan
    (`_sj_plan_hot_keys`): how each side's were found or verified, their
    spread and their branch. -#}


{#- The record of the hot-keys plan (`_sj_plan_hot_keys`). -#}
{% macro _sj_hot_record(j, hot) -%}
    {#- a list of its own: the regime's lines belong to the plan, which rendering never changes -#}
    {%- set lines = ((hot.get('regime') or {}).get('lines') or []) | list -%}
    {%- for e in hot.sides -%}
        {%- set alias = j[e.side].alias -%}
        {%- if e.how == 'declined' -%}
            {%- do lines.append('hot keys of ' ~ alias ~ " not measured: 'auto' is not run where the skew plans are"
                ~ ' declined') -%}
        {%- elif e.how == 'off' -%}
            {%- do lines.append('hot keys of ' ~ alias ~ " not measured: 'auto' needs a query and compile-time queries are"
                ~ ' off ' ~ e.reason) -%}
        {%- elif e.how == 'aqe' -%}
            {%- do lines.append('hot keys of ' ~ alias ~ ' not measured: the join is left to AQE (its regime,'
                ~ ' above)') -%}
        {%- elif e.how == 'detected' -%}
            {%- do lines.append(skewjoin._sj_detected_record(alias, e.detected, e.found, hot.options)) -%}
        {%- else -%}
            {%- if e.verify is not none -%}
                {%- do lines.extend(skewjoin._sj_verify_hot_record(alias, e.verify)) -%}
            {%- endif -%}
            {%- do lines.append('hot keys of ' ~ alias ~ ' (' ~ e.origin ~ '): '
                ~ (e.lits.shown | join('; ') if e.lits.shown else 'none') ~ (' + NULL keys' if e.lits.null else '')) -%}
        {%- endif -%}
        {%- if e.get('folded') is not none -%}
            {%- set into = j[e.folded.into].alias -%}
            {%- do lines.append('hot keys of ' ~ alias ~ ' (' ~ (e.folded.shown | join('; ')) ~ ') joined in ' ~ into
                ~ "'s branch: " ~ alias ~ "'s " ~ skewjoin._sj_rows_text(e.folded.rows) ~ ' counted rows of them fit'
                ~ ' max_broadcast_rows ' ~ skewjoin._sj_rows_text(e.folded.budget) ~ ', so they are broadcast there beside '
                ~ alias ~ "'s rows of " ~ into ~ "'s keys, and each side is read twice instead of three times") -%}
        {%- endif -%}
        {%- for shown in e.both -%}
            {%- do lines.append('key ' ~ shown ~ ' is hot on both sides: it goes through the branch that streams '
                ~ j.left.alias ~ ' and broadcasts ' ~ j.right.alias ~ "'s rows of that key") -%}
        {%- endfor -%}
    {%- endfor -%}
    {%- if hot.requested and not hot.active -%}
        {%- do lines.append('hot keys: none to handle, so no hot-key branch') -%}
    {%- endif -%}
    {{- return(lines) -}}
{%- endmacro %}


{#- The record line of a side's heavy keys found at compile time. -#}
{% macro _sj_detected_record(alias, detected, found, options) -%}
    {%- set how = ('a ' ~ ((options.sample_fraction | float) * 100) ~ '% sample') if skewjoin._sj_sampled(options)
        else 'every row, exact counts' -%}
    {%- if detected.get('sketch') is not none -%}
        {%- set how = skewjoin._sj_sketch_record_text(alias, detected.sketch) ~ ';' -%}
    {%- elif detected.get('sample') is not none -%}
        {%- set how = skewjoin._sj_sample_record_text(alias, detected.sample) ~ ';' -%}
    {%- else -%}
        {%- set how = 'one aggregate query over ' ~ how ~ ',' -%}
    {%- endif -%}
    {%- set line -%}
hot keys of {{ alias }} found at compile time ({{ how }} {{ '%.1f' | format(detected.seconds) }}
s, {{ detected.total }} rows in {{ detected.splits }} input splits; min_share {{ options.min_share }}, max_keys
{{ options.max_keys }}): {{ found | join('; ') if found else 'none above the threshold' }}
    {%- endset -%}
    {{- return(line | replace('\n', ' ')) -}}
{%- endmacro %}


{#- The record of a side's hot-key verification (`_sj_judge_hot_keys`). -#}
{% macro _sj_verify_hot_record(alias, verified) -%}
    {%- set labels = [] -%}
    {%- for r in verified.get('results') or [] -%}
        {%- do labels.append(['hot key ' ~ r.shown ~ ' of ' ~ alias, alias]) -%}
    {%- endfor -%}
    {{- return(skewjoin._sj_verdict_lines(verified, labels, 'it was',
        'its broadcast branch would read both sides again', 'hot keys')) -}}
{%- endmacro %}


{#- The record line of a side's spread (`_sj_hot_spread`). -#}
{% macro _sj_spread_record(alias, s, opts) -%}
    {%- set cost = 'cost: one shuffle of the hot rows (written and read once), no sort' -%}
    {%- if s.why == 'never' -%}
        {{- return('hot rows of ' ~ alias ~ ' not spread (spread: never)') -}}
    {%- elif s.why == 'always' -%}
        {%- set line -%}
hot rows of {{ alias }} spread by xxhash64 of the whole row and its input split over {{ s.partitions }} partitions
before the broadcast join (spread: always; {{ cost }})
        {%- endset -%}
    {%- elif s.why == 'off' -%}
        {{- return('hot rows of ' ~ alias ~ ' not spread: counting its input splits needs a query and run-time'
                   ~ ' queries are off ' ~ s.off) -}}
    {%- elif s.why == 'splits' -%}
        {{- return('hot rows of ' ~ alias ~ ' joined where they are read: its input has ' ~ s.splits ~ ' splits (>='
                   ~ ' spread_min_splits ' ~ opts.spread_min_splits ~ ')') -}}
    {%- elif s.why == 'half' -%}
        {%- set line -%}
hot rows of {{ alias }} joined where they are read: its {{ s.splits }} input splits already use half or more of the
{{ s.parallelism }} tasks Spark runs at once (default parallelism), so a spread would cost a shuffle of the hot rows
and gain no parallelism
        {%- endset -%}
    {%- else -%}
        {%- set line -%}
hot rows of {{ alias }} spread by xxhash64 of the whole row and its input split over {{ s.partitions }} partitions:
its input has only {{ s.splits }} splits (< spread_min_splits {{ opts.spread_min_splits }}) for a default parallelism of
{{ s.parallelism }}, which would make the broadcast branch a straggler ({{ cost }})
        {%- endset -%}
    {%- endif -%}
    {{- return(line | replace('\n', ' ')) -}}
{%- endmacro %}


{#- The record of skew_join's hot-key branch: each side's NULL keys and the
    spread of its hot rows, then each broadcast branch. -#}
{% macro _sj_hot_branch_record(j, hot) -%}
    {%- set lines = [] -%}
    {%- set preserved = j.semantics.keeps_unmatched -%}
    {%- for side in ['left', 'right'] -%}
        {%- set alias = j[side].alias -%}
        {%- if hot['null_' ~ side] -%}
            {%- do lines.append(skewjoin._sj_null_bypass_record(alias, side in preserved, 'join',
                'the other side NULL', 'never match and ' ~ alias ~ ' is not preserved')) -%}
        {%- endif -%}
        {%- if hot[side] is not none -%}
            {%- do lines.append(skewjoin._sj_spread_record(alias, hot['spread_' ~ side], hot.options)) -%}
        {%- endif -%}
    {%- endfor -%}
    {%- for s in ['left', 'right'] if hot[s] is not none -%}
        {%- set sa = j[s].alias -%}
        {%- set oa = j['right' if s == 'left' else 'left'].alias -%}
        {%- set shape = skewjoin._sj_hot_branch_shape(j, s) -%}
        {%- if shape.kind == 'keys' -%}
            {%- set how = [oa ~ "'s rows of these keys " ~ j.join_type ~ ' join the broadcast distinct keys of ' ~ sa
                ~ "'s hot rows"] -%}
        {%- else -%}
            {%- set tasks = hot['spread_' ~ s].tasks -%}
            {%- set copies = (tasks ~ ' tasks') if tasks is not none
                else 'tasks (one per input split of ' ~ sa ~ ')' -%}
            {%- set how = [sa ~ "'s hot rows " ~ shape.keyword ~ ' the broadcast rows of ' ~ oa ~ ' with those keys',
                'multicast: those rows of ' ~ oa ~ ' are broadcast, one copy to each of the ' ~ copies
                ~ ' of the branch; no run-time count is made'] -%}
            {%- if shape.unmatched -%}
                {%- do how.append(oa ~ ' is preserved: its rows of these keys with no match are found by an anti join'
                    ~ ' against the broadcast distinct keys of ' ~ sa ~ "'s hot rows") -%}
            {%- endif -%}
        {%- endif -%}
        {%- if s == 'right' and hot.left is not none -%}
            {%- do how.append('rows of the keys of ' ~ j.left.alias ~ "'s branch are left out, so a value hot on both"
                ~ ' sides is joined once, there') -%}
        {%- endif -%}
        {%- do lines.append('hot branch for keys of ' ~ sa ~ ' (' ~ (hot[s].shown | join('; ')) ~ '): '
            ~ (how | join('; ')) ~ '; rows never hash-shuffled by these keys') -%}
    {%- endfor -%}
    {{- return(lines) -}}
{%- endmacro %}


{#- The record line of a NULL-key bypass (`what`: 'join' or 'chain'). -#}
{% macro _sj_null_bypass_record(alias, kept, what, others_null, dropped_why) -%}
    {%- if not kept -%}
        {{- return('rows of ' ~ alias ~ ' with a NULL key are dropped before the ' ~ what ~ ' (they can '
                   ~ dropped_why ~ ')') -}}
    {%- endif -%}
    {{- return('rows of ' ~ alias ~ ' with a NULL key bypass the ' ~ what ~ ' (they can never match): kept once, '
               ~ others_null) -}}
{%- endmacro %}
