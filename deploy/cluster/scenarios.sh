# Sourced by cluster.sh: the cluster scenarios of issue 14 (docs/deployment.md, "Scenarios").
# Each starts a fresh cluster of its own in .payonce/cluster-check (PAYONCE_CLUSTER_CHECK_DIR)
# on the same ports as `cluster.sh start` (stop that one first), drives it through HAProxy
# with curl (--parallel) or wrk, checks the database, stops everything it started (also when
# it fails), and exits 0 only if its verdict is PASS.
#
#   storm            256 connections, same-key bursts spread over the three instances, one
#                    instance SIGKILLed halfway: exactly one charge per key
#   rolling-restart  SIGTERM, wait healthy, next, for all three under steady load: nothing
#                    fails but 503s that a retry with the same key resolves
#   throughput       payments a second through HAProxy with 3 instances, then with 1 (wrk)
#   ci               the reduced form for CI: a short storm with a SIGKILL, a rolling restart
#                    of one instance, the same checks (about 2 minutes on 2 cores)

STATE="${PAYONCE_CLUSTER_CHECK_DIR:-$ROOT/.payonce/cluster-check}"
PIDS="$STATE/pids"
LOGS="$STATE/logs"
WORK="$STATE/run"
# Every file a scenario writes is the user's alone: the curl configs and request files
# carry the client's API key.
umask 077

# The scenarios' Payonce settings: no per-client rate limit (one client sends all the load,
# README "Limits"); a simulated provider that takes 100 ms and 50 ms more after writing its
# ledger (claims are in flight when an instance dies); a provider timeout of 2 s, so the
# lease can be 8 s (it must exceed the worst-case call plus lease-margin, 5 s) and keys an
# instance held when it died are taken over by a retry within seconds.
SCENARIO_APP_ARGS="--payonce.security.rate-limit.enabled=false --payonce.gateway.simulator.timeout=2s --payonce.idempotency.lease=8s"
SCENARIO_LATENCY="--payonce.gateway.simulator.latency=100ms --payonce.gateway.simulator.delay-after-charge=50ms"

# scenario_cluster_up EXTRA_APP_ARGS: a fresh cluster for this scenario, stopped on exit.
scenario_cluster_up() {
  cluster_stop > /dev/null 2>&1 || true
  rm -rf "$STATE"
  mkdir -p "$WORK"
  export PAYONCE_CLUSTER_APP_ARGS="$SCENARIO_APP_ARGS $1 ${PAYONCE_CLUSTER_APP_ARGS:-}"
  trap 'scenario_cleanup' EXIT
  cluster_start
}

scenario_cleanup() {
  local status=$?
  [ -n "${LOADER_PID:-}" ] && kill "$LOADER_PID" 2> /dev/null
  cluster_stop || true
  if [ "$status" -ne 0 ]; then
    log "Logs kept in $LOGS"
  fi
  exit "$status"
}

# curl_config KEYS_FILE: a curl config with one POST /payments per line of KEYS_FILE (the
# idempotency key, also the order id). The key rides in the URL's fragment, which curl never
# sends, so that --write-out can name it: each answer is "status key location content-type"
# ("-" for none; a problem+json answer is Payonce's, text/html is HAProxy's own).
curl_config() {
  awk -v url="$PROXY_URL/payments" -v auth="Authorization: Bearer $PAYONCE_CLUSTER_API_KEY" '
    NR > 1 { print "next" }
    {
      printf "url = \"%s#%s\"\n", url, $1
      print "silent"
      print "output = \"/dev/null\""
      printf "header = \"%s\"\n", auth
      print "header = \"Content-Type: application/json\""
      printf "header = \"Idempotency-Key: %s\"\n", $1
      printf "data-raw = \"{\\\"orderId\\\": \\\"%s\\\", \\\"amount\\\": 1200, \\\"currency\\\": \\\"ILS\\\"}\"\n", $1
      print "max-time = 30"
      print "write-out = \"%{http_code}\\t%{url}\\t%header{location}\\t%{content_type}\\n\""
    }' "$1"
}

