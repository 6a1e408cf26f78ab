{#- The decision records of skew_join and skew_join_chain, rendered from
    their plan (`_sj_skew_plan`) alone: no query, no decision. -#}


{#- skew_join's record: the join, then the plan's decisions in the order
    they were made, then what the SQL does with them. -#}
{% macro _sj_skew_record(j, plan) -%}
    {%- set lines = [skewjoin._sj_join_record_line(j, plan.source)] -%}
    {%- if j.renamed -%}
        {%- do lines.append('output columns of ' ~ j.right.alias ~ ' renamed to avoid duplicate names: '
            ~ (j.renamed | join(', '))) -%}
    {%- endif -%}
    {%- do lines.extend(skewjoin._sj_plan_record(j, plan)) -%}
    {%- do lines.extend(skewjoin._sj_declared_aqe_record(j, plan.aqe)) -%}
    {%- set hot = plan.hot -%}
    {%- if plan.plain and plan.guard.declined -%}
        {#- the strategy line is the console's headline: it says why, and the way out -#}
        {{- return(lines + ['strategy: plain join (skew plans declined: this local Spark runs ' ~ plan.guard.parallelism
            ~ ' tasks at once, fewer than min_parallelism ' ~ plan.guard.minimum
            ~ '; var skewjoin_min_parallelism: 1 plans them anyway)']) -}}
    {%- elif plan.plain and plan.auto is not none and (plan.auto.get('aqe') or {}).get('hand_back') -%}
        {{- return(lines + ['strategy: ' ~ (plan.auto.aqe.get('strategy') or "plain join, handed back to AQE (auto's"
            ~ ' forecast above: AQE splits every planned key as finely as the skew plan would)')]) -}}
    {%- elif plan.plain and (hot.get('regime') or {}).get('hand_back') -%}
        {{- return(lines + ["strategy: plain join, left to AQE (hot keys 'auto': the AQE regime above, nothing"
            ~ ' detected)']) -}}
    {%- elif plan.plain -%}
        {%- set groups_text = 'no skew groups' ~ (' left after verification' if plan.dropped else '') -%}
        {%- set hot_text = ' and no hot keys' if not hot.requested else (', hot keys dropped after verification'
            if hot.get('dropped') else ', hot keys declined') -%}
        {{- return(lines + ['strategy: plain join (' ~ groups_text ~ hot_text ~ ')']) -}}
    {%- endif -%}
    {%- if hot.active -%}
        {%- do lines.extend(skewjoin._sj_hot_branch_record(j, hot)) -%}
    {%- endif -%}
    {%- if plan.layout is not none -%}
        {%- do lines.extend(skewjoin._sj_groups_record(j, plan.layout, plan.slots[1], hot)) -%}
    {%- endif -%}
    {%- set nulls = [] -%}
    {%- for side in ['left', 'right'] if hot.active and hot['null_' ~ side] -%}
        {%- do nulls.append('kept' if side in j.semantics.keeps_unmatched else 'dropped') -%}
    {%- endfor -%}
    {%- set branch = hot.active and (hot.left is not none or hot.right is not none) -%}
    {{- return(lines + [skewjoin._sj_strategy_record(branch, ('kept' if 'kept' in nulls else ('dropped' if nulls else none)),
        plan.layout is not none, {'hot': 'broadcast', 'plain': 'plain shuffle join', 'slotted': 'a shuffle join'})]) -}}
{%- endmacro %}


{#- The record of a declared plan's AQE forecast (`_sj_aqe_declared_forecast`):
    its lines, and where AQE would split every declared key as finely, a
    `warning:` line, also logged as a dbt warning. -#}
{% macro _sj_declared_aqe_record(j, forecast) -%}
    {%- if forecast is none -%}
        {{- return([]) -}}
    {%- endif -%}
    {%- if forecast.warning is none -%}
        {{- return(forecast.lines) -}}
    {%- endif -%}
    {%- do skewjoin._sj_warn(j.macro, forecast.warning) -%}
    {{- return(forecast.lines + ['warning: ' ~ forecast.warning]) -}}
{%- endmacro %}


{#- The record's first line: the join, its keys and their types. -#}
{% macro _sj_join_record_line(j, source) -%}
    {%- set key_text = [] -%}
    {%- for k in j['keys'] -%}
        {%- set compared = (', compared as ' ~ k.type) if k.left_type != k.right_type else '' -%}
        {%- do key_text.append(j.left.alias ~ '.' ~ k.left ~ ' (' ~ k.left_type ~ ') = ' ~ j.right.alias ~ '.' ~ k.right
            ~ ' (' ~ k.right_type ~ ')' ~ compared) -%}
    {%- endfor -%}
    {{- return(j.join_type ~ ' join on ' ~ (key_text | join(' and ')) ~ '; skew specification from ' ~ source) -}}
{%- endmacro %}


{#- The decisions skew_join and the chain share: the parallelism guard,
    'auto', the hot keys, the groups' verification. -#}
{% macro _sj_plan_record(j, plan) -%}
    {%- set lines = skewjoin._sj_guard_record(plan.guard) -%}
    {%- if plan.auto is not none -%}
        {%- do lines.extend(skewjoin._sj_auto_record(j, plan.auto)) -%}
    {%- endif -%}
    {%- do lines.extend(skewjoin._sj_hot_record(j, plan.hot)) -%}
    {%- if plan.verify is not none -%}
        {%- do lines.extend(skewjoin._sj_verify_groups_record(j, plan.verify)) -%}
    {%- endif -%}
    {{- return(lines) -}}
{%- endmacro %}


{#- The record's last line, a skew strategy, as the SQL has it: `branch` (a
    hot-key branch unioned with the rest), `nulls` ('kept': the rows with a
    NULL key routed around the join and unioned, 'dropped': left out before
    it, or none), `grouped` (skew groups); `words` name the hot join, the
    plain rest and the slotted join. -#}
{% macro _sj_strategy_record(branch, nulls, grouped, words) -%}
    {%- if branch -%}
        {{- return('strategy: hot keys by ' ~ words.hot ~ ' + ' ~ ('skew groups' if grouped else words.plain)
            ~ ' for the rest, results unioned') -}}
    {%- endif -%}
    {%- set join = ('skew groups over ' ~ words.slotted ~ ' on (keys, slot)') if grouped else words.plain -%}
    {%- if nulls == 'kept' -%}
        {{- return('strategy: ' ~ join ~ ', the rows with a NULL key routed around it and kept, results unioned') -}}
    {%- elif nulls == 'dropped' -%}
        {{- return('strategy: ' ~ join ~ ', the rows with a NULL key dropped before it') -}}
    {%- endif -%}
    {{- return('strategy: ' ~ join) -}}
{%- endmacro %}


{#- skew_join_chain's record: the chain (`retyped`: the keys compared in
    another type; `renamed`: the output columns renamed), the plan's
    decisions, then what the SQL does with them. -#}
{% macro _sj_chain_record(pairs, plan, retyped, renamed) -%}
    {%- set j = pairs[0] -%}
    {%- set a = j.left.alias -%}
    {%- set others = pairs | map(attribute='right') | map(attribute='alias') | join(', ') -%}
    {%- set descr = [] -%}
    {%- for p in pairs -%}
        {%- do descr.append(p.join_type ~ ' join ' ~ p.right.alias ~ ' on ' ~ (skewjoin._sj_on_condition(p)
            | replace('\n    ', ' '))) -%}
    {%- endfor -%}
    {%- set lines = ['chain: ' ~ a ~ ' ' ~ (descr | join(', then ')) ~ '; keys compared as '
        ~ (j['keys'] | map(attribute='type') | join(', ')) ~ '; skew specification from ' ~ plan.source] -%}
    {%- if retyped -%}
        {%- set line -%}
the keys compare in different types ({{ retyped | join('; ') }}): the slots are hashed in
{{ j['keys'] | map(attribute='type') | join(', ') }} on every side, so rows that match still meet; Spark
shuffles a join's input again where its key type differs from the previous join's (cast the keys to one type in
subqueries to shuffle {{ a }} once)
        {%- endset -%}
        {%- do lines.append(line | replace('\n', ' ')) -%}
    {%- endif -%}
    {%- if renamed -%}
        {%- do lines.append('output columns renamed to avoid duplicate names: ' ~ (renamed | join(', '))) -%}
    {%- endif -%}
    {%- do lines.extend(skewjoin._sj_plan_record(j, plan)) -%}
    {%- set hot = plan.hot -%}
    {%- if plan.plain and plan.guard.declined -%}
        {{- return(lines + ['strategy: the plain chain of joins (skew plans declined on this local Spark, see'
            ~ ' above)']) -}}
    {%- elif plan.plain -%}
        {%- set groups_text = 'no skew groups' ~ (' left after verification' if plan.dropped else '') -%}
        {%- set hot_text = ' and no hot keys' ~ (' left after verification' if hot.get('dropped') else '') -%}
        {{- return(lines + ['strategy: the plain chain of joins (' ~ groups_text ~ hot_text ~ ')']) -}}
    {%- endif -%}
    {%- set all_left = (pairs | selectattr('join_type', 'equalto', 'left') | list | length) == (pairs | length) -%}
    {%- if hot.null_left -%}
        {%- do lines.append(skewjoin._sj_null_bypass_record(a, all_left, 'chain', 'every other side NULL',
            'never match, and an inner join of the chain drops them')) -%}
    {%- endif -%}
    {%- if hot.left is not none -%}
        {%- do lines.append('hot keys of ' ~ a ~ ' (' ~ (hot.left.shown | join('; ')) ~ '): its hot rows meet a'
            ~ " broadcast copy of each other side's rows of those keys, one join after the other (" ~ others
            ~ '), never hash-shuffled; multicast: those rows are broadcast, one copy to each task of the branch') -%}
    {%- endif -%}
    {%- if plan.layout is not none -%}
        {%- do lines.extend(skewjoin._sj_groups_record(j, plan.layout, plan.slots[1], hot)) -%}
        {%- do lines.append('every join of the chain matches on (keys, sj_slot): ' ~ a ~ ' is salted once and the'
            ~ ' rows of every other side (' ~ others ~ ') of a group are copied to the same slots, so '
            ~ ("Spark keeps the first join's partitioning for the next ones and shuffles " ~ a ~ ' once'
               if not retyped else "a join whose key type matches the previous one's keeps its partitioning (the"
               ~ ' others shuffle again, see above)')) -%}
    {%- endif -%}
    {%- set nulls = none if not hot.null_left else ('kept' if all_left else 'dropped') -%}
    {{- return(lines + [skewjoin._sj_strategy_record(hot.left is not none, nulls, plan.layout is not none,
        {'hot': 'a chain of broadcast joins', 'plain': 'the plain chain', 'slotted': 'a chain of shuffle joins'})]) -}}
{%- endmacro %}


{#- The guard's record line (none when it read nothing). -#}
{% macro _sj_guard_record(guard) -%}
    {%- if guard.master is none -%}
        {{- return([]) -}}
    {%- elif not guard.declined -%}
        {%- set line -%}
parallelism: local Spark ({{ guard.master }}) runs {{ guard.parallelism }} tasks at once (>= min_parallelism
{{ guard.minimum }}, from {{ guard.source }}): skew plans made
        {%- endset -%}
        {{- return([line | replace('\n', ' ')]) -}}
    {%- endif -%}
    {%- set line -%}
skew plans declined: local Spark ({{ guard.master }}) runs {{ guard.parallelism }} tasks at once (default parallelism),
fewer than min_parallelism {{ guard.minimum }} (from {{ guard.source }}); with so few cores a skewed key's task runs
beside the others (the join stage takes at most {{ guard.parallelism }}x its balanced time), while every skew plan
reads or copies rows the plain join does not. Set skew_join.min_parallelism: 1 (or var skewjoin_min_parallelism: 1)
to plan anyway
    {%- endset -%}
    {{- return([line | replace('\n', ' ')]) -}}
{%- endmacro %}
