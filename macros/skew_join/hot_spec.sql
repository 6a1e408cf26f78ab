
{#- Hot keys (Hive's skewed join, Teradata's PRPD): the rows of a few heavy
    keys are joined by a broadcast join where they are read, never
    hash-shuffled by their key; everything else goes through the shuffle join
    (or the skew groups); the branches are unioned.

    Every input row lands in exactly one branch: the hot predicates are
    null-safe (coalesce(..., false)) and the rest is their exact complement.
    For a key hot on side S, S's hot rows are streamed and the other side O's
    rows of that key are broadcast. Outer joins:
      - S preserved: S left join broadcast(O) (Spark can build the right side);
      - O preserved: pairs by S inner join broadcast(O), plus O's unmatched
        rows found by an anti join against the (few) distinct keys of S's hot
        rows;
      - full: both of the above.
    `null` in a list of hot keys routes the rows with a NULL key around the
    join altogether (they can never match): kept once with NULLs for the other
    side when their side is preserved, dropped otherwise.
-#}

{#- Two example values of each key column's kind, where the join is resolved (its `keys` have types; before
    that, numbers): a string key gets strings, a date key dates. -#}
{% macro _sj_hot_example_values(spec, n) -%}
    {%- set samples = {'string': ["'EU'", "'US'"], 'date': ["'2024-01-01'", "'2024-01-02'"],
                       'timestamp': ["'2024-01-01 00:00:00'", "'2024-01-02 00:00:00'"], 'boolean': ['true', 'false']} -%}
    {%- set out = [] -%}
    {%- for i in range(n) -%}
        {%- set key = (spec.get('keys') or [])[i] if (spec.get('keys') or []) | length > i else none -%}
        {%- do out.append(samples.get(skewjoin._sj_type_kind(key.type) if key is mapping else 'integral', ['0', '1'])) -%}
    {%- endfor -%}
    {{- return(out) -}}
{%- endmacro %}


{% macro _sj_hot_example(spec) -%}
    {%- set n = (spec.get('pairs') or [none]) | length -%}
    {%- set values = skewjoin._sj_hot_example_values(spec, n) -%}
    {%- if spec.get('macro') == 'skew_join_chain' -%}
        {#- a chain's hot keys are the large side's -#}
        {%- set one = values[0][0] if n == 1 else '[' ~ (values | map('first') | join(', ')) ~ ']' -%}
        {{- return("'auto'  or  {'" ~ spec.left.alias ~ "': [" ~ one ~ "]}  (the large side's keys"
            ~ ('' if n == 1 else ', one value per key column: ' ~ spec.pairs | map('first') | join(', ')) ~ ')') -}}
    {%- endif -%}
    {%- if n == 1 -%}
        {{- return("'auto'  or  {'" ~ spec.left.alias ~ "': [" ~ values[0] | join(', ') ~ "], '" ~ spec.right.alias ~ "': 'auto'}"
                   ~ "  (none routes the NULL keys around the join; tuples for multi-column keys: [[0, 'EU']])") -}}
    {%- endif -%}
    {#- a join on several columns: each hot key is a list of one value per key column -#}
    {%- set firsts = values | map('first') | list -%}
    {{- return("'auto'  or  {'" ~ spec.left.alias ~ "': [[" ~ firsts | join(', ') ~ '], [' ~ ([values[0][1]] + firsts[1:])
               | join(', ') ~ "]], '" ~ spec.right.alias ~ "': 'auto'}  (one value per key column: "
               ~ spec.pairs | map('first') | join(', ') ~ '; [' ~ (['none'] * n) | join(', ')
               ~ '] routes the rows with a NULL in any key column around the join)') -}}
{%- endmacro %}


{#- Hot-key options with their defaults, checked. -#}
{% macro _sj_hot_options(options, macro_name='skew_join') -%}
    {%- set defaults = skewjoin._sj_detection_defaults() -%}
    {%- do defaults.update({'spread': 'auto', 'spread_partitions': none, 'spread_min_splits': 8,
                         'max_broadcast_rows': 100000}) -%}
    {%- set arg = 'skew_join.hot_keys_options' -%}
    {%- if options is none -%}
        {%- set options = {} -%}
    {%- endif -%}
    {%- if options is not mapping -%}
        {%- do skewjoin._sj_raise(macro_name, arg, 'expected a mapping; got ' ~ options,
            "{'min_share': 0.05, 'max_keys': 10}") -%}
    {%- endif -%}
    {%- set out = skewjoin._sj_detection_options(macro_name, arg, options, defaults, 'hot_keys_options',
        "{'min_share': 0.05}") -%}
    {%- do out.update({'spread': skewjoin._sj_choice(macro_name, arg ~ '.spread', out.spread,
        ['auto', 'always', 'never'], 'spread')}) -%}
    {%- for key in ['spread_partitions', 'spread_min_splits'] if out[key] is not none -%}
        {%- do skewjoin._sj_whole_number(macro_name, arg ~ '.' ~ key, out[key], 1, '16', key ~ ', a whole number') -%}
    {%- endfor -%}
    {%- do skewjoin._sj_whole_number(macro_name, arg ~ '.max_broadcast_rows', out.max_broadcast_rows, 0, '100000',
        'max_broadcast_rows, a whole number of rows') -%}
    {{- return(out) -}}
{%- endmacro %}


{#- The hot keys as declared, checked without a query: per side ('left',
    'right'), a list of values or 'auto'; each value of the arity of the
    join's key. Returns {'requested', 'sides': {side: 'auto' or [values]},
    'options'}. -#}
{% macro _sj_hot_spec(spec, hot_keys, options) -%}
    {%- set n = spec.pairs | length -%}
    {%- set arg = 'skew_join.hot_keys' -%}
    {%- set example = skewjoin._sj_hot_example(spec) -%}
    {%- if hot_keys is none or (hot_keys is not string and hot_keys is iterable and hot_keys | length == 0) -%}
        {%- if options is not none -%}
            {%- do skewjoin._sj_hot_options(options, spec.macro) -%}
        {%- endif -%}
        {{- return({'requested': false, 'sides': {}, 'options': none}) -}}
    {%- endif -%}
    {%- set per_side = {} -%}
    {%- if hot_keys is mapping -%}
        {%- for key in hot_keys -%}
            {%- if key | lower == spec.left.alias | lower -%}
                {%- do per_side.update({'left': hot_keys[key]}) -%}
            {%- elif key | lower == spec.right.alias | lower -%}
                {%- do per_side.update({'right': hot_keys[key]}) -%}
            {%- else -%}
                {%- set problem -%}
'{{ key }}' is not a side{{ skewjoin._sj_did_you_mean(key, [spec.left.alias, spec.right.alias]) }}; name the side by
its alias ({{ spec.left.alias }} or {{ spec.right.alias }})
                {%- endset -%}
                {%- do skewjoin._sj_raise(spec.macro, arg, problem, example) -%}
            {%- endif -%}
        {%- endfor -%}
    {%- else -%}
        {%- do per_side.update({'left': hot_keys}) -%}
    {%- endif -%}
    {%- for side in per_side -%}
        {%- set declared = per_side[side] -%}
        {%- if declared is string and declared | lower | trim == 'auto' -%}
            {%- do per_side.update({side: 'auto'}) -%}
        {%- elif declared is string or declared is mapping or declared is not iterable -%}
            {%- set problem -%}
the hot keys of {{ spec[side].alias }} are a list of values or 'auto'; got {{ declared }}{{
    skewjoin._sj_did_you_mean(declared, ['auto']) }}
            {%- endset -%}
            {%- do skewjoin._sj_raise(spec.macro, arg, problem, example) -%}
        {%- else -%}
            {%- for v in declared -%}
                {%- set arity = 1 if (v is string or v is number or v is none or v is boolean or v is not iterable)
                    else (-1 if v is mapping else v | length) -%}
                {%- if arity != n or (n > 1 and (v is string or v is not iterable)) -%}
                    {%- set problem -%}
hot key {{ v }} has the wrong arity: the join has {{ n }} key column(s)
({{ spec.pairs | map('first') | join(', ') }}), so each hot key is
{{ 'a single value' if n == 1 else 'a list of ' ~ n ~ ' values' }}
                    {%- endset -%}
                    {%- do skewjoin._sj_raise(spec.macro, arg, problem, example) -%}
                {%- endif -%}
            {%- endfor -%}
        {%- endif -%}
    {%- endfor -%}
    {{- return({'requested': true, 'sides': per_side, 'options': skewjoin._sj_hot_options(options, spec.macro)}) -}}
{%- endmacro %}


{#- Normalize one side's declared values into tuples of SQL literals.
    Returns {'tuples': [[lit, ...], ...], 'shown': [...], 'null': bool}. -#}
{% macro _sj_hot_literals(j, side, values, detected=false) -%}
    {%- set n = j['keys'] | length -%}
    {%- set arg = 'skew_join.hot_keys' -%}
    {%- set tuples = [] -%}
    {%- set shown = [] -%}
    {%- set state = namespace(null=false) -%}
    {%- for v in values -%}
        {%- if n == 1 and (v is string or v is number or v is none or v is boolean or v is not iterable) -%}
            {%- set t = [v] -%}
        {%- elif v is iterable and v is not string and v is not mapping -%}
            {%- set t = v | list -%}
        {%- else -%}
            {%- set t = none -%}
        {%- endif -%}
        {%- if none in t -%}
            {%- set state.null = true -%}
        {%- else -%}
            {%- set lits = [] -%}
            {%- set unusable = namespace(found=false) -%}
            {%- for value in t -%}
                {%- set lit = skewjoin._sj_literal(value, j['keys'][loop.index0].type) -%}
                {%- if (lit is none or skewjoin._sj_special_float(value, j['keys'][loop.index0].type) is not none) and detected -%}
                    {#- a value found in the data with no literal form, or a NaN or infinity 'auto' found: it
                        stays in the shuffle join (which matches NaN to NaN); a declared NaN is a hot key -#}
                    {%- set unusable.found = true -%}
                {%- elif lit is none -%}
                    {%- set problem -%}
hot key value {{ value }} is not a valid {{ j['keys'][loop.index0].type }} (the type the keys are compared in)
                    {%- endset -%}
                    {%- do skewjoin._sj_raise(j.macro, arg, problem, skewjoin._sj_hot_example(j)) -%}
                {%- endif -%}
                {%- do lits.append(lit) -%}
            {%- endfor -%}
            {%- if not unusable.found and lits not in tuples -%}
                {%- do tuples.append(lits) -%}
                {%- do shown.append(t | join(', ') if n > 1 else t[0] | string) -%}
            {%- endif -%}
        {%- endif -%}
    {%- endfor -%}
    {{- return({'tuples': tuples, 'shown': shown, 'null': state.null}) -}}
{%- endmacro %}
