{#- Inputs as dbt renders them outside a plain run, and what the macros may
    read from them.

    - dbt unit tests (dbt >= 1.8): every ref()/source() is a CTE named
      `__dbt__cte__<identifier>` holding the `given` rows. dbt builds those
      rows with the columns and types of the real relation (its
      get_fixture_sql reads them with get_columns_in_relation), so the CTE has
      exactly the real relation's columns: the macros describe the real
      relation, and query no data (the given rows are not in scope at compile
      time).
    - `dbt build --empty`: every ref()/source() is
      `(select * from <relation> where false limit 0) <alias>`; the columns
      are the relation's, and there is no data to measure.

    In both cases the compile-time queries (measuring, counting, sizes, key sets)
    are off, as with var skewjoin_run_queries: false (the one switch,
    measure.sql), and the decision record says why. -#}


{#- True while dbt compiles a model for one of its unit tests. -#}
{% macro _sj_in_unit_test() -%}
    {%- if model is not defined or model is none -%}
        {{- return(false) -}}
    {%- endif -%}
    {{- return((model.get('resource_type') if model is mapping else model.resource_type) | string == 'unit_test') -}}
{%- endmacro %}


{#- True under `dbt run|build --empty`. -#}
{% macro _sj_in_empty_run() -%}
    {{- return(flags.EMPTY is defined and flags.EMPTY is sameas true) -}}
{%- endmacro %}


{#- The text DESCRIBE QUERY reads an input's columns from, for the text the
    input renders to (`_sj_from_text`, a relation or a query over them): each
    unit test CTE `__dbt__cte__<name>` replaced by the real relation behind
    the given rows, each --empty subquery by the relation inside it. Raises
    when a unit test's input relation does not exist. -#}
{% macro _sj_described_text(from_text, macro_name='skew_join', argument='left') -%}
    {%- set state = namespace(text=from_text | string) -%}
    {%- for m in modules.re.finditer('\\(select \\* from ([^()]+?) where false limit 0\\)( _dbt_limit_subq_\\w+)?', state.text) | list -%}
        {%- set state.text = state.text.replace(m.group(0), m.group(1) | trim) -%}
    {%- endfor -%}
    {%- set names = [] -%}
    {%- for m in modules.re.finditer('`?__dbt__cte__(\\w+)`?', state.text) -%}
        {%- if m.group(0) not in names | map(attribute=0) | list -%}
            {%- do names.append([m.group(0), m.group(1)]) -%}
        {%- endif -%}
    {%- endfor -%}
    {%- for pair in names -%}
        {%- set name = pair[1] -%}
        {%- set relation = skewjoin._sj_unit_test_input_relation(name) -%}
        {%- if relation is none -%}
            {%- set problem -%}
{{ pair[0] }} is {{ 'the given rows of a dbt unit test' if skewjoin._sj_in_unit_test() else 'an ephemeral model (a CTE)' }},
whose columns Spark cannot describe at compile time; skewjoin reads them from the relation {{ name }} (dbt's given rows
have its columns and types), which was not found in schema {{ model.schema }}
            {%- endset -%}
            {%- do skewjoin._sj_raise(macro_name, argument, problem,
                'build the input first (dbt run -s ' ~ name ~ '), or materialize it as a table or view') -%}
        {%- endif -%}
        {%- set state.text = state.text.replace(pair[0], relation | string) -%}
    {%- endfor -%}
    {{- return(state.text) -}}
{%- endmacro %}


{#- The real relation behind the CTE `__dbt__cte__<name>` of a unit test:
    a model, seed or snapshot `name` in the tested model's schema, or a
    source `<source_name>__<table>` in the schema named as its source. -#}
{% macro _sj_unit_test_input_relation(name) -%}
    {%- set relation = skewjoin._sj_existing_relation(model.schema, name) -%}
    {%- if relation is none and '__' in name -%}
        {%- set parts = name.split('__', 1) -%}
        {%- set relation = skewjoin._sj_existing_relation(parts[0], parts[1]) -%}
    {%- endif -%}
    {{- return(relation) -}}
{%- endmacro %}


{#- The relation `schema`.`identifier` if it exists, else none: dbt's relation
    cache first, then, on a miss, Spark's own list (`_sj_table_listed`). The cache can miss
    a relation that exists: dbt-spark lists a schema with one SHOW TABLE
    EXTENDED and takes the whole schema for empty when that statement fails
    because a table in it was dropped while it listed (another dbt job
    rebuilding a model of the same schema). `identifier` is a word (\w+), as
    the CTE names it comes from. -#}
{% macro _sj_existing_relation(schema, identifier) -%}
    {%- set relation = adapter.get_relation(database=none, schema=schema, identifier=identifier) -%}
    {%- if relation is none and execute and modules.re.fullmatch('\\w+', identifier)
          and skewjoin._sj_table_listed(schema, identifier) -%}
        {%- set relation = api.Relation.create(schema=schema, identifier=identifier) -%}
    {%- endif -%}
    {{- return(relation) -}}
{%- endmacro %}
