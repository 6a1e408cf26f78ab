{#- skew_join: the join of two relations, made fast for the skew the user
    describes (explicit skew groups, hot keys), and equal as a multiset of rows
    to the plain Spark join of the same inputs.

    Usage in a model:
        {{ config(skew_join={'groups': [{'when': "a.customer_id = 0", 'percent': 40}]}) }}
        {{ skewjoin.skew_join(ref('orders'), ref('customers'), on=['customer_id']) }}
-#}

{% macro skew_join(left, right, on, join_type='inner', columns=none, left_alias='a', right_alias='b', skew=none) -%}
    {{- return(adapter.dispatch('skew_join', 'skewjoin')(left, right, on, join_type, columns, left_alias, right_alias, skew)) -}}
{%- endmacro %}


{% macro default__skew_join(left, right, on, join_type, columns, left_alias, right_alias, skew) -%}
    {%- do skewjoin._sj_raise('skew_join', 'adapter', 'skew_join generates Spark SQL (xxhash64, explode, broadcast hints) and supports the spark and databricks adapters; this target uses ' ~ adapter.type(), 'a profile with type: spark') -%}
{%- endmacro %}


{#- The skew specification: the `skew` argument wins over the model config
    `skew_join`; absent or empty means the plain join. -#}
{% macro _sj_skew_spec(skew) -%}
    {%- set source = 'argument skew' -%}
    {%- set spec = skew -%}
    {%- if spec is none -%}
        {%- set spec = config.get('skew_join', none) -%}
        {%- set source = 'config skew_join' -%}
    {%- endif -%}
    {%- if spec is none -%}
        {{- return({'spec': {}, 'source': 'none'}) -}}
    {%- endif -%}
    {%- if spec is not mapping -%}
        {%- do skewjoin._sj_raise('skew_join', 'skew_join', 'the skew specification must be a mapping with groups, hot_keys and total_slots; got ' ~ (spec | string), "config(skew_join={'groups': [{'when': \"a.customer_id = 0\", 'percent': 40}]})") -%}
    {%- endif -%}
    {%- for key in spec -%}
        {%- if key not in ('groups', 'hot_keys', 'total_slots', 'hot_keys_options') -%}
            {%- do skewjoin._sj_raise('skew_join', 'skew_join', "unknown key '" ~ key ~ "'; the specification has groups, hot_keys, hot_keys_options and total_slots", "config(skew_join={'groups': [...], 'hot_keys': [0]})") -%}
        {%- endif -%}
    {%- endfor -%}
    {{- return({'spec': spec, 'source': source}) -}}
{%- endmacro %}


{% macro spark__skew_join(left, right, on, join_type, columns, left_alias, right_alias, skew) -%}
    {%- if not execute -%}
        {#- parse time: valid SQL, no queries (configs are not resolved yet) -#}
        {{- return('select * from ' ~ skewjoin._sj_from_text('skew_join', 'left', left) ~ ' as ' ~ left_alias ~ ' cross join ' ~ skewjoin._sj_from_text('skew_join', 'right', right) ~ ' as ' ~ right_alias) -}}
    {%- endif -%}
    {%- set resolved_spec = skewjoin._sj_skew_spec(skew) -%}
    {%- set spec = resolved_spec.spec -%}
    {%- set j = skewjoin._sj_resolve_join('skew_join', left, right, on, join_type, columns, left_alias, right_alias) -%}
    {%- set key_text = [] -%}
    {%- for k in j['keys'] -%}
        {%- do key_text.append(left_alias ~ '.' ~ k.left ~ ' (' ~ k.left_type ~ ') = ' ~ right_alias ~ '.' ~ k.right ~ ' (' ~ k.right_type ~ ')' ~ (', compared as ' ~ k.type if k.left_type != k.right_type else '')) -%}
    {%- endfor -%}
    {%- set lines = [j.join_type ~ ' join on ' ~ (key_text | join(' and ')) ~ '; skew specification from ' ~ resolved_spec.source] -%}
    {%- if j.renamed -%}
        {%- do lines.append('output columns of ' ~ right_alias ~ ' renamed to avoid duplicate names: ' ~ (j.renamed | join(', '))) -%}
    {%- endif -%}
    {%- set groups = spec.get('groups') or [] -%}
    {%- set hot = skewjoin._sj_plan_hot_keys(j, spec.get('hot_keys'), spec.get('hot_keys_options') or {}, spec) -%}
    {%- if not groups and not hot.active -%}
        {%- do lines.extend(hot.lines) -%}
        {%- do lines.append('strategy: plain join (no skew groups' ~ (' and no hot keys' if not hot.requested else ', hot keys declined') ~ ')') -%}
        {{- return(skewjoin._sj_record_sql('skew_join', lines) ~ '\n' ~ skewjoin._sj_plain_join_sql(j)) -}}
    {%- endif -%}
    {%- set ctes = [
        [left_alias ~ '_input', 'select * from ' ~ j.left['from'] ~ ' as sj_source'],
        [right_alias ~ '_input', 'select * from ' ~ j.right['from'] ~ ' as sj_source']
    ] -%}
    {%- set inputs = {'left': left_alias ~ '_input', 'right': right_alias ~ '_input'} -%}
    {%- set final_selects = [] -%}
    {%- if hot.active -%}
        {%- set hot_sql = skewjoin._sj_hot_key_ctes(j, hot, inputs) -%}
        {%- do ctes.extend(hot_sql.ctes) -%}
        {%- do final_selects.extend(hot_sql.selects) -%}
        {%- set inputs = hot_sql.rest_inputs -%}
    {%- endif -%}
    {%- do lines.extend(hot.lines) -%}
    {%- if groups -%}
        {%- set slots = skewjoin._sj_total_slots(spec) -%}
        {%- set plan = skewjoin._sj_plan_groups(j, groups, slots[0]) -%}
        {%- do skewjoin._sj_check_group_legality(j, plan) -%}
        {%- do lines.extend(skewjoin._sj_group_record_lines(j, plan, slots[1])) -%}
        {%- set left_side = skewjoin._sj_slotted_side_ctes(j, plan, 'left', inputs.left) -%}
        {%- set right_side = skewjoin._sj_slotted_side_ctes(j, plan, 'right', inputs.right) -%}
        {%- do ctes.extend(left_side.ctes) -%}
        {%- do ctes.extend(right_side.ctes) -%}
        {%- set rest_join -%}
select
    {{ j.select_list | join(',\n    ') }}
from {{ left_side.final }} as {{ left_alias }}
{{ skewjoin._sj_sql_join_keyword(j.join_type) }} {{ right_side.final }} as {{ right_alias }}
    on {{ skewjoin._sj_on_condition(j) }}
    and {{ left_alias }}.sj_slot = {{ right_alias }}.sj_slot
        {%- endset -%}
    {%- else -%}
        {%- set rest_join = skewjoin._sj_plain_join_sql(j, inputs.left, inputs.right) -%}
    {%- endif -%}
    {%- if hot.active -%}
        {%- do ctes.append(['rest_joined', rest_join]) -%}
        {%- do final_selects.append('select * from rest_joined') -%}
        {%- set body = final_selects | join('\nunion all\n') -%}
        {%- do lines.append('strategy: ' ~ ('hot keys by broadcast + skew groups for the rest' if groups else 'hot keys by broadcast + plain shuffle join for the rest') ~ ', results unioned') -%}
    {%- else -%}
        {%- set body = rest_join -%}
        {%- do lines.append('strategy: skew groups over a shuffle join on (keys, slot)') -%}
    {%- endif -%}
    {%- set cte_texts = [] -%}
    {%- for c in ctes -%}
        {%- do cte_texts.append(c[0] ~ ' as (\n' ~ skewjoin._sj_indent(c[1], 4) ~ '\n)') -%}
    {%- endfor -%}
    {{- return(skewjoin._sj_record_sql('skew_join', lines) ~ '\nwith\n\n' ~ (cte_texts | join(',\n\n')) ~ '\n\n' ~ body) -}}
{%- endmacro %}


{#- Indent SQL text by `width` spaces without touching string literals. -#}
{% macro _sj_indent(text, width) -%}
    {%- set pad = ' ' * width -%}
    {%- set out = [] -%}
    {%- for part in skewjoin._sj_split_literals(text) -%}
        {%- if loop.index0 % 2 == 1 -%}
            {%- do out.append(part) -%}
        {%- else -%}
            {%- do out.append(modules.re.sub('\n(?=[^\n])', '\n' ~ pad, part)) -%}
        {%- endif -%}
    {%- endfor -%}
    {{- return(pad ~ (out | join(''))) -}}
{%- endmacro %}
