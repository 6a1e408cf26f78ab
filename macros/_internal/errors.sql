{#- Compile-time errors and warnings, and the names they use.

    Every error names the model, the macro and argument, says what was wrong
    and shows the right form, so `dbt compile` tells the user how to fix it.
    The right form is a value the argument accepts, written as in a model
    (`join_type='left'` for a macro argument, the bare value for a key inside
    a specification), so that putting it in place of the failing value
    compiles.
-#}

{% macro _sj_model_name() -%}
    {%- set tested = skewjoin._sj_tested_model() -%}
    {%- if tested is not none -%}
        {{- return(tested) -}}
    {%- elif model is defined and model is not none and model.name is defined -%}
        {{- return(model.name) -}}
    {%- elif this is defined and this is not none -%}
        {{- return(this.identifier) -}}
    {%- else -%}
        {{- return('<unknown model>') -}}
    {%- endif -%}
{%- endmacro %}


{#- In a dbt unit test, the name of the model it tests (its node's
    tested_node_unique_id, `model.<package>.<name>`), else none: errors and
    records name the model whose code holds the call, and the unit test. -#}
{% macro _sj_tested_model() -%}
    {%- if not skewjoin._sj_in_unit_test() -%}
        {{- return(none) -}}
    {%- endif -%}
    {%- set tested = (model.get('tested_node_unique_id') if model is mapping else model.tested_node_unique_id) -%}
    {%- set parts = (tested or '') | string | trim -%}
    {%- set parts = parts.split('.', 2) -%}
    {{- return(parts[2] if parts | length == 3 and parts[2] else none) -}}
{%- endmacro %}


{#- The model as messages name it: 'name', and in a dbt unit test
    'name' (unit test 'test'). -#}
{% macro _sj_model_ref() -%}
    {%- set name = "'" ~ skewjoin._sj_model_name() ~ "'" -%}
    {%- if skewjoin._sj_tested_model() is not none -%}
        {{- return(name ~ " (unit test '" ~ model.name ~ "')") -}}
    {%- endif -%}
    {{- return(name) -}}
{%- endmacro %}


{#- Stop compilation. `problem` may be written over several lines (a
    `{% set %}` block): its line breaks become spaces. -#}
{% macro _sj_raise(macro_name, argument, problem, example) -%}
    {%- set text = modules.re.sub('\\s*\n\\s*', ' ', problem | string | trim) -%}
    {%- set message -%}
skewjoin.{{ macro_name }} in model {{ skewjoin._sj_model_ref() }}, argument `{{ argument }}`: {{ text }}
  Right form, for example: {{ example }}
    {%- endset -%}
    {{- exceptions.raise_compiler_error(message) -}}
{%- endmacro %}


{#- A warning in the dbt log (the decision record says the same). -#}
{% macro _sj_warn(macro_name, message) -%}
    {%- if execute -%}
        {%- do exceptions.warn('skewjoin.' ~ macro_name ~ ' in model ' ~ skewjoin._sj_model_ref() ~ ': ' ~ message) -%}
    {%- endif -%}
{%- endmacro %}


{#- The example as the user writes it: `name=value` for a macro argument,
    the bare value for a key inside a specification. -#}
{% macro _sj_example_for(argument, value) -%}
    {%- if modules.re.fullmatch('[a-z_]+', argument) -%}
        {{- return(argument ~ '=' ~ value) -}}
    {%- endif -%}
    {{- return(value) -}}
{%- endmacro %}


{#- Edit distance between two short words: insertions, deletions,
    substitutions and swaps of neighbouring letters ('lfet' is one edit from
    'left'). -#}
{% macro _sj_edit_distance(a, b) -%}
    {%- set state = namespace(before=[], previous=range(b | length + 1) | list) -%}
    {%- for i in range(1, a | length + 1) -%}
        {%- set current = [i] -%}
        {%- for j in range(1, b | length + 1) -%}
            {%- set cost = 0 if a[i - 1] == b[j - 1] else 1 -%}
            {%- set best = [state.previous[j] + 1, current[j - 1] + 1, state.previous[j - 1] + cost] | min -%}
            {%- if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1] -%}
                {%- set best = [best, state.before[j - 2] + 1] | min -%}
            {%- endif -%}
            {%- do current.append(best) -%}
        {%- endfor -%}
        {%- set state.before = state.previous -%}
        {%- set state.previous = current -%}
    {%- endfor -%}
    {{- return(state.previous[b | length]) -}}
{%- endmacro %}


{#- " (did you mean 'x'?)" when `value` is a near miss of one allowed word,
    else ''. -#}
{% macro _sj_did_you_mean(value, allowed) -%}
    {%- set word = skewjoin._sj_nearest(value, allowed) -%}
    {{- return(" (did you mean '" ~ word ~ "'?)" if word is not none else '') -}}
{%- endmacro %}


{#- The allowed word `value` is a near miss of, else none. Near: at most 2
    edits, and fewer than half the word's letters. -#}
{% macro _sj_nearest(value, allowed) -%}
    {%- if value is not string -%}
        {{- return(none) -}}
    {%- endif -%}
    {%- set wanted = value | lower | trim -%}
    {%- set best = namespace(word=none, distance=99) -%}
    {%- for word in allowed -%}
        {%- set d = skewjoin._sj_edit_distance(wanted, word | string | lower) -%}
        {%- if d < best.distance -%}
            {%- set best.word = word -%}
            {%- set best.distance = d -%}
        {%- endif -%}
    {%- endfor -%}
    {%- if best.word is not none and 0 < best.distance <= 2 and best.distance * 2 < (best.word | length) -%}
        {{- return(best.word) -}}
    {%- endif -%}
    {{- return(none) -}}
{%- endmacro %}


{#- A public macro called with a keyword it does not take (`join_tpye=`) or
    more positional arguments than it has: the package's error instead of
    Jinja's ("takes no keyword argument"), raised when the model compiles,
    not at parse time (where it stopped every dbt command). `names`: the
    macro's arguments, in order. -#}
{% macro _sj_check_call(macro_name, names, extra_keywords, extra_positional) -%}
    {%- if not execute -%}
        {{- return(none) -}}
    {%- endif -%}
    {%- for keyword in extra_keywords | sort -%}
        {%- set meant = skewjoin._sj_nearest(keyword, names) -%}
        {%- set given = extra_keywords[keyword] -%}
        {#- the right form: the value given, under the name it is a near miss of, as a model writes it -#}
        {%- if given is string or given is boolean or given is none -%}
            {%- set given = skewjoin._sj_jinja_literal(given) -%}
        {%- endif -%}
        {%- set example = (meant ~ '=' ~ given) if meant is not none
            else 'skewjoin.' ~ macro_name ~ '(' ~ names[:3] | join(', ') ~ ', ...)' -%}
        {%- do skewjoin._sj_raise(macro_name, keyword, 'no such argument' ~ skewjoin._sj_did_you_mean(keyword, names)
            ~ '; the arguments of ' ~ macro_name ~ ' are ' ~ names | join(', '), example) -%}
    {%- endfor -%}
    {%- if extra_positional | length > 0 -%}
        {%- do skewjoin._sj_raise(macro_name, names[-1], macro_name ~ ' takes at most ' ~ names | length
            ~ ' arguments (' ~ names | join(', ') ~ '); ' ~ (extra_positional | length) ~ ' more were given',
            'skewjoin.' ~ macro_name ~ '(' ~ names[:2] | join(', ') ~ ', ..., ' ~ names[-1] ~ '=...)') -%}
    {%- endif -%}
{%- endmacro %}
