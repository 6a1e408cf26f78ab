{#- Before 'auto' counts anything: is this join in AQE's own regime, where
    measuring cannot find a plan that beats it? Counting the keys reads both
    sides in full at every run; where AQE already balances the join at run
    time with exact sizes, that scan is the user's whole extra cost (scenarios
    c and e of docs/performance.md: at 10,000,000 rows the measuring alone took as long as Spark's best
    join). The join goes back to AQE unmeasured when all of these hold:
    - AQE and its skew join are on, the shuffle keeps accurate block sizes
      (at most spark.shuffle.minNumPartitionsToHighlyCompress partitions, or
      spark.shuffle.accurateBlockSkewedFactor set), and the join is the
      whole model (or forceOptimizeSkewedJoin): `_sj_aqe_gate`;
    - the join is inner, so AQE may split either side: whichever side is hot;
    - Spark estimates both sides' sizes (`explain cost`, metadata);
    - AQE's settings are tuned to this join's size: with m the join's mean
      shuffle partition (both sides' estimates over the session's shuffle
      partitions), a partition AQE leaves whole, under max(threshold,
      factor x the side's mean partition) and never above the side itself,
      is at most 5 m (AQE's own default skewedPartitionFactor: what Spark
      itself calls skew), and its pieces (advisory size) are at most 5 m.
      Spark's defaults (256 MB, 64 MB) meet this from a mean partition of
      about 51 MB (10 GB at 200 partitions); below that AQE leaves a hot key
      whole, and 'auto' measures.
    Anything else measures as before, and the forecast after the counts
    (`_sj_aqe_forecast`) still weighs each planned key. -#}


{#- The pre-check's measure (metadata only): `_sj_aqe_read`'s settings and
    whether the join is the model, and both sides' size estimates, read only
    where the gate lets it hand back. Returns none (not skew_join's inner
    join: no query) or {'settings', 'whole', 'bytes'}, which the forecast
    after the counts reads again (`_sj_aqe_read`'s `known`). -#}
{% macro _sj_aqe_regime_facts(j) -%}
    {%- if j.macro != 'skew_join' or j.join_type != 'inner' -%}
        {{- return(none) -}}
    {%- endif -%}
    {%- set s = skewjoin._sj_aqe_settings() -%}
    {%- set facts = {'settings': s, 'whole': skewjoin._sj_join_is_the_model(), 'bytes': {}} -%}
    {%- if skewjoin._sj_aqe_gate(s, facts.whole) -%}
        {{- return(facts) -}}
    {%- endif -%}
    {%- for side in ['left', 'right'] -%}
        {%- do facts.bytes.update({side: skewjoin._sj_side_bytes(j, side)}) -%}
    {%- endfor -%}
    {{- return(facts) -}}
{%- endmacro %}


{#- The pre-check (pure): {'hand_back': bool, 'lines': [...]}; lines are
    empty where it does not apply (the gate, the join type, no estimate):
    the counts are then taken and the record says nothing of it. `who`
    names the 'auto' in the record's line ('auto', or "hot keys 'auto'"). -#}
{% macro _sj_aqe_regime(j, facts, who='auto') -%}
    {%- if facts is none -%}
        {{- return({'hand_back': false, 'lines': []}) -}}
    {%- endif -%}
    {%- set s = facts.settings -%}
    {%- set head = who ~ ': AQE regime (measure, or leave the join to AQE?): ' -%}
    {%- if j.join_type != 'inner' or skewjoin._sj_aqe_gate(s, facts.whole) is not none
           or facts.bytes.get('left') is none or facts.bytes.get('right') is none or s.partitions < 1 -%}
        {{- return({'hand_back': false, 'lines': []}) -}}
    {%- endif -%}
    {%- set mean = (facts.bytes.left + facts.bytes.right) / s.partitions -%}
    {%- set bound = 5 * mean -%}
    {%- set whole = {} -%}
    {%- for side in ['left', 'right'] -%}
        {%- do whole.update({side: [[s.threshold, s.factor * facts.bytes[side] / s.partitions] | max,
                                    facts.bytes[side]] | min}) -%}
    {%- endfor -%}
    {%- set numbers = 'Spark estimates ' ~ j.left.alias ~ ' at ' ~ skewjoin._sj_bytes_text(facts.bytes.left) ~ ' and '
        ~ j.right.alias ~ ' at ' ~ skewjoin._sj_bytes_text(facts.bytes.right) ~ ', a mean partition of '
        ~ skewjoin._sj_bytes_text(mean) ~ ' over ' ~ s.partitions ~ ' shuffle partitions; the largest partition AQE'
        ~ ' leaves whole is ' ~ j.left.alias ~ ' ' ~ skewjoin._sj_bytes_text(whole.left) ~ ', ' ~ j.right.alias ~ ' '
        ~ skewjoin._sj_bytes_text(whole.right) ~ ' (max of skewedPartitionThresholdInBytes '
        ~ skewjoin._sj_bytes_text(s.threshold) ~ ' and skewedPartitionFactor ' ~ s.factor
        ~ ' x the mean, at most the side), its pieces ' ~ skewjoin._sj_bytes_text(s.advisory)
        ~ ' (advisoryPartitionSizeInBytes), against 5 x the mean partition, ' ~ skewjoin._sj_bytes_text(bound) -%}
    {%- if [whole.left, whole.right, s.advisory] | max > bound -%}
        {{- return({'hand_back': false, 'lines': [head ~ 'measure: ' ~ numbers ~ '; AQE may leave a hot key whole']}) -}}
    {%- endif -%}
    {{- return({'hand_back': true, 'lines': [head ~ 'left to AQE, nothing counted: AQE on, ' ~ s.partitions
        ~ ' shuffle partitions, ' ~ ('forceOptimizeSkewedJoin' if s.force else 'the join is the whole model')
        ~ ', an inner join (AQE splits either side); ' ~ numbers
        ~ '. AQE balances this join at run time with exact sizes; counting its keys would read both sides in full'],
        'strategy': "plain join, left to AQE (auto's AQE regime above: nothing counted)"}) -}}
{%- endmacro %}
