{#- The hot-keys plan (hot_spec.sql has the rules they are declared by). -#}


{#- The hot-keys plan: which values are hot on which side, and why. With
    'auto', one aggregate query per side finds them (or, when run-time queries
    are off, none are found and the record says so). -#}
{% macro _sj_plan_hot_keys(j, hot_spec, skew, guard) -%}
    {%- set result = {'active': false, 'requested': hot_spec.requested, 'lines': [], 'left': none, 'right': none,
                      'null_left': false, 'null_right': false, 'skew': skew, 'options': hot_spec.options,
                      'parallelism': guard.parallelism} -%}
    {%- if not hot_spec.requested -%}
        {{- return(result) -}}
    {%- endif -%}
    {%- set taken = [] -%}
    {%- for side in ['left', 'right'] if side in hot_spec.sides -%}
        {%- set declared = hot_spec.sides[side] -%}
        {%- set alias = j[side].alias -%}
        {%- if declared == 'auto' and guard.declined -%}
            {%- do result.lines.append('hot keys of ' ~ alias ~ " not measured: 'auto' is not run where the skew"
                ~ ' plans are declined') -%}
            {%- set lits = {'tuples': [], 'shown': [], 'null': false} -%}
        {%- elif declared == 'auto' and not skewjoin._sj_queries_allowed() -%}
            {%- do result.lines.append('hot keys of ' ~ alias ~ " not measured: 'auto' needs a query and run-time"
                ~ " queries are off " ~ skewjoin._sj_queries_off_reason()) -%}
            {%- set lits = {'tuples': [], 'shown': [], 'null': false} -%}
        {%- elif declared == 'auto' -%}
            {%- set detected = skewjoin._sj_detect_hot_keys(j, side, hot_spec.options) -%}
            {%- do result.lines.extend(detected.lines) -%}
            {%- set lits = skewjoin._sj_hot_literals(j, side, detected['values'], true) -%}
            {%- do result.update({'splits_' ~ side: detected.splits}) -%}
        {%- else -%}
            {%- set lits = skewjoin._sj_hot_literals(j, side, declared) -%}
            {%- set origin = hot_spec.get('origin') or 'declared' -%}
            {%- if lits.tuples and skew.get('verify') is not none and not guard.declined -%}
                {%- set verified = skewjoin._sj_verify_hot_keys(j, side, lits, skew) -%}
                {%- do result.lines.extend(verified.lines) -%}
                {%- if verified.splits is not none -%}
                    {%- do result.update({'splits_' ~ side: verified.splits}) -%}
                {%- endif -%}
                {%- do result.update({'dropped': (result.get('dropped') or 0) + verified.dropped}) -%}
                {%- set lits = verified.lits -%}
            {%- endif -%}
            {%- do result.lines.append('hot keys of ' ~ alias ~ ' (' ~ origin ~ '): '
                ~ (lits.shown | join('; ') if lits.shown else 'none') ~ (' + NULL keys' if lits.null else '')) -%}
        {%- endif -%}
        {%- set own = [] -%}
        {%- set own_shown = [] -%}
        {%- for t in lits.tuples -%}
            {%- if t in taken -%}
                {%- do result.lines.append('key ' ~ lits.shown[loop.index0] ~ ' is hot on both sides: it goes through'
                    ~ ' the branch that streams ' ~ j.left.alias ~ ' and broadcasts ' ~ j.right.alias
                    ~ "'s rows of that key") -%}
            {%- else -%}
                {%- do own.append(t) -%}
                {%- do own_shown.append(lits.shown[loop.index0]) -%}
                {%- do taken.append(t) -%}
            {%- endif -%}
        {%- endfor -%}
        {%- if own -%}
            {%- do result.update({side: {'tuples': own, 'shown': own_shown}}) -%}
        {%- endif -%}
        {%- if lits.null -%}
            {%- do result.update({'null_' ~ side: true}) -%}
        {%- endif -%}
    {%- endfor -%}
    {%- if result.left is none and result.right is none and not result.null_left and not result.null_right -%}
        {%- do result.lines.append('hot keys: none to handle, so no hot-key branch') -%}
        {{- return(result) -}}
    {%- endif -%}
    {%- do result.update({'active': true, 'taken': taken}) -%}
    {{- return(result) -}}
{%- endmacro %}
