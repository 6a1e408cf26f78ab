{#- The hot keys: their measure and their plan (hot_spec.sql has
    the rules they are declared by; hot_record.sql says what they are). -#}


{#- The measure of the hot keys, per side: 'auto' finds them with one
    aggregate query (not where the skew plans are declined or run-time
    queries are off); declared ones are counted to verify them (verify.sql).
    A skew_join whose whole specification is hot keys 'auto' (no group, no
    declared key) is first checked for AQE's own regime (aqe_regime.sql), as
    skew_join 'auto' is: there AQE balances the join itself and nothing is
    detected.
    Returns {side: {'skipped': 'declined', 'off' or 'aqe', 'reason'} or
    {'detected': `_sj_detect_hot_keys`} or {'verified': `_sj_count_hot_keys`}},
    and 'regime' (`_sj_aqe_regime`, where read). -#}
{% macro _sj_measure_hot_keys(j, skew, guard) -%}
    {%- set facts = {'regime': none} -%}
    {%- set auto_only = skew.hot.sides and not skew.groups and skew.hot.sides.values() | reject('equalto', 'auto')
        | list | length == 0 -%}
    {%- if auto_only and not guard.declined and skewjoin._sj_queries_allowed() -%}
        {%- do facts.update({'regime': skewjoin._sj_aqe_regime(j, skewjoin._sj_aqe_regime_facts(j),
            "hot keys 'auto'")}) -%}
    {%- endif -%}
    {%- for side in ['left', 'right'] if side in skew.hot.sides -%}
        {%- set declared = skew.hot.sides[side] -%}
        {%- if declared == 'auto' and guard.declined -%}
            {%- do facts.update({side: {'skipped': 'declined'}}) -%}
        {%- elif declared == 'auto' and not skewjoin._sj_queries_allowed() -%}
            {%- do facts.update({side: {'skipped': 'off', 'reason': skewjoin._sj_queries_off_reason()}}) -%}
        {%- elif declared == 'auto' and facts.regime is not none and facts.regime.hand_back -%}
            {%- do facts.update({side: {'skipped': 'aqe'}}) -%}
        {%- elif declared == 'auto' -%}
            {%- do facts.update({side: {'detected': skewjoin._sj_detect_hot_keys(j, side, skew.hot.options)}}) -%}
        {%- else -%}
            {%- set lits = skewjoin._sj_hot_literals(j, side, declared) -%}
            {%- if lits.tuples and skew.get('verify') is not none and not guard.declined -%}
                {%- do facts.update({side: {'verified': skewjoin._sj_count_hot_keys(j, side, lits, skew)}}) -%}
            {%- endif -%}
        {%- endif -%}
    {%- endfor -%}
    {{- return(facts) -}}
{%- endmacro %}


{#- The hot-keys plan (pure, from `facts`, the measure): which values are
    hot on which side, and why. Returns {'requested', 'active', 'left' and
    'right' ({'tuples', 'shown'} or none), 'null_left', 'null_right',
    'taken' (every hot tuple), 'splits_<side>' (input splits, where
    counted), 'dropped', 'options', 'skew', 'parallelism', 'regime' (the
    AQE regime's verdict, where read), 'sides': [what each side's record
    says: {'side', 'how' ('declined', 'off', 'aqe', 'detected' or
    'declared'), ...}]}. -#}
{% macro _sj_plan_hot_keys(j, skew, guard, facts) -%}
    {%- set hot_spec = skew.hot -%}
    {%- set result = {'active': false, 'requested': hot_spec.requested, 'left': none, 'right': none,
                      'null_left': false, 'null_right': false, 'skew': skew, 'options': hot_spec.options,
                      'parallelism': guard.parallelism, 'sides': [], 'taken': [], 'regime': facts.get('regime'),
                      'fold_budget': hot_spec.get('fold_budget')} -%}
    {%- for side in ['left', 'right'] if side in hot_spec.sides -%}
        {%- set declared = hot_spec.sides[side] -%}
        {%- set f = facts.get(side) or {} -%}
        {%- set entry = {'side': side, 'both': []} -%}
        {%- if f.get('skipped') is not none -%}
            {%- do entry.update({'how': f.skipped, 'reason': f.get('reason')}) -%}
            {%- set lits = {'tuples': [], 'shown': [], 'null': false} -%}
        {%- elif declared == 'auto' -%}
            {%- set found = skewjoin._sj_detected_hot_keys(j, f.detected, hot_spec.options) -%}
            {%- do entry.update({'how': 'detected', 'detected': f.detected, 'found': found.found}) -%}
            {%- set lits = skewjoin._sj_hot_literals(j, side, found['values'], true) -%}
            {%- do result.update({'splits_' ~ side: f.detected.splits}) -%}
            {#- each key's counted rows: what a fold would broadcast -#}
            {%- do entry.update({'counted': skewjoin._sj_hot_counted(j, side, f.detected.rows)}) -%}
        {%- else -%}
            {%- set lits = skewjoin._sj_hot_literals(j, side, declared) -%}
            {%- do entry.update({'how': 'declared', 'origin': hot_spec.get('origin') or 'declared', 'verify': none}) -%}
            {#- each key's counted rows, where known: 'auto''s plan's counts, or the verification's -#}
            {%- if (hot_spec.get('counted') or {}).get(side) is not none -%}
                {%- do entry.update({'counted': hot_spec.counted[side]}) -%}
            {%- elif f.get('verified') is not none and f.verified.get('counts') is not none -%}
                {%- set counted = {} -%}
                {%- for t in lits.tuples -%}
                    {%- do counted.update({tojson(t): f.verified.counts[loop.index0] | int}) -%}
                {%- endfor -%}
                {%- do entry.update({'counted': counted}) -%}
            {%- endif -%}
            {%- if f.get('verified') is not none -%}
                {%- set verified = skewjoin._sj_judge_hot_keys(lits, skew.verify, f.verified) -%}
                {%- do entry.update({'verify': verified}) -%}
                {%- if verified.splits is not none -%}
                    {%- do result.update({'splits_' ~ side: verified.splits}) -%}
                {%- endif -%}
                {%- do result.update({'dropped': (result.get('dropped') or 0) + verified.dropped}) -%}
                {%- set lits = verified.lits -%}
            {%- endif -%}
            {%- do entry.update({'lits': lits}) -%}
        {%- endif -%}
        {%- set own = [] -%}
        {%- set own_shown = [] -%}
        {%- for t in lits.tuples -%}
            {%- if t in result.taken -%}
                {%- do entry.both.append(lits.shown[loop.index0]) -%}
            {%- else -%}
                {%- do own.append(t) -%}
                {%- do own_shown.append(lits.shown[loop.index0]) -%}
                {%- do result.taken.append(t) -%}
            {%- endif -%}
        {%- endfor -%}
        {%- if own -%}
            {%- do result.update({side: {'tuples': own, 'shown': own_shown}}) -%}
        {%- endif -%}
        {%- if lits.null -%}
            {%- do result.update({'null_' ~ side: true}) -%}
        {%- endif -%}
        {%- do result.sides.append(entry) -%}
    {%- endfor -%}
    {%- if j.macro == 'skew_join' -%}
        {%- do skewjoin._sj_hot_fold(j, result) -%}
    {%- endif -%}
    {#- 'auto''s hot keys: the input splits its counts read -#}
    {%- for side in (skew.get('splits') or {}) -%}
        {%- do result.update({'splits_' ~ side: skew.splits[side]}) -%}
    {%- endfor -%}
    {%- do result.update({'active': result.left is not none or result.right is not none or result.null_left
                                    or result.null_right}) -%}
    {{- return(result) -}}
{%- endmacro %}


{#- The counted rows of a side's keys by the literals the plan writes them
    with: {tojson(literal tuple): rows}, from `pairs` ([[values, rows]]). -#}
{% macro _sj_hot_counted(j, side, pairs) -%}
    {%- set out = {} -%}
    {%- for pair in pairs -%}
        {%- for t in skewjoin._sj_hot_literals(j, side, [pair[0]], true).tuples -%}
            {%- do out.update({tojson(t): pair[1] | int}) -%}
        {%- endfor -%}
    {%- endfor -%}
    {{- return(out) -}}
{%- endmacro %}


{#- Hot keys of both sides in one branch (pure): where each side has hot keys
    of its own and one side's were counted ('auto'), with its rows of them
    within hot_keys_options.max_broadcast_rows, that side's keys join the
    other side's branch, whose hot rows stream and whose broadcast then holds
    the moved side's rows of them too. Two branches read each side three
    times (its hot rows, its rows of the other side's keys for the other
    branch, the rest); one reads each side twice. The side with fewer counted
    rows moves, into a branch that streams rows (not the distinct keys a semi
    or anti join's right side gives). Sketched counts are upper bounds, so
    the budget holds. Updates `result` (the plan) and the moved side's entry
    ('folded': {'into', 'rows', 'budget', 'shown'}). -#}
{% macro _sj_hot_fold(j, result) -%}
    {%- if result.left is none or result.right is none -%}
        {{- return(none) -}}
    {%- endif -%}
    {%- set budget = ((result.options or {}).get('max_broadcast_rows') or 0) | int -%}
    {%- if result.fold_budget is not none and (result.fold_budget | int) < budget -%}
        {%- set budget = result.fold_budget | int -%}
    {%- endif -%}
    {%- set rows = {} -%}
    {%- for e in result.sides if e.get('counted') is not none -%}
        {%- set n = namespace(total=0) -%}
        {%- for t in result[e.side].tuples -%}
            {%- set n.total = n.total + (e.counted.get(tojson(t)) or 0) -%}
        {%- endfor -%}
        {%- do rows.update({e.side: n.total}) -%}
    {%- endfor -%}
    {%- set moves = [] -%}
    {%- for s in ['right', 'left'] if s in rows and 0 < budget and rows[s] <= budget -%}
        {%- set o = 'right' if s == 'left' else 'left' -%}
        {%- if skewjoin._sj_hot_branch_shape(j, o).kind == 'rows' and (o not in rows or rows[s] <= rows[o]) -%}
            {%- do moves.append(s) -%}
        {%- endif -%}
    {%- endfor -%}
    {%- if not moves -%}
        {{- return(none) -}}
    {%- endif -%}
    {%- set s = moves[0] -%}
    {%- set o = 'right' if s == 'left' else 'left' -%}
    {%- set folded = {'into': o, 'rows': rows[s], 'budget': budget, 'shown': result[s].shown} -%}
    {%- do result.update({o: {'tuples': result[o].tuples + result[s].tuples,
                              'shown': result[o].shown + result[s].shown}, s: none}) -%}
    {%- for e in result.sides if e.side == s -%}
        {%- do e.update({'folded': folded}) -%}
    {%- endfor -%}
    {{- return(folded) -}}
{%- endmacro %}
