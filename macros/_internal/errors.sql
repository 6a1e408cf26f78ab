{#- Compile-time errors and the names they use.

    Every error names the model, the macro and argument, says what was wrong
    and shows the right form, so `dbt compile` tells the user how to fix it.
-#}

{% macro _sj_model_name() -%}
    {%- if model is defined and model is not none and model.name is defined -%}
        {{- return(model.name) -}}
    {%- elif this is defined and this is not none -%}
        {{- return(this.identifier) -}}
    {%- else -%}
        {{- return('<unknown model>') -}}
    {%- endif -%}
{%- endmacro %}


{% macro _sj_raise(macro_name, argument, problem, example) -%}
    {%- set message -%}
skewjoin.{{ macro_name }} in model '{{ skewjoin._sj_model_name() }}', argument `{{ argument }}`: {{ problem }}
  Right form, for example: {{ example }}
    {%- endset -%}
    {{- exceptions.raise_compiler_error(message) -}}
{%- endmacro %}


{% macro _sj_warn(macro_name, message) -%}
    {{- exceptions.warn('skewjoin.' ~ macro_name ~ ' in model \'' ~ skewjoin._sj_model_name() ~ '\': ' ~ message) -}}
{%- endmacro %}