# send KEYS_FILE PARALLEL OUT: one request per line of KEYS_FILE, PARALLEL at once over
# their own connections, answers appended to OUT as "status key location content-type".
send() {
  curl_config "$1" > "$1.curl"
  curl --parallel --parallel-immediate --parallel-max "$2" -K "$1.curl" 2> /dev/null |
    awk -F'\t' '{ sub(/^[^#]*#/, "", $2); ct = $4; gsub(/ /, "", ct);
                   print $1, $2, ($3 == "" ? "-" : $3), (ct == "" ? "-" : ct) }' >> "$3" || true
}

# resolve KEYS_FILE OUT SECONDS: retries every key of KEYS_FILE with the same key and the
# same request until it answers 201 or 402 (a stored answer) or SECONDS pass, one second
# apart (Payonce's Retry-After); prints how many keys are left unresolved.
resolve() {
  local pending="$WORK/pending" deadline=$((SECONDS + $3)) round=0
  sort -u "$1" > "$pending"
  while [ -s "$pending" ] && [ "$SECONDS" -lt "$deadline" ]; do
    [ "$round" -gt 0 ] && sleep 1
    round=$((round + 1))
    : > "$WORK/round.out"
    send "$pending" 32 "$WORK/round.out"
    cat "$WORK/round.out" >> "$2"
    awk '$1 == 201 || $1 == 402 { print $2 }' "$WORK/round.out" | sort -u > "$WORK/done"
    comm -23 "$pending" "$WORK/done" > "$pending.next"
    mv "$pending.next" "$pending"
  done
  wc -l < "$pending"
}

# statuses OUT: "status:count" of every answer in OUT; an answer HAProxy wrote itself (not
# Payonce's problem+json) is marked "(haproxy)".
statuses() {
  awk '{ s = $1; if ($4 ~ /text\/html/) s = s "(haproxy)"; n[s]++ } END { for (s in n) printf "%s:%d ", s, n[s] }' "$1" |
    tr ' ' '\n' | sort | tr '\n' ' '
}

# replay_mismatches OUT: keys whose 201 answers name more than one payment (Location).
replay_mismatches() {
  awk '$1 == 201 { if (!($2 in loc)) loc[$2] = $3; else if (loc[$2] != $3) bad[$2] = 1 }
       END { n = 0; for (k in bad) n++; print n }' "$1"
}

# verify_keys KEYS_FILE: the database's view of every key in KEYS_FILE, as
# "keys=.. records=.. completed=.. stuck=.. charges=.. lost=.. duplicates=.. payments=..":
# stuck = records still IN_PROGRESS, charges = the simulated provider's SUCCEEDED ledger
# entries for the keys' payments, lost = keys with no charge, duplicates = keys with more
# than one charge or more than one payment for their order.
verify_keys() {
  sort -u "$1" > "$WORK/verify.keys"
  cluster_psql -qAt -v ON_ERROR_STOP=1 <<SQL
CREATE TEMPORARY TABLE k (key text PRIMARY KEY);
\\copy k FROM '$WORK/verify.keys'
WITH charges AS (
  SELECT substring(provider_idempotency_key FROM '^payonce-payment-([0-9a-f-]{36})')::uuid AS payment_id,
         count(*) AS n
  FROM simulated_provider_charges
  WHERE outcome = 'SUCCEEDED' AND provider_idempotency_key LIKE 'payonce-payment-%'
  GROUP BY 1),
orders AS (SELECT order_id, count(*) AS n FROM payments GROUP BY order_id),
c AS (SELECT k.key, r.status, coalesce(ch.n, 0) AS charges, coalesce(o.n, 0) AS payments
      FROM k
      LEFT JOIN idempotency_records r ON r.idempotency_key = k.key AND r.operation = 'payment'
      LEFT JOIN charges ch ON ch.payment_id = r.resource_id
      LEFT JOIN orders o ON o.order_id = k.key)
SELECT format('keys=%s records=%s completed=%s stuck=%s charges=%s lost=%s duplicates=%s payments=%s',
              count(*), count(status), count(*) FILTER (WHERE status = 'COMPLETED'),
              count(*) FILTER (WHERE status = 'IN_PROGRESS'), sum(charges),
              count(*) FILTER (WHERE charges = 0),
              count(*) FILTER (WHERE charges > 1 OR payments > 1), sum(payments))
FROM c;
SQL
}

