{#- Argument parsers shared by every capability: join keys, aliases,
    numbers, enumerated words and the keys of a specification mapping. Each
    returns the parsed value or stops compilation with a message that names
    the argument. No queries here. -#}

{#- [[left_col, right_col], ...] from `on`: a column name, or a list of
    column names and [left, right] pairs. `sides` names the two sides in
    messages ('left', 'right' or 'fact', 'dimension' ...); `unique_left`
    refuses a left column given twice. -#}
{% macro _sj_parse_on(macro_name, argument, on, sides=('left', 'right'), unique_left=false, inputs=none) -%}
    {%- set example = "['customer_id']  or  [['customer_id', 'id']]  ([" ~ sides[0] ~ ' column, '
        ~ sides[1] ~ ' column] pairs; several for a multi-column key)' -%}
    {%- set shape = namespace(ok=(on is string and on | trim | length > 0)
        or (on is iterable and on is not mapping and on is not string and on | length > 0)) -%}
    {%- if shape.ok and on is not string -%}
        {%- for item in on if not (item is string and item | trim | length > 0)
               and not (item is iterable and item is not mapping and item is not string and item | length == 2
                        and item[0] is string and item[1] is string) -%}
            {%- set shape.ok = false -%}
        {%- endfor -%}
    {%- endif -%}
    {%- if shape.ok and unique_left and on is not string -%}
        {%- set lefts = [] -%}
        {%- for item in on -%}
            {%- do lefts.append((item if item is string else item[0]) | trim | lower) -%}
        {%- endfor -%}
        {%- set shape.ok = lefts | unique | list | length == lefts | length -%}
    {%- endif -%}
    {%- if inputs is not none and execute and not shape.ok -%}
        {#- a wrong `on`: show the user a key their two inputs really share -#}
        {%- set example = skewjoin._sj_shared_key_example(inputs[0], inputs[1]) -%}
    {%- endif -%}
    {%- set example = skewjoin._sj_example_for(argument, example) -%}
    {%- set items = [on] if on is string else on -%}
    {%- if items is none or items is mapping or items is not iterable or items | length == 0 -%}
        {%- set problem -%}
expected a non-empty list of column names or [{{ sides[0] }}_column, {{ sides[1] }}_column] pairs; got {{ on }}
        {%- endset -%}
        {%- do skewjoin._sj_raise(macro_name, argument, problem, example) -%}
    {%- endif -%}
    {%- set pairs = [] -%}
    {%- set seen = [] -%}
    {%- for item in items -%}
        {%- if item is string and item | trim | length > 0 -%}
            {%- set pair = [item | trim, item | trim] -%}
        {%- elif item is iterable and item is not mapping and item is not string and item | length == 2
                 and item[0] is string and item[1] is string
                 and item[0] | trim | length > 0 and item[1] | trim | length > 0 -%}
            {%- set pair = [item[0] | trim, item[1] | trim] -%}
        {%- else -%}
            {%- set problem -%}
each key is a column name or a [{{ sides[0] }}_column, {{ sides[1] }}_column] pair; got {{ item }}
            {%- endset -%}
            {%- do skewjoin._sj_raise(macro_name, argument, problem, example) -%}
        {%- endif -%}
        {%- if unique_left and (pair[0] | lower) in seen -%}
            {%- set problem -%}
{{ sides[0] }} column '{{ pair[0] }}' appears twice; each {{ sides[0] }} column is matched once per {{ sides[1] }}
            {%- endset -%}
            {%- do skewjoin._sj_raise(macro_name, argument, problem, example) -%}
        {%- endif -%}
        {%- do seen.append(pair[0] | lower) -%}
        {%- do pairs.append(pair) -%}
    {%- endfor -%}
    {{- return(pairs) -}}
{%- endmacro %}


{#- True for an alias the generated SQL can use: a plain identifier that
    does not start with sj_ (the prefix of the package's own names). -#}
{% macro _sj_alias_ok(alias) -%}
    {{- return(alias is string and modules.re.fullmatch('[A-Za-z_][A-Za-z0-9_]*', alias) is not none
               and not (alias | lower).startswith('sj_')) -}}
{%- endmacro %}


{% macro _sj_check_alias(macro_name, argument, alias, example_alias) -%}
    {%- if not skewjoin._sj_alias_ok(alias) -%}
        {%- set problem -%}
an alias is a plain identifier (letters, digits, _) not starting with sj_; got {{ alias }}
        {%- endset -%}
        {%- do skewjoin._sj_raise(macro_name, argument, problem,
            skewjoin._sj_example_for(argument, "'" ~ example_alias ~ "'")) -%}
    {%- endif -%}
    {{- return(alias) -}}
{%- endmacro %}


{#- A whole number >= minimum (an int or its text), or raise. -#}
{% macro _sj_whole_number(macro_name, argument, value, minimum, example_value, what='a whole number') -%}
    {%- if value is boolean or value is none or not modules.re.fullmatch('[0-9]+', value | string | trim)
           or (value | int) < minimum -%}
        {%- do skewjoin._sj_raise(macro_name, argument, what ~ ' >= ' ~ minimum ~ ' is expected; got ' ~ value,
            skewjoin._sj_example_for(argument, example_value)) -%}
    {%- endif -%}
    {{- return(value | int) -}}
{%- endmacro %}


{#- A number strictly between `low` and `high` (`high` itself allowed when
    `high_inclusive`), or raise. -#}
{% macro _sj_number_between(macro_name, argument, value, low, high, high_inclusive, example_value, what) -%}
    {%- set ok = value is not boolean and value is not none
        and modules.re.fullmatch('[0-9]*[.]?[0-9]+([eE][-+]?[0-9]+)?', value | string | trim) is not none -%}
    {%- if ok -%}
        {%- set v = value | float -%}
        {%- set ok = v > low and (v <= high if high_inclusive else v < high) -%}
    {%- endif -%}
    {%- if not ok -%}
        {%- do skewjoin._sj_raise(macro_name, argument, what ~ '; got ' ~ value,
            skewjoin._sj_example_for(argument, example_value)) -%}
    {%- endif -%}
    {{- return(value | float) -}}
{%- endmacro %}


{#- One of `allowed` (compared lowercase), or raise naming the near miss. -#}
{% macro _sj_choice(macro_name, argument, value, allowed, what) -%}
    {%- if value is string and (value | lower | trim) in allowed -%}
        {{- return(value | lower | trim) -}}
    {%- endif -%}
    {%- set problem -%}
{{ what }} is one of {{ allowed | join(', ') }}; got {{ value }}{{ skewjoin._sj_did_you_mean(value, allowed) }}
    {%- endset -%}
    {%- set example = skewjoin._sj_example_for(argument, "'" ~ allowed[0] ~ "'") -%}
    {%- do skewjoin._sj_raise(macro_name, argument, problem, example) -%}
{%- endmacro %}


{#- Refuse a key of mapping `m` that is not in `known`, naming the near miss. -#}
{% macro _sj_check_keys(macro_name, argument, m, known, what, example) -%}
    {%- for key in m if key not in known -%}
        {%- set problem -%}
unknown key '{{ key }}'{{ skewjoin._sj_did_you_mean(key, known) }}; {{ what }} has {{ known | join(', ') }}
        {%- endset -%}
        {%- do skewjoin._sj_raise(macro_name, argument, problem, example) -%}
    {%- endfor -%}
{%- endmacro %}
