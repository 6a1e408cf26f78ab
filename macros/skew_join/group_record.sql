{#- The decision record of a groups plan. -#}


{#- The record of the groups' layout (`_sj_plan_groups`): the layout, the
    placement, and the groups the hot keys leave empty; warns (in the log)
    of a group that spreads nothing. -#}
{% macro _sj_groups_record(join, layout, slots_source, hot) -%}
    {%- set lines = skewjoin._sj_group_record_lines(join, layout, slots_source)
        + skewjoin._sj_placement_record(layout.placement) -%}
    {%- if hot.active -%}
        {%- set lines = lines + skewjoin._sj_groups_left_empty(join, layout, hot) -%}
    {%- endif -%}
    {{- return(lines) -}}
{%- endmacro %}


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


{#- The record of the groups' verification (`_sj_judge_groups`). -#}
{% macro _sj_verify_groups_record(join, verified) -%}
    {%- set labels = [] -%}
    {%- for r in verified.results -%}
        {%- do labels.append(['group ' ~ r.group.index ~ ' ' ~ r.group.name, join[r.group.driver].alias]) -%}
    {%- endfor -%}
    {{- return(skewjoin._sj_verdict_lines(verified, labels, 'this group was',
        'its slots would cost a slot per row and a (keys, slot) sort', 'groups')) -}}
{%- endmacro %}


{#- The record of a verification: why it was skipped, or a line for each
    result (`labels`: [what it is, the alias of the side counted]) that it
    kept or dropped. `declared_for`, `cost` and `what` say what a dropped one
    would have cost. -#}
{% macro _sj_verdict_lines(verified, labels, declared_for, cost, what) -%}
    {%- if verified.skipped is not none -%}
        {{- return([verified.skipped]) -}}
    {%- endif -%}
    {%- set lines = [] -%}
    {%- for r in verified.results -%}
        {%- set label, alias = labels[loop.index0] -%}
        {%- set share_text = skewjoin._sj_share_text(r.rows, r.total, alias) -%}
        {%- if r.kept -%}
            {%- do lines.append(label ~ ' verified: ' ~ share_text ~ ' >= ' ~ verified.rule.text ~ ': kept') -%}
        {%- else -%}
            {%- set line -%}
{{ label }} dropped: {{ share_text }}, under {{ verified.rule.text }}: the data does not have the skew
{{ declared_for }} declared for, and {{ cost }} without splitting a straggler. Set verify: false to plan declared
{{ what }} as written
            {%- endset -%}
            {%- do lines.append(line | replace('\n', ' ')) -%}
        {%- endif -%}
    {%- endfor -%}
    {{- return(lines) -}}
{%- endmacro %}


{#- The record lines of the placement (`_sj_place_slots`). -#}
{% macro _sj_placement_record(placed) -%}
    {%- if placed.skipped is not none -%}
        {{- return(['slot placement skipped: ' ~ placed.skipped]) -}}
    {%- endif -%}
    {%- set lines = [] -%}
    {%- set p = placed.partitions -%}
    {%- for key in placed['keys'] -%}
        {%- set w = key.wanted -%}
        {%- if not key.placed -%}
            {%- set line -%}
group {{ w.group }}: key {{ w.shown }} keeps slots {{ w.range }}: its {{ w.slots }} slots outnumber
the {{ key.reachable }} shuffle partitions it can reach ({{ p }}, {{ placed.source }})
            {%- endset -%}
        {%- else -%}
            {%- set line -%}
group {{ w.group }}: key {{ w.shown }}'s {{ w.slots }} slots placed on {{ w.slots }} distinct shuffle partitions of
{{ p }} ({{ placed.source }}), slot values chosen by Spark's partition hash
{{- '; ' ~ key.sharing ~ ' of them shared with earlier keys (more slots than partitions)' if key.sharing > 0 else '' }}
            {%- endset -%}
        {%- endif -%}
        {%- do lines.append(line | replace('\n', ' ')) -%}
    {%- endfor -%}
    {{- return(lines) -}}
{%- endmacro %}
