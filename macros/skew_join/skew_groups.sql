{#- Explicit skew groups (HIVE-3286): ordered groups, each with a `when` over
    the join keys of one side (its driver), a number of slots and a way to
    distribute its rows over them.

    Layout, as in the seed's 20-slot example: the rows in no group take the
    first slots (#0..#r-1), then each group in order takes a contiguous range.
    A driver-side row of a group gets one slot of the range; the other side's
    rows of the group are multicast to every slot of the range (random or
    expression distribution) or routed by a hash of the keys (keys
    distribution, nothing multicast). The join then matches on the keys and
    the slot, so each pair of rows with equal keys meets in exactly one slot.
-#}

{% macro _sj_group_example() -%}
    {{- return("groups=[{'when': \"a.customer_id = 0\", 'percent': 40, 'distribute': 'random'}]") -}}
{%- endmacro %}


{#- Total slots: the spec, then var('skewjoin_total_slots'), then the
    session's spark.sql.shuffle.partitions. Returns [n, where it came from]. -#}
{% macro _sj_total_slots(spec) -%}
    {%- if spec.get('total_slots') is not none -%}
        {%- set n = spec.get('total_slots') -%}
        {%- set source = 'skew_join.total_slots' -%}
    {%- elif var('skewjoin_total_slots', none) is not none -%}
        {%- set n = var('skewjoin_total_slots') -%}
        {%- set source = "var('skewjoin_total_slots')" -%}
    {%- else -%}
        {%- set n = skewjoin._sj_spark_conf('spark.sql.shuffle.partitions', '200') -%}
        {%- set source = 'spark.sql.shuffle.partitions' -%}
    {%- endif -%}
    {%- if n is boolean or not modules.re.fullmatch('[0-9]+', n | string) or (n | int) < 2 -%}
        {%- do skewjoin._sj_raise('skew_join', 'total_slots', 'total_slots (from ' ~ source ~ ') must be a whole number of at least 2; got ' ~ (n | string), "skew_join={'total_slots': 200, 'groups': [...]}") -%}
    {%- endif -%}
    {{- return([n | int, source]) -}}
{%- endmacro %}


{#- Validate one group's `when` and find its driver side. -#}
{% macro _sj_group_driver(join, when, position) -%}
    {%- set arg = 'skew_join.groups[' ~ position ~ '].when' -%}
    {%- set la = join.left.alias | lower -%}
    {%- set ra = join.right.alias | lower -%}
    {%- set example = "{'when': \"" ~ join.left.alias ~ "." ~ join['keys'][0].left ~ " = 0\", 'slots': 4}" -%}
    {%- do skewjoin._sj_check_fragment('skew_join', arg, when, example) -%}
    {%- set refs = skewjoin._sj_expr_refs(when) -%}
    {%- set aliases = [] -%}
    {%- for ref in refs -%}
        {%- if ref.alias | lower not in (la, ra) -%}
            {%- do skewjoin._sj_raise('skew_join', arg, "'" ~ when ~ "' uses the unknown alias '" ~ ref.alias ~ "'; the sides are " ~ join.left.alias ~ ' and ' ~ join.right.alias, example) -%}
        {%- endif -%}
        {%- if ref.alias | lower not in aliases -%}{%- do aliases.append(ref.alias | lower) -%}{%- endif -%}
    {%- endfor -%}
    {%- set bare = skewjoin._sj_bare_column_refs(when, join.left.columns + join.right.columns) -%}
    {%- if bare -%}
        {%- do skewjoin._sj_raise('skew_join', arg, "'" ~ when ~ "' uses the column " ~ bare[0] ~ ' without an alias; write it as ' ~ join.left.alias ~ '.' ~ bare[0] ~ ' or ' ~ join.right.alias ~ '.' ~ bare[0], example) -%}
    {%- endif -%}
    {%- if aliases | length == 0 -%}
        {%- do skewjoin._sj_raise('skew_join', arg, "'" ~ when ~ "' references no side; a group's `when` must be a condition on the join keys of exactly one side (that side drives the group)", example) -%}
    {%- endif -%}
    {%- if aliases | length > 1 -%}
        {%- do skewjoin._sj_raise('skew_join', arg, "'" ~ when ~ "' references both sides; a group's `when` must use the join keys of exactly one side (that side drives the group), e.g. only " ~ join.left.alias ~ '.' ~ join['keys'][0].left, example) -%}
    {%- endif -%}
    {%- set side = 'left' if aliases[0] == la else 'right' -%}
    {%- set key_names = join[side].key_names | map('lower') | list -%}
    {%- for ref in refs -%}
        {%- if ref.column | lower not in key_names -%}
            {%- do skewjoin._sj_raise('skew_join', arg, "'" ~ when ~ "' uses " ~ ref.alias ~ '.' ~ ref.column ~ ', which is not a join key; a `when` may only use the join keys (' ~ (join[side].key_names | join(', ')) ~ ') because the other side is assigned to groups by the same condition on its own keys', example) -%}
        {%- endif -%}
    {%- endfor -%}
    {{- return(side) -}}
{%- endmacro %}


{#- `when` evaluated on `side`'s rows (under alias `alias`), on the keys cast
    to their common type: references to the driver's keys become the
    corresponding keys of `side`. -#}
{% macro _sj_when_on_side(join, when, driver, side, alias) -%}
    {%- set mapping = {} -%}
    {%- set driver_alias = join[driver].alias | lower -%}
    {%- for k in join['keys'] -%}
        {%- set driver_col = (k.left if driver == 'left' else k.right) | lower -%}
        {%- set expr = alias ~ '.' ~ (k.left_ident if side == 'left' else k.right_ident) -%}
        {%- do mapping.update({driver_alias ~ '.' ~ driver_col: '(' ~ skewjoin._sj_cast(expr, k.left_type if side == 'left' else k.right_type, k.type) ~ ')'}) -%}
    {%- endfor -%}
    {{- return(skewjoin._sj_rewrite_refs(when, mapping)) -}}
{%- endmacro %}


{#- The groups' plan: validated, sized and laid out. -#}
{% macro _sj_plan_groups(join, groups, total_slots) -%}
    {%- if groups is string or groups is mapping or groups is not iterable -%}
        {%- do skewjoin._sj_raise('skew_join', 'skew_join.groups', 'expected a list of groups; got ' ~ (groups | string), skewjoin._sj_group_example()) -%}
    {%- endif -%}
    {%- set plan = [] -%}
    {%- set totals = namespace(slots=0, percent=0) -%}
    {%- for g in groups -%}
        {%- set pos = loop.index0 -%}
        {%- set arg = 'skew_join.groups[' ~ pos ~ ']' -%}
        {%- if g is not mapping -%}
            {%- do skewjoin._sj_raise('skew_join', arg, 'each group must be a mapping with when, slots or percent, and distribute; got ' ~ (g | string), skewjoin._sj_group_example()) -%}
        {%- endif -%}
        {%- for key in g -%}
            {%- if key not in ('when', 'slots', 'percent', 'distribute', 'name') -%}
                {%- do skewjoin._sj_raise('skew_join', arg, "unknown key '" ~ key ~ "'; a group has when, slots or percent, distribute and an optional name", skewjoin._sj_group_example()) -%}
            {%- endif -%}
        {%- endfor -%}
        {%- if g.get('when') is none -%}
            {%- do skewjoin._sj_raise('skew_join', arg ~ '.when', 'every group needs a `when`: a condition on the join keys of one side', skewjoin._sj_group_example()) -%}
        {%- endif -%}
        {%- set driver = skewjoin._sj_group_driver(join, g.get('when'), pos) -%}
        {#- size -#}
        {%- if g.get('slots') is not none and g.get('percent') is not none -%}
            {%- do skewjoin._sj_raise('skew_join', arg, 'give either slots or percent, not both', "{'when': ..., 'slots': 4}") -%}
        {%- elif g.get('slots') is not none -%}
            {%- set s = g.get('slots') -%}
            {%- if s is boolean or not modules.re.fullmatch('[0-9]+', s | string) or (s | int) < 1 -%}
                {%- do skewjoin._sj_raise('skew_join', arg ~ '.slots', 'a group needs at least one slot (a whole number >= 1); got ' ~ (s | string), "{'when': ..., 'slots': 4}") -%}
            {%- endif -%}
            {%- set n = s | int -%}
            {%- set size_text = n ~ ' slots' -%}
        {%- elif g.get('percent') is not none -%}
            {%- set p = g.get('percent') -%}
            {%- if p is boolean or not modules.re.fullmatch('[0-9]+([.][0-9]+)?', p | string) or (p | float) <= 0 or (p | float) > 100 -%}
                {%- do skewjoin._sj_raise('skew_join', arg ~ '.percent', 'percent must be a number above 0 and at most 100; got ' ~ (p | string), "{'when': ..., 'percent': 20}") -%}
            {%- endif -%}
            {%- set totals.percent = totals.percent + (p | float) -%}
            {%- set n = [((p | float) * total_slots / 100 + 0.5) | int, 1] | max -%}
            {%- set size_text = (p | string) ~ '% of ' ~ total_slots ~ ' = ' ~ n ~ ' slots' -%}
        {%- else -%}
            {%- do skewjoin._sj_raise('skew_join', arg, 'a group needs a size: slots: n or percent: p (of total_slots)', "{'when': ..., 'percent': 20}") -%}
        {%- endif -%}
        {%- set totals.slots = totals.slots + n -%}
        {#- distribution -#}
        {%- set dist = g.get('distribute', 'random') -%}
        {%- if dist is not string -%}
            {%- do skewjoin._sj_raise('skew_join', arg ~ '.distribute', 'distribute must be random, keys or an expression on the driver side; got ' ~ (dist | string), "{'when': ..., 'slots': 4, 'distribute': 'keys'}") -%}
        {%- endif -%}
        {%- set dist_kind = dist | lower | trim if (dist | lower | trim) in ('random', 'keys') else 'expression' -%}
        {%- if dist_kind == 'expression' -%}
            {%- set dist_arg = arg ~ '.distribute' -%}
            {%- set dist_example = "{'when': ..., 'slots': 4, 'distribute': 'upper(" ~ join[driver].alias ~ "." ~ join[driver].key_names[0] ~ ")'}" -%}
            {%- do skewjoin._sj_check_fragment('skew_join', dist_arg, dist, dist_example) -%}
            {%- set refs = skewjoin._sj_expr_refs(dist) -%}
            {%- if refs | length == 0 -%}
                {%- do skewjoin._sj_raise('skew_join', dist_arg, "'" ~ dist ~ "' references no column of the driver side " ~ join[driver].alias ~ '; a constant would put every row of the group in one slot (use random, keys or an expression on ' ~ join[driver].alias ~ ')', dist_example) -%}
            {%- endif -%}
            {%- for ref in refs -%}
                {%- if ref.alias | lower != join[driver].alias | lower -%}
                    {%- do skewjoin._sj_raise('skew_join', dist_arg, "'" ~ dist ~ "' uses " ~ ref.alias ~ '; a DISTRIBUTE expression must use the same side as its group\'s `when` (' ~ join[driver].alias ~ ')', dist_example) -%}
                {%- elif skewjoin._sj_find_column(join[driver].columns, ref.column) is none -%}
                    {%- do skewjoin._sj_raise('skew_join', dist_arg, "'" ~ dist ~ "': " ~ ref.alias ~ " has no column '" ~ ref.column ~ "'", dist_example) -%}
                {%- endif -%}
            {%- endfor -%}
            {%- set bare = skewjoin._sj_bare_column_refs(dist, join[driver].columns) -%}
            {%- if bare -%}
                {%- do skewjoin._sj_raise('skew_join', dist_arg, "'" ~ dist ~ "' uses the column " ~ bare[0] ~ ' without an alias', dist_example) -%}
            {%- endif -%}
        {%- endif -%}
        {%- do plan.append({
            'index': pos + 1, 'name': g.get('name') or ('group_' ~ (pos + 1)), 'when': g.get('when'),
            'driver': driver, 'other': 'right' if driver == 'left' else 'left',
            'slots': n, 'size_text': size_text, 'distribute': dist_kind, 'expression': dist if dist_kind == 'expression' else none
        }) -%}
    {%- endfor -%}
    {%- if totals.percent > 100 -%}
        {%- do skewjoin._sj_raise('skew_join', 'skew_join.groups', 'the groups\' percentages add up to ' ~ totals.percent ~ '%, over 100%', "three groups of 10, 20 and 40 percent leave 30% for the other rows") -%}
    {%- endif -%}
    {%- if totals.slots >= total_slots -%}
        {%- do skewjoin._sj_raise('skew_join', 'skew_join.groups', 'the groups take ' ~ totals.slots ~ ' of the ' ~ total_slots ~ ' slots; at least one slot must stay for the rows in no group', "lower the groups' sizes or raise total_slots, e.g. skew_join={'total_slots': 400, ...}") -%}
    {%- endif -%}
    {#- contiguous ranges: the rest first, then each group in order -#}
    {%- set cursor = namespace(at=total_slots - totals.slots) -%}
    {%- for g in plan -%}
        {%- do g.update({'start': cursor.at, 'end': cursor.at + g.slots - 1}) -%}
        {%- set cursor.at = cursor.at + g.slots -%}
    {%- endfor -%}
    {{- return({'groups': plan, 'total_slots': total_slots, 'rest_slots': total_slots - totals.slots}) -}}
{%- endmacro %}


{#- Outer joins: only the preserved side may be split, only the
    null-supplying side multicast. A group multicasts its non-driver side when
    it distributes randomly or by an expression over more than one slot. -#}
{% macro _sj_check_group_legality(join, plan) -%}
    {%- set preserved = {'inner': [], 'left': ['left'], 'left semi': ['left'], 'left anti': ['left'],
                         'right': ['right'], 'full': ['left', 'right']}[join.join_type] -%}
    {%- for g in plan.groups -%}
        {%- if g.distribute != 'keys' and g.slots > 1 and g.other in preserved -%}
            {%- set other_alias = join[g.other].alias -%}
            {%- set driver_alias = join[g.driver].alias -%}
            {%- if join.join_type == 'full' -%}
                {%- set way_out = "use distribute: 'keys' (nothing is multicast) or slots: 1" -%}
            {%- else -%}
                {%- set way_out = 'write the group\'s `when` on ' ~ other_alias ~ '\'s keys so ' ~ other_alias ~ " drives it, use distribute: 'keys', or give it slots: 1" -%}
            {%- endif -%}
            {%- do skewjoin._sj_raise('skew_join', 'skew_join.groups[' ~ (g.index - 1) ~ ']',
                'group ' ~ g.index ~ " ('" ~ g.when ~ "') is driven by " ~ driver_alias ~ ' and distributes ' ~ g.distribute ~ ' over ' ~ g.slots ~ ' slots, so it multicasts rows of ' ~ other_alias ~ '. A ' ~ join.join_type ~ ' join preserves every row of ' ~ other_alias ~ ', and the multicast copies of an unmatched row would each appear in the result (rule: split only the preserved side, multicast only the null-supplying side). Way out: ' ~ way_out,
                "{'when': \"" ~ other_alias ~ "." ~ join[g.other].key_names[0] ~ " = 0\", 'slots': " ~ g.slots ~ "}") -%}
        {%- endif -%}
    {%- endfor -%}
{%- endmacro %}


{#- CTEs that give every row of one side its group and slot, in one pass over
    the side: `<alias>_grouped` finds each row's group (the first true
    `when`), `<alias>_slotted` gives it its slot with one arm per group. Spark
    inlines CTEs, so a CTE per group would read the side once per group; one
    projection (and, where this side is multicast, one explode) reads it once.
    Returns {'ctes': [[name, sql], ...], 'final': name_of_last_cte}. -#}
{% macro _sj_slotted_side_ctes(join, plan, side, input_cte) -%}
    {%- set alias = join[side].alias -%}
    {%- set keys_hash = 'xxhash64(' ~ (skewjoin._sj_common_keys(join, side, alias) | join(', ')) ~ ')' -%}
    {#- every row's group: the first true `when` -#}
    {%- set whens = [] -%}
    {%- for g in plan.groups -%}
        {%- do whens.append('when ' ~ skewjoin._sj_when_on_side(join, g.when, g.driver, side, alias) ~ ' then ' ~ g.index) -%}
    {%- endfor -%}
    {%- set grouped_sql -%}
select
    {{ alias }}.*,
    case
        {{ whens | join('\n        ') }}
        else 0
    end as sj_group
from {{ input_cte }} as {{ alias }}
    {%- endset -%}
    {#- every row's slot (or, multicast, its slots): one arm per group -#}
    {%- set arms = [] -%}
    {%- set multicast = namespace(any=false) -%}
    {%- for g in plan.groups -%}
        {%- if g.slots == 1 -%}
            {%- set slot_expr = g.start | string -%}
            {%- set role = 'one slot' -%}
        {%- elif g.distribute == 'keys' -%}
            {%- set slot_expr = g.start ~ ' + pmod(' ~ keys_hash ~ ', ' ~ g.slots ~ ')' -%}
            {%- set role = 'by a hash of the keys' -%}
        {%- elif g.driver == side and g.distribute == 'random' -%}
            {%- set slot_expr = g.start ~ ' + pmod(' ~ skewjoin._sj_row_hash(join[side].columns, alias) ~ ', ' ~ g.slots ~ ')' -%}
            {%- set role = 'spread by a hash of the row' -%}
        {%- elif g.driver == side -%}
            {%- set slot_expr = g.start ~ ' + pmod(xxhash64(' ~ g.expression ~ '), ' ~ g.slots ~ ')' -%}
            {%- set role = 'spread by the distribute expression' -%}
        {%- else -%}
            {%- set slot_expr = none -%}
            {%- set role = 'multicast to every slot' -%}
            {%- set multicast.any = true -%}
        {%- endif -%}
        {%- do arms.append({'index': g.index, 'expr': slot_expr, 'start': g.start, 'end': g.end, 'role': role}) -%}
    {%- endfor -%}
    {%- set rest_expr = 'pmod(' ~ keys_hash ~ ', ' ~ plan.rest_slots ~ ')' -%}
    {%- set lines = [] -%}
    {%- for a in arms -%}
        {%- if multicast.any -%}
            {%- set value = ('sequence(' ~ a.start ~ ', ' ~ a['end'] ~ ')') if a.expr is none else ('array(' ~ a.expr ~ ')') -%}
        {%- else -%}
            {%- set value = a.expr -%}
        {%- endif -%}
        {%- do lines.append('-- group ' ~ a.index ~ ': slots #' ~ a.start ~ '-#' ~ a['end'] ~ ', ' ~ a.role) -%}
        {%- do lines.append('when ' ~ a.index ~ ' then ' ~ value) -%}
    {%- endfor -%}
    {%- do lines.append('-- rows in no group: slots #0-#' ~ (plan.rest_slots - 1) ~ ' by a hash of the keys') -%}
    {%- do lines.append('else ' ~ (('array(' ~ rest_expr ~ ')') if multicast.any else rest_expr)) -%}
    {%- set slot_case = 'case ' ~ alias ~ '.sj_group\n' ~ skewjoin._sj_indent(lines | join('\n'), 4) ~ '\nend' -%}
    {%- set slot_value = ('explode(' ~ slot_case ~ ')') if multicast.any else slot_case -%}
    {%- set slotted_sql -%}
select
    {{ alias }}.*,
    {{ skewjoin._sj_indent(slot_value, 4)[4:] }} as sj_slot
from {{ alias }}_grouped as {{ alias }}
    {%- endset -%}
    {%- set ctes = [[alias ~ '_grouped', grouped_sql], [alias ~ '_slotted', slotted_sql]] -%}
    {{- return({'ctes': ctes, 'final': alias ~ '_slotted'}) -}}
{%- endmacro %}


{#- Decision-record lines for a groups plan. -#}
{% macro _sj_group_record_lines(join, plan, slots_source) -%}
    {%- set lines = ['skew groups: ' ~ plan.groups | length ~ ', total slots ' ~ plan.total_slots ~ ' (from ' ~ slots_source ~ '); rows in no group: slots #0-#' ~ (plan.rest_slots - 1) ~ ' by key hash'] -%}
    {%- for g in plan.groups -%}
        {%- set other_alias = join[g.other].alias -%}
        {%- if g.slots == 1 -%}
            {%- set how = 'one slot, nothing multicast' -%}
        {%- elif g.distribute == 'keys' -%}
            {%- set how = 'both sides routed by a hash of the keys, nothing multicast' -%}
        {%- elif g.distribute == 'random' -%}
            {%- set how = join[g.driver].alias ~ ' rows spread by a hash of the whole row; ' ~ other_alias ~ ' rows of the group multicast x' ~ g.slots -%}
        {%- else -%}
            {%- set how = join[g.driver].alias ~ ' rows spread by xxhash64(' ~ g.expression ~ '); ' ~ other_alias ~ ' rows of the group multicast x' ~ g.slots -%}
        {%- endif -%}
        {%- do lines.append('group ' ~ g.index ~ ' ' ~ g.name ~ ": when '" ~ g.when ~ "', driver " ~ join[g.driver].alias ~ ', ' ~ g.size_text ~ ' -> slots #' ~ g.start ~ '-#' ~ g.end ~ ', distribute ' ~ g.distribute ~ ': ' ~ how) -%}
    {%- endfor -%}
    {{- return(lines) -}}
{%- endmacro %}