# verdict NAME FIGURES: PASS when every key has a completed record with exactly one charge
# and one payment, and nothing is stuck.
verdict_ok() {
  local figures="$1" keys
  keys=$(echo "$figures" | sed -n 's/.*keys=\([0-9]*\).*/\1/p')
  [[ "$figures" == *"completed=$keys "* && "$figures" == *"stuck=0 "* && "$figures" == *"charges=$keys "* &&
    "$figures" == *"lost=0 "* && "$figures" == *"duplicates=0 "* && "$figures" == *"payments=$keys" ]]
}

# storm_run PREFIX KEYS DUPLICATES KILL: 256 requests with one key, then KEYS keys in waves
# of 256/DUPLICATES keys, each key sent DUPLICATES times at once; all over 256 connections
# through HAProxy. When KILL is an instance number, that instance is SIGKILLed once half the
# answers are in. Then every key is retried until resolved, and the database is checked.
# Prints the figures; returns non-zero unless they pass.
storm_run() {
  local prefix="$1" keys="$2" dups="$3" kill_n="$4"
  local requests="$WORK/$prefix.requests" out="$WORK/$prefix.out" keyfile="$WORK/$prefix.keys"
  local wave=$((256 / dups))
  {
    for _ in $(seq 1 256); do echo "$prefix-single"; done
    for ((first = 0; first < keys; first += wave)); do
      for ((d = 0; d < dups; d++)); do
        for ((k = first; k < first + wave && k < keys; k++)); do printf '%s-%05d\n' "$prefix" "$k"; done
      done
    done
  } > "$requests"
  sort -u "$requests" > "$keyfile"
  local total
  total=$(wc -l < "$requests")
  : > "$out"
  log "Storm $prefix: $total requests for $(wc -l < "$keyfile") keys over 256 connections through HAProxy"
  local started=$SECONDS
  send "$requests" 256 "$out" &
  local sender=$!
  if [ -n "$kill_n" ]; then
    while kill -0 "$sender" 2> /dev/null && [ "$(wc -l < "$out")" -lt $((total / 2)) ]; do sleep 0.05; done
    local pid
    pid="$(pid_of "payonce-$kill_n")"
    kill -KILL "$pid"
    log "SIGKILL instance $kill_n (PID $pid) after $(wc -l < "$out") of $total answers"
  fi
  wait "$sender"
  local storm_seconds=$((SECONDS - started))
  local storm_statuses unresolved_before
  storm_statuses=$(statuses "$out")
  unresolved_before=$(awk '$1 == 201 || $1 == 402 { done[$2] = 1 } { all[$2] = 1 }
    END { n = 0; for (k in all) if (!(k in done)) n++; print n }' "$out")
  log "Storm answers in ${storm_seconds}s: $storm_statuses; keys without a stored answer yet: $unresolved_before"
  local resolve_out="$WORK/$prefix.resolve" left
  : > "$resolve_out"
  left=$(resolve "$keyfile" "$resolve_out" 90)
  local figures mismatches errors
  cat "$resolve_out" >> "$out"
  mismatches=$(replay_mismatches "$out")
  errors=$(awk '$1 >= 500 && $1 != 502 && $1 != 503 { n++ } END { print n + 0 }' "$out")
  figures=$(verify_keys "$keyfile")
  echo "storm $prefix: requests=$total answers: $storm_statuses| retries to resolve: $(wc -l < "$resolve_out") ($(statuses "$resolve_out")) unresolved=$left replay-mismatches=$mismatches 5xx-other-than-502/503=$errors | $figures"
  [ "$left" = 0 ] && [ "$mismatches" = 0 ] && [ "$errors" = 0 ] && verdict_ok "$figures"
}

# load_loop PREFIX OUT STOPFILE: steady load until STOPFILE exists: batches of 64 new keys,
# 16 at once, each sent once; answers appended to OUT, keys to OUT.keys.
load_loop() {
  local prefix="$1" out="$2" stop="$3" batch=0
  while [ ! -f "$stop" ]; do
    local file="$WORK/$prefix.batch"
    for k in $(seq 1 64); do printf '%s-%04d-%02d\n' "$prefix" "$batch" "$k"; done > "$file"
    cat "$file" >> "$out.keys"
    send "$file" 16 "$out"
    batch=$((batch + 1))
  done
}

# rolling_run PREFIX INSTANCES...: steady load while each instance in turn gets SIGTERM (its
# drain), is started again and is UP in HAProxy (with ROLLING_LB_DRAIN=1, HAProxy first stops
# sending it new requests: "set server ... state drain"); then every key that did not get 201 is
# retried. Passes when no answer but 201 and 503 came back, every 503 resolved, and the
# database shows one charge per key.
rolling_run() {
  local prefix="$1"
  shift
  local out="$WORK/$prefix.out" stop="$WORK/$prefix.stop"
  : > "$out"
  : > "$out.keys"
  rm -f "$stop"
  load_loop "$prefix" "$out" "$stop" &
  LOADER_PID=$!
  sleep 2
  local started=$SECONDS n t
  for n in "$@"; do
    t=$SECONDS
    if [ "${ROLLING_LB_DRAIN:-0}" = 1 ]; then
      # The load balancer first: no new request goes to the instance, then SIGTERM.
      haproxy_command "set server payonce/payonce$n state drain" > /dev/null
    fi
    stop_process "payonce-$n" TERM 45
    local drained=$((SECONDS - t))
    start_instance "$n"
    wait_instance "$n" 240
    haproxy_command "set server payonce/payonce$n state ready" > /dev/null
    wait_haproxy_up 3 30
    log "Instance $n: drained and stopped in ${drained}s, back and UP in HAProxy after $((SECONDS - t))s"
  done
  sleep 2
  touch "$stop"
  wait "$LOADER_PID"
  LOADER_PID=""
  local seconds=$((SECONDS - started))
  local total answers failed retried left figures
  total=$(wc -l < "$out")
  answers=$(statuses "$out")
  failed=$(awk '$1 != 201 && $1 != 503 { n++ } END { print n + 0 }' "$out")
  awk '$1 != 201 { print $2 }' "$out" | sort -u > "$WORK/$prefix.retry"
  retried=$(wc -l < "$WORK/$prefix.retry")
  local resolve_out="$WORK/$prefix.resolve"
  : > "$resolve_out"
  left=$(resolve "$WORK/$prefix.retry" "$resolve_out" 90)
  figures=$(verify_keys "$out.keys")
  echo "rolling-restart $prefix (instances $*): requests=$total in ${seconds}s answers: $answers| failed (not 201/503)=$failed keys retried=$retried (retries: $(statuses "$resolve_out")) unresolved=$left | $figures"
  [ "$failed" = 0 ] && [ "$left" = 0 ] && verdict_ok "$figures"
}

report() { # report NAME OK: prints the verdict line, returns OK's status
  if [ "$2" = 0 ]; then
    echo "VERDICT $1: PASS"
  else
    echo "VERDICT $1: FAIL"
  fi
  return "$2"
}

scenario_storm() {
  scenario_cluster_up "$SCENARIO_LATENCY"
  local ok=0
  storm_run storm "${STORM_KEYS:-960}" "${STORM_DUPLICATES:-8}" 2 || ok=1
  report storm "$ok"
}

scenario_rolling_restart() {
  scenario_cluster_up "$SCENARIO_LATENCY"
  local ok=0
  rolling_run rolling 1 2 3 || ok=1
  report rolling-restart "$ok"
}

# wrk_run LABEL SECONDS: POST /payments with a new key each, through HAProxy.
wrk_run() {
  local label="$1"
  echo "load average before $label: $(cut -d' ' -f1-3 /proc/loadavg)"
  WRK_PREFIX="wrk-$label" PAYONCE_API_KEY="$PAYONCE_CLUSTER_API_KEY" \
    wrk -t2 -c"${WRK_CONNECTIONS:-32}" -d"$2s" --timeout 10s --latency -s "$CLUSTER_SCRIPT_DIR/payments.lua" "$PROXY_URL" |
    tee "$WORK/wrk-$label.txt"
}

scenario_throughput() {
  # No simulated provider latency: the measure is Payonce's and PostgreSQL's work.
  scenario_cluster_up ""
  local seconds="${THROUGHPUT_SECONDS:-30}"
  wrk_run warmup-3 15 > /dev/null
  wrk_run three-instances "$seconds"
  stop_process payonce-2 TERM 45
  stop_process payonce-3 TERM 45
  local deadline=$((SECONDS + 30))
  while [ "$(haproxy_up_count)" -ne 1 ] && [ "$SECONDS" -lt "$deadline" ]; do sleep 0.25; done
  wrk_run one-instance "$seconds"
  local three one shed duplicates
  three=$(sed -n 's/^Requests\/sec: *//p' "$WORK/wrk-three-instances.txt")
  one=$(sed -n 's/^Requests\/sec: *//p' "$WORK/wrk-one-instance.txt")
  shed=$(cat "$WORK/wrk-three-instances.txt" "$WORK/wrk-one-instance.txt" | sed -n 's/^ *Non-2xx or 3xx responses: *//p' | paste -sd/ -)
  # What wrk sent is never retried, so only duplicates can be checked: no payment of a wrk
  # key may have more than one charge.
  duplicates=$(cluster_psql -qAt -v ON_ERROR_STOP=1 -c "
    SELECT count(*) FROM idempotency_records r
    WHERE r.idempotency_key LIKE 'wrk-%' AND (SELECT count(*) FROM simulated_provider_charges s
      WHERE s.outcome = 'SUCCEEDED' AND (s.provider_idempotency_key = 'payonce-payment-' || r.resource_id
        OR s.provider_idempotency_key LIKE 'payonce-payment-' || r.resource_id || '-g%')) > 1")
  echo "throughput: 3 instances ${three:-?} requests/s, 1 instance ${one:-?} requests/s (ratio $(awk -v a="${three:-0}" -v b="${one:-0}" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "?" }')); answers other than 2xx (503 when shedding load) ${shed:-0}; keys charged twice: $duplicates; $(nproc) cores, load average now $(cut -d' ' -f1-3 /proc/loadavg)"
  report throughput "$([ -n "$three" ] && [ -n "$one" ] && [ "$duplicates" = 0 ] && echo 0 || echo 1)"
}

scenario_ci() {
  local started=$SECONDS ok=0
  export PAYONCE_CLUSTER_JAVA_OPTS="${PAYONCE_CLUSTER_JAVA_OPTS:--Xmx384m -XX:TieredStopAtLevel=1}"
  scenario_cluster_up "$SCENARIO_LATENCY"
  log "Cluster up in $((SECONDS - started))s"
  storm_run ci-storm "${STORM_KEYS:-192}" "${STORM_DUPLICATES:-8}" 2 || ok=1
  # The SIGKILLed instance comes back while instance 1 is restarted gracefully under load:
  # one JVM start to wait for instead of two (rolling_run waits until all three are UP).
  start_instance 2
  rolling_run ci-rolling 1 || ok=1
  log "ci: $((SECONDS - started))s in all"
  report ci "$ok"
}
