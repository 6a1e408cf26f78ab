{#- The decision record of a groups plan. -#}


{#- Decision-record lines for a groups plan: each group's range, how its
    rows are routed, and the copies it makes of the other side's rows. -#}
{% macro _sj_group_record_lines(join, plan, slots_source) -%}
    {%- set lines = [] -%}
    {%- set header -%}
skew groups: {{ plan.groups | length }}, total slots {{ plan.total_slots }} (from {{ slots_source }});
rows in no group: slots #0-#{{ plan.rest_slots - 1 }} by key hash
    {%- endset -%}
    {%- do lines.append(header | replace('\n', ' ')) -%}
    {%- for g in plan.groups -%}
        {%- set other_alias = join[g.other].alias -%}
        {%- set driver_alias = join[g.driver].alias -%}
        {%- if g.slots == 1 -%}
            {%- set how = 'one slot, nothing multicast' -%}
        {%- elif g.distribute == 'keys' -%}
            {%- set how = 'both sides routed by a hash of the keys, nothing multicast' -%}
            {%- set selected = skewjoin._sj_when_key_values(join, g) -%}
            {%- if selected is not none and selected | length == 1 -%}
                {%- set warning -%}
WARNING group {{ g.index }} {{ g.name }} distributes by keys but its `when` selects one key ({{ selected[0] }}): all
its rows go to one of its {{ g.slots }} slots, so the key is not spread. To spread one heavy key, declare it in
hot_keys (joined by broadcast where its rows are read; legal for every join type)
                {%- endset -%}
                {%- set how = how ~ '; ' ~ (warning | replace('\n', ' ')) -%}
                {%- do skewjoin._sj_warn(join.macro, warning | replace('\n', ' ')) -%}
            {%- endif -%}
        {%- else -%}
            {%- set spread = 'a hash of the whole row and its input split' if g.distribute == 'random'
                else 'xxhash64(' ~ g.expression ~ ')' -%}
            {%- set how -%}
{{ driver_alias }} rows spread by {{ spread }}; {{ other_alias }} rows of the group multicast x{{ g.slots }}
(each of them is read once and copied to {{ g.slots }} slots: {{ g.slots - 1 }} extra rows per row)
            {%- endset -%}
        {%- endif -%}
        {%- set line -%}
group {{ g.index }} {{ g.name }}: when '{{ g.when }}', driver {{ driver_alias }}, {{ g.size_text }} -> slots
#{{ g.start }}-#{{ g.end }}, distribute {{ g.distribute }}: {{ how }}
        {%- endset -%}
        {%- do lines.append(line | replace('\n', ' ')) -%}
    {%- endfor -%}
    {{- return(lines) -}}
{%- endmacro %}


{#- The key values a group's `when` selects, when it reads `x.k = v` or
    `x.k in (v, ...)` on a one-column key (values as written, quotes off);
    none when the `when` is anything else. -#}
{% macro _sj_when_key_values(join, g) -%}
    {%- if join['keys'] | length != 1 -%}
        {{- return(none) -}}
    {%- endif -%}
    {%- set value_pattern = "(-?[0-9]+(?:[.][0-9]+)?|'[^'\\\\]*')" -%}
    {%- set key_ref = join[g.driver].alias ~ '\\s*[.]\\s*`?' ~ join[g.driver].key_names[0] ~ '`?' -%}
    {%- set eq = modules.re.fullmatch('\\s*' ~ key_ref ~ '\\s*=\\s*' ~ value_pattern ~ '\\s*', g.when,
                                      flags=modules.re.I) -%}
    {%- set inn = modules.re.fullmatch('\\s*' ~ key_ref ~ '\\s+in\\s*\\(([^)]*)\\)\\s*', g.when,
                                       flags=modules.re.I) -%}
    {%- set values = [] -%}
    {%- if eq is not none -%}
        {%- do values.append(eq.group(1)) -%}
    {%- elif inn is not none -%}
        {%- set items = inn.group(1).split(',') -%}
        {%- for v in items if modules.re.fullmatch('\\s*' ~ value_pattern ~ '\\s*', v) is not none -%}
            {%- do values.append(v | trim) -%}
        {%- endfor -%}
        {%- if values | length != items | length -%}
            {{- return(none) -}}
        {%- endif -%}
    {%- else -%}
        {{- return(none) -}}
    {%- endif -%}
    {%- set out = [] -%}
    {%- for v in values -%}{%- do out.append(v[1:-1] if v.startswith("'") else v) -%}{%- endfor -%}
    {{- return(out) -}}
{%- endmacro %}


{#- Groups the hot keys leave empty. Hot keys go to the broadcast branch
    before the groups are formed, so a group whose `when` selects only hot
    keys (`a.k = 0`, `a.k in (0, 1)` with those keys hot) receives no row and
    its slots stay idle; one that selects some hot keys loses their rows.
    Says so in the record and warns in the log. -#}
{% macro _sj_groups_left_empty(join, plan, hot) -%}
    {%- set lines = [] -%}
    {%- for g in plan.groups -%}
        {%- set k = join['keys'][0] -%}
        {%- set values = skewjoin._sj_when_key_values(join, g) or [] -%}
        {%- set hot_values = [] -%}
        {%- set cold_values = [] -%}
        {%- for raw in values -%}
            {%- set lit = skewjoin._sj_literal(raw, k.type) -%}
            {%- if lit is not none and [lit] in hot.taken -%}
                {%- do hot_values.append(raw) -%}
            {%- else -%}
                {%- do cold_values.append(raw) -%}
            {%- endif -%}
        {%- endfor -%}
        {%- if hot_values and not cold_values -%}
            {%- set line -%}
WARNING group {{ g.index }} {{ g.name }} can receive no rows: every key its `when` selects
({{ hot_values | join(', ') }}) is a hot key, and hot keys are joined by the broadcast branch before the groups are
formed; its {{ g.slots }} slots
(#{{ g.start }}-#{{ g.end }}) stay idle. Drop the group, or drop these keys from hot_keys
            {%- endset -%}
            {%- do lines.append(line | replace('\n', ' ')) -%}
            {%- do skewjoin._sj_warn(join.macro, line | replace('\n', ' ')) -%}
        {%- elif hot_values -%}
            {%- do lines.append('group ' ~ g.index ~ ' ' ~ g.name ~ ': its keys ' ~ (hot_values | join(', '))
                ~ ' are hot keys, so their rows go to the broadcast branch, not to the group') -%}
        {%- endif -%}
    {%- endfor -%}
    {{- return(lines) -}}
{%- endmacro %}
