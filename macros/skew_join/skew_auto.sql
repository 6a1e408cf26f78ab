{#- skew_join 'auto': the plan from the measured counts (pure: no query;
    auto_spec.sql describes the pipeline). -#}


{#- Slots for groups whose shares are exact fractions [[n, d], ...]: the
    rule of the profile's allocate_slots (python_helpers planner.py), in integers;
    tests/render/test_slot_allocation.py holds the two equal. -#}
{% macro _sj_allocate_slots(fractions, total) -%}
    {%- set wanted = [] -%}
    {%- for f in fractions -%}
        {%- set d = f[1] if f[0] > 0 and f[1] > 0 else 1 -%}
        {%- set nn = f[0] if f[0] > 0 and f[1] > 0 else 0 -%}
        {%- do wanted.append([1, (2 * nn * total + d) // (2 * d)] | max) -%}
    {%- endfor -%}
    {%- set count = fractions | length -%}
    {%- if wanted | sum <= total - 1 -%}
        {{- return(wanted) -}}
    {%- endif -%}
    {%- set spare = total - 1 - count -%}
    {#- common denominator: the product of the distinct denominators -#}
    {%- set state = namespace(common=1) -%}
    {%- set seen = [] -%}
    {%- for f in fractions if f[0] > 0 and f[1] > 0 and f[1] not in seen -%}
        {%- do seen.append(f[1]) -%}
        {%- set state.common = state.common * f[1] -%}
    {%- endfor -%}
    {%- set numerators = [] -%}
    {%- for f in fractions -%}
        {%- do numerators.append(f[0] * (state.common // f[1]) if f[0] > 0 and f[1] > 0 else 0) -%}
    {%- endfor -%}
    {%- set weight = numerators | sum -%}
    {%- if weight == 0 -%}
        {%- set ones = [] -%}
        {%- for f in fractions -%}{%- do ones.append(1) -%}{%- endfor -%}
        {{- return(ones) -}}
    {%- endif -%}
    {%- set extra = [] -%}
    {%- set order = [] -%}
    {%- for x in numerators -%}
        {%- do extra.append((x * spare) // weight) -%}
        {%- do order.append({'i': loop.index0, 'remainder': (x * spare) % weight}) -%}
    {%- endfor -%}
    {%- set left_over = spare - (extra | sum) -%}
    {%- set bumped = (order | sort(attribute='remainder', reverse=true))[:left_over] | map(attribute='i') | list -%}
    {%- set out = [] -%}
    {%- for e in extra -%}{%- do out.append(1 + e + (1 if loop.index0 in bumped else 0)) -%}{%- endfor -%}
    {{- return(out) -}}
{%- endmacro %}


{#- Scaled to the whole input when the counts are of a sample. -#}
{% macro _sj_auto_estimate(rows, options) -%}
    {%- if options.sample_fraction is none or (options.sample_fraction | float) >= 1 -%}
        {{- return(rows) -}}
    {%- endif -%}
    {{- return((rows / (options.sample_fraction | float)) | round | int) -}}
{%- endmacro %}


{#- The plan from the measured counts (the rules: docs/guide/auto.md).
    Returns {'config', 'keys': [{'values', 'action', 'side', 'slots',
    'multicast_rows', 'reason'}], 'null_bypass': {side: bool}, 'totals' and
    'nulls' ({side: rows}), 'more' (keys above min_share past max_keys)};
    `_sj_auto_record` says it. -#}
{% macro _sj_auto_plan(j, measured, options, total_slots) -%}
    {%- set sides = ['left', 'right'] -%}
    {%- set totals = {'left': measured.left.total, 'right': measured.right.total} -%}
    {%- set min_share = options.min_share | float -%}
    {%- set candidates = [] -%}
    {%- for k in measured['keys'] -%}
        {%- set s_left = k.left / totals.left if totals.left else 0.0 -%}
        {%- set s_right = k.right / totals.right if totals.right else 0.0 -%}
        {%- set top = [s_left, s_right] | max -%}
        {%- if top >= min_share -%}
            {%- do candidates.append({'m': k, 'top': top, 'shares': {'left': s_left, 'right': s_right},
                                      'id': tojson(k['values'])}) -%}
        {%- endif -%}
    {%- endfor -%}
    {#- heaviest share first; keys of the same share in the order of their values' text, whichever side
        listed them and however they were counted (a stable sort) -#}
    {%- set candidates = candidates | sort(attribute='id') | sort(attribute='top', reverse=true) -%}
    {%- set planned = [] -%}
    {%- set state = namespace(broadcast=0) -%}
    {%- set budget = options.max_broadcast_rows | int -%}
    {%- for c in candidates[:options.max_keys | int] -%}
        {%- set m = c.m -%}
        {%- set heavy = 'left' if m.left >= m.right else 'right' -%}
        {%- set light = 'right' if heavy == 'left' else 'left' -%}
        {%- set p = {'values': m['values'], 'rows': {'left': m.left, 'right': m.right}, 'bounded': m.bounded,
                     'shares': c.shares, 'action': 'rest', 'side': none,
                     'slots': 0, 'multicast_rows': 0, 'reason': ''} -%}
        {%- set usable = namespace(ok=true) -%}
        {%- for v in m['values'] -%}
            {%- if skewjoin._sj_literal(v, j['keys'][loop.index0].type) is none
                   or skewjoin._sj_special_float(v, j['keys'][loop.index0].type) is not none -%}
                {%- set usable.ok = false -%}
            {%- endif -%}
        {%- endfor -%}
        {%- if not usable.ok -%}
            {%- do p.update({'reason': 'the value cannot be declared (not a finite number)'}) -%}
            {%- do planned.append(p) -%}
            {%- continue -%}
        {%- endif -%}
        {%- set o = skewjoin._sj_auto_estimate(m[light], options) -%}
        {%- if state.broadcast + o <= budget -%}
            {%- set state.broadcast = state.broadcast + o -%}
            {%- do p.update({'action': 'hot_key', 'side': heavy, 'reason': 'broadcast ' ~ j[light].alias ~ "'s "
                ~ ('at most ' if light in m.bounded else '') ~ skewjoin._sj_rows_text(o) ~ ' row(s) of this key'}) -%}
            {%- do planned.append(p) -%}
            {%- continue -%}
        {%- endif -%}
        {%- set over = j[light].alias ~ ' has ' ~ skewjoin._sj_rows_text(o)
            ~ ' rows of this key, over the broadcast budget of ' ~ skewjoin._sj_rows_text(budget) ~ ' rows'
            ~ (' (' ~ skewjoin._sj_rows_text(state.broadcast) ~ ' already taken)'
            if state.broadcast else '') -%}
        {%- set driver = namespace(side=none) -%}
        {%- for d in [heavy, light] if driver.side is none -%}
            {%- if ('right' if d == 'left' else 'left') not in j.semantics.no_multicast -%}
                {%- set driver.side = d -%}
            {%- endif -%}
        {%- endfor -%}
        {%- if driver.side is none -%}
            {%- do p.update({'action': 'hot_key', 'side': heavy, 'reason': over ~ '; a ' ~ j.join_type
                ~ " join cannot copy either side's rows, so it is broadcast anyway (check the executors' memory)"}) -%}
        {%- else -%}
            {%- do p.update({'action': 'group', 'side': driver.side, 'reason': over}) -%}
        {%- endif -%}
        {%- do planned.append(p) -%}
    {%- endfor -%}
    {%- set null_bypass = {} -%}
    {%- set nulls = {'left': measured.left.null, 'right': measured.right.null} -%}
    {%- for s in sides -%}
        {%- do null_bypass.update({s: nulls[s] > 0 and nulls[s] / totals[s] >= min_share}) -%}
    {%- endfor -%}
    {%- set groups = planned | selectattr('action', 'equalto', 'group') | list -%}
    {%- if groups -%}
        {%- set shuffled = {} -%}
        {%- for s in sides -%}
            {%- set hot_rows = namespace(n=0) -%}
            {%- for p in planned if p.action == 'hot_key' -%}
                {%- set hot_rows.n = hot_rows.n + p.rows[s] -%}
            {%- endfor -%}
            {%- do shuffled.update({s: totals[s] - hot_rows.n - (nulls[s] if null_bypass[s] else 0)}) -%}
        {%- endfor -%}
        {%- set kept = groups[:total_slots - 1] -%}
        {%- for p in groups[total_slots - 1:] -%}
            {%- do p.update({'action': 'rest', 'side': none, 'reason': p.reason ~ '; no slot left (total_slots '
                ~ total_slots ~ ')'}) -%}
        {%- endfor -%}
        {%- set fractions = [] -%}
        {%- for p in kept -%}
            {%- set rows = p.rows[p.side] -%}
            {%- set d = shuffled[p.side] -%}
            {%- do p.update({'driver_rows': rows if d > 0 else 0, 'driver_shuffled': d if d > 0 else 1}) -%}
            {%- do fractions.append([p.driver_rows, p.driver_shuffled]) -%}
        {%- endfor -%}
        {%- set slots = skewjoin._sj_allocate_slots(fractions, total_slots) -%}
        {%- set mbudget = options.max_multicast_rows | int -%}
        {%- for p in kept -%}
            {%- set n = slots[loop.index0] -%}
            {%- set other = 'right' if p.side == 'left' else 'left' -%}
            {%- set copied = skewjoin._sj_auto_estimate(p.rows[other], options) -%}
            {%- set reason = p.reason ~ '; ' ~ n ~ ' slot(s) for ' ~ skewjoin._sj_rows_text(p.driver_rows) ~ ' of the '
                ~ skewjoin._sj_rows_text(p.driver_shuffled) ~ ' rows ' ~ j[p.side].alias ~ ' shuffles' -%}
            {%- set given = n -%}
            {%- if n >= 2 and copied * n > mbudget -%}
                {%- set fit = mbudget // copied -%}
                {%- if fit >= 2 -%}
                    {%- set reason = reason ~ '; the multicast budget ' ~ skewjoin._sj_rows_text(mbudget)
                        ~ ' rows allows ' ~ fit ~ ' slots of ' ~ n -%}
                    {%- set given = fit -%}
                {%- else -%}
                    {%- set reason = reason ~ '; ' ~ n ~ ' slots would copy ' ~ skewjoin._sj_rows_text(copied * n)
                        ~ ' rows, over the multicast budget ' ~ skewjoin._sj_rows_text(mbudget)
                        ~ ': nothing copied, the key hashed to one slot as distribute keys would' -%}
                    {%- set given = 1 -%}
                {%- endif -%}
            {%- endif -%}
            {%- if given < 2 -%}
                {%- do p.update({'action': 'rest', 'side': none, 'slots': 0,
                                 'reason': reason ~ '; one slot spreads nothing: left to the shuffle join'}) -%}
            {%- else -%}
                {%- do p.update({'slots': given, 'reason': reason, 'multicast_rows': copied * given}) -%}
            {%- endif -%}
        {%- endfor -%}
    {%- endif -%}
    {#- the specification -#}
    {%- set n_keys = j['keys'] | length -%}
    {%- set config = {} -%}
    {%- set hot_keys = {} -%}
    {%- for s in sides -%}
        {%- set values = [] -%}
        {%- for p in planned if p.action == 'hot_key' and p.side == s -%}
            {%- do values.append(p['values'][0] if n_keys == 1 else p['values']) -%}
        {%- endfor -%}
        {%- if null_bypass[s] -%}
            {%- set null_key = [] -%}
            {%- for k in j['keys'] -%}{%- do null_key.append(none) -%}{%- endfor -%}
            {%- do values.append(none if n_keys == 1 else null_key) -%}
        {%- endif -%}
        {%- if values -%}
            {%- do hot_keys.update({j[s].alias: values}) -%}
        {%- endif -%}
    {%- endfor -%}
    {%- if hot_keys -%}
        {%- do config.update({'hot_keys': hot_keys}) -%}
    {%- endif -%}
    {%- set live = planned | selectattr('action', 'equalto', 'group') | list -%}
    {%- if live -%}
        {%- set written = [] -%}
        {%- for p in live -%}
            {%- set conds = [] -%}
            {%- for k in j['keys'] -%}
                {%- do conds.append(j[p.side].alias ~ '.' ~ (k.left_ident if p.side == 'left' else k.right_ident)
                    ~ ' = ' ~ skewjoin._sj_config_literal(p['values'][loop.index0], k.type)) -%}
            {%- endfor -%}
            {%- do written.append({'when': conds | join(' and '), 'slots': p.slots, 'distribute': 'random'}) -%}
        {%- endfor -%}
        {%- do config.update({'groups': written, 'total_slots': total_slots}) -%}
    {%- endif -%}
    {{- return({'config': config, 'keys': planned, 'null_bypass': null_bypass, 'totals': totals, 'nulls': nulls,
                'more': [(candidates | length) - (options.max_keys | int), 0] | max}) -}}
{%- endmacro %}
