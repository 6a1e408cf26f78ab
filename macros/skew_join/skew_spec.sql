{#- The skew specification, checked before anything runs: where it comes
    from (argument `skew` over model config `skew_join`), its keys, each
    group's `when`, size and distribution, and the hot keys and their
    options. No query here: a wrong specification stops `dbt compile` before
    Spark is asked anything. -#}

{% macro _sj_spec_keys() -%}
    {{- return(['groups', 'hot_keys', 'hot_keys_options', 'total_slots', 'min_parallelism', 'verify']) -}}
{%- endmacro %}


{% macro _sj_group_example(spec) -%}
    {%- set driver_key = spec.left.alias ~ '.' ~ spec.pairs[0][0] -%}
    {{- return("{'when': \"" ~ driver_key ~ " = 0\", 'percent': 40, 'distribute': 'random'}") -}}
{%- endmacro %}


{#- The specification's source and content: {'source', 'groups', 'hot_keys',
    'hot_options', 'total_slots', 'min_parallelism', 'verify'}; empty means the plain join. -#}
{% macro _sj_skew_spec(join_spec, skew) -%}
    {%- set source = 'argument skew' -%}
    {%- set raw = skew -%}
    {%- if raw is none -%}
        {%- set raw = skewjoin._sj_model_config('skew_join', join_spec.macro) -%}
        {%- set source = 'config skew_join' -%}
    {%- endif -%}
    {%- if raw is none -%}
        {%- set raw = {} -%}
        {%- set source = 'none' -%}
        {%- if skewjoin._sj_in_unit_test() -%}
            {#- dbt hands a unit test's node none of the model's config: only a config() call in its code is read -#}
            {%- set source = "none (a dbt unit test sees only the model's code: a skew_join config set in a properties "
                ~ 'file or dbt_project.yml is not seen here, so this test checks the plain join; to test the plan, '
                ~ "write it in the model's config() call or its skew argument)" -%}
            {%- do skewjoin._sj_warn(join_spec.macro, 'skew specification from ' ~ source) -%}
        {%- endif -%}
    {%- endif -%}
    {%- set argument = 'skew_join' -%}
    {%- set example = "{'groups': [" ~ skewjoin._sj_group_example(join_spec) ~ "]}  or  'auto'" -%}
    {%- set auto = skewjoin._sj_auto_spec(raw, join_spec.macro) -%}
    {%- if auto is not none -%}
        {#- planned once the sides are resolved and measured (skew_auto.sql) -#}
        {{- return({'source': source ~ " ('auto')", 'auto': auto, 'groups': [], 'macro': join_spec.macro,
                    'hot': {'requested': false, 'sides': {}, 'options': none}, 'total_slots': auto.total_slots,
                    'min_parallelism': auto.min_parallelism, 'empty': false}) -}}
    {%- endif -%}
    {%- if raw is not mapping -%}
        {%- set near = skewjoin._sj_did_you_mean(raw, ['auto']) -%}
        {%- set problem -%}
the skew specification must be 'auto' or a mapping with groups, hot_keys, hot_keys_options, total_slots,
min_parallelism and verify; got {{ raw }}{{ near }}
        {%- endset -%}
        {%- do skewjoin._sj_raise(join_spec.macro, argument, problem, "'auto'" if near else example) -%}
    {%- endif -%}
    {%- do skewjoin._sj_check_keys(join_spec.macro, argument, raw, skewjoin._sj_spec_keys(), 'the specification',
        example) -%}
    {%- set groups = skewjoin._sj_groups_spec(join_spec, raw.get('groups')) -%}
    {%- set hot = skewjoin._sj_hot_spec(join_spec, raw.get('hot_keys'), raw.get('hot_keys_options')) -%}
    {%- set total = raw.get('total_slots') -%}
    {%- if total is not none -%}
        {%- do skewjoin._sj_whole_number(join_spec.macro, 'skew_join.total_slots', total, 2, '200',
            'total_slots, a whole number') -%}
    {%- endif -%}
    {%- set min_par = raw.get('min_parallelism') -%}
    {%- if min_par is not none -%}
        {%- set min_par = skewjoin._sj_whole_number(join_spec.macro, 'skew_join.min_parallelism', min_par, 1, '1',
            'min_parallelism, a whole number') -%}
    {%- endif -%}
    {%- set verify = skewjoin._sj_verify_spec(join_spec.macro, raw.get('verify')) -%}
    {{- return({'source': source, 'auto': none, 'groups': groups, 'hot': hot, 'total_slots': total,
                'macro': join_spec.macro, 'min_parallelism': min_par, 'verify': verify,
                'empty': not groups and not hot.requested}) -}}
{%- endmacro %}


{#- Check one group's `when` (on the join keys of exactly one side) and
    return its driver side. -#}
{% macro _sj_group_driver(spec, when, position) -%}
    {%- set arg = 'skew_join.groups[' ~ position ~ '].when' -%}
    {%- set la = spec.left.alias | lower -%}
    {%- set ra = spec.right.alias | lower -%}
    {%- set example = '"' ~ spec.left.alias ~ "." ~ spec.pairs[0][0] ~ ' = 0"' -%}
    {%- do skewjoin._sj_check_fragment(spec.macro, arg, when, example) -%}
    {%- set refs = skewjoin._sj_expr_refs(when) -%}
    {%- set aliases = [] -%}
    {%- for ref in refs -%}
        {%- if ref.alias | lower not in (la, ra) -%}
            {%- set problem -%}
'{{ when }}' uses the unknown alias '{{ ref.alias }}'; the sides are {{ spec.left.alias }} and {{ spec.right.alias }}
            {%- endset -%}
            {%- do skewjoin._sj_raise(spec.macro, arg, problem, example) -%}
        {%- endif -%}
        {%- if ref.alias | lower not in aliases -%}{%- do aliases.append(ref.alias | lower) -%}{%- endif -%}
    {%- endfor -%}
    {%- set key_columns = [] -%}
    {%- for pair in spec.pairs -%}
        {%- do key_columns.extend([{'name': pair[0]}, {'name': pair[1]}]) -%}
    {%- endfor -%}
    {%- set bare = skewjoin._sj_bare_column_refs(when, key_columns) -%}
    {%- if bare -%}
        {%- set problem -%}
'{{ when }}' uses the column {{ bare[0] }} without an alias; write it as {{ spec.left.alias }}.{{ bare[0] }} or
{{ spec.right.alias }}.{{ bare[0] }}
        {%- endset -%}
        {%- do skewjoin._sj_raise(spec.macro, arg, problem, example) -%}
    {%- endif -%}
    {%- if aliases | length != 1 -%}
        {%- set problem -%}
'{{ when }}' references {{ 'no side' if not aliases else 'both sides' }}; a group's `when` must be a condition on the
join keys of exactly one side (that side drives the group), e.g. only {{ spec.left.alias }}.{{ spec.pairs[0][0] }}
        {%- endset -%}
        {%- do skewjoin._sj_raise(spec.macro, arg, problem, example) -%}
    {%- endif -%}
    {%- set side = 'left' if aliases[0] == la else 'right' -%}
    {%- set key_names = [] -%}
    {%- for pair in spec.pairs -%}{%- do key_names.append(pair[0 if side == 'left' else 1]) -%}{%- endfor -%}
    {%- for ref in refs if ref.column | lower not in (key_names | map('lower') | list) -%}
        {%- set problem -%}
'{{ when }}' uses {{ ref.alias }}.{{ ref.column }}, which is not a join key; a `when` may only use the join keys
({{ key_names | join(', ') }}) because the other side is assigned to groups by the same condition on its own keys
        {%- endset -%}
        {%- do skewjoin._sj_raise(spec.macro, arg, problem, '"' ~ spec[side].alias ~ "." ~ key_names[0] ~ ' = 0"') -%}
    {%- endfor -%}
    {{- return(side) -}}
{%- endmacro %}


{#- A group's distribution: random, keys, or an expression on the driver.
    Returns [kind, expression or none]. Whether an expression's columns exist
    is checked once the columns are known (`_sj_check_group_columns`). -#}
{% macro _sj_group_distribution(spec, g, position, driver) -%}
    {%- set arg = 'skew_join.groups[' ~ position ~ '].distribute' -%}
    {%- set dist = g.get('distribute', 'random') -%}
    {%- set driver_alias = spec[driver].alias -%}
    {%- set driver_key = spec.pairs[0][0 if driver == 'left' else 1] -%}
    {%- set example = "'upper(" ~ driver_alias ~ "." ~ driver_key ~ ")'" -%}
    {%- if dist is not string -%}
        {%- do skewjoin._sj_raise(spec.macro, arg,
            "distribute is 'random', 'keys' or an expression on the driver side; got " ~ dist, "'keys'") -%}
    {%- endif -%}
    {%- if (dist | lower | trim) in ('random', 'keys') -%}
        {{- return([dist | lower | trim, none]) -}}
    {%- endif -%}
    {%- set refs = skewjoin._sj_expr_refs(dist) -%}
    {%- if refs | length == 0 -%}
        {%- set near = skewjoin._sj_did_you_mean(dist, ['random', 'keys']) -%}
        {%- set problem -%}
'{{ dist }}'{{ near }} is neither random nor keys, and as an expression it references no column of the driver side
{{ driver_alias }}; a constant would put every row of the group in one slot
        {%- endset -%}
        {%- do skewjoin._sj_raise(spec.macro, arg, problem, "'random'" if near else example) -%}
    {%- endif -%}
    {%- do skewjoin._sj_check_fragment(spec.macro, arg, dist, example) -%}
    {%- for ref in refs if ref.alias | lower != driver_alias | lower -%}
        {%- set problem -%}
'{{ dist }}' uses {{ ref.alias }}; a DISTRIBUTE expression must use the same side as its group's `when`
({{ driver_alias }})
        {%- endset -%}
        {%- do skewjoin._sj_raise(spec.macro, arg, problem, example) -%}
    {%- endfor -%}
    {{- return(['expression', dist]) -}}
{%- endmacro %}


{#- The groups as given, checked: [{'index', 'name', 'when', 'driver',
    'other', 'slots' or 'percent', 'distribute', 'expression'}]. -#}
{% macro _sj_groups_spec(spec, groups) -%}
    {%- if groups is none -%}
        {{- return([]) -}}
    {%- endif -%}
    {%- set example = skewjoin._sj_group_example(spec) -%}
    {%- if groups is string or groups is mapping or groups is not iterable -%}
        {%- do skewjoin._sj_raise(spec.macro, 'skew_join.groups', 'expected a list of groups; got ' ~ groups,
            '[' ~ example ~ ']') -%}
    {%- endif -%}
    {%- set out = [] -%}
    {%- set total = namespace(percent=0) -%}
    {%- for g in groups -%}
        {%- set pos = loop.index0 -%}
        {%- set arg = 'skew_join.groups[' ~ pos ~ ']' -%}
        {%- if g is not mapping -%}
            {%- do skewjoin._sj_raise(spec.macro, arg,
                'each group is a mapping with when, slots or percent, and distribute; got ' ~ g, example) -%}
        {%- endif -%}
        {%- do skewjoin._sj_check_keys(spec.macro, arg, g, ['when', 'slots', 'percent', 'distribute', 'name'],
            'a group', example) -%}
        {%- if g.get('when') is none -%}
            {%- do skewjoin._sj_raise(spec.macro, arg ~ '.when',
                'every group needs a `when`: a condition on the join keys of one side',
                '"' ~ spec.left.alias ~ "." ~ spec.pairs[0][0] ~ ' = 0"') -%}
        {%- endif -%}
        {%- set driver = skewjoin._sj_group_driver(spec, g.get('when'), pos) -%}
        {%- set group = {'index': pos + 1, 'name': g.get('name') or ('group_' ~ (pos + 1)), 'when': g.get('when'),
                         'driver': driver, 'other': 'right' if driver == 'left' else 'left',
                         'slots': none, 'percent': none} -%}
        {%- if g.get('slots') is not none and g.get('percent') is not none -%}
            {%- set fixed = {} -%}
            {%- do fixed.update(g) -%}
            {%- do fixed.pop('percent') -%}
            {%- do skewjoin._sj_raise(spec.macro, arg, 'give either slots or percent, not both', fixed) -%}
        {%- elif g.get('slots') is not none -%}
            {%- do group.update({'slots': skewjoin._sj_whole_number(spec.macro, arg ~ '.slots', g.get('slots'), 1, '4',
                'a group needs at least one slot: a whole number')}) -%}
        {%- elif g.get('percent') is not none -%}
            {%- set p = skewjoin._sj_number_between(spec.macro, arg ~ '.percent', g.get('percent'), 0, 100, true, '20',
                'percent is a number above 0 and at most 100') -%}
            {%- do group.update({'percent': p, 'percent_text': g.get('percent') | string | trim}) -%}
            {%- set total.percent = total.percent + p -%}
        {%- else -%}
            {%- set fixed = {'percent': 20} -%}
            {%- do fixed.update(g) -%}
            {%- do skewjoin._sj_raise(spec.macro, arg, 'a group needs a size: slots: n or percent: p (of total_slots)',
                fixed) -%}
        {%- endif -%}
        {%- set dist = skewjoin._sj_group_distribution(spec, g, pos, driver) -%}
        {%- do group.update({'distribute': dist[0], 'expression': dist[1]}) -%}
        {%- do out.append(group) -%}
    {%- endfor -%}
    {%- if total.percent > 100 -%}
        {%- set problem -%}
the groups' percentages add up to {{ total.percent }}%, over 100%; three groups of 10, 20 and 40 percent leave 30% for
the other rows
        {%- endset -%}
        {%- do skewjoin._sj_raise(spec.macro, 'skew_join.groups', problem, '[' ~ example ~ ']') -%}
    {%- endif -%}
    {{- return(out) -}}
{%- endmacro %}
