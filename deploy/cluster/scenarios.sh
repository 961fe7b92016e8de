# Sourced by cluster.sh: the cluster scenarios of issue 14 (docs/deployment.md, "Scenarios").
# Each starts a fresh cluster of its own in .payonce/cluster-check (PAYONCE_CLUSTER_CHECK_DIR)
# on the same ports as `cluster.sh start` (stop that one first), drives it through HAProxy
# with curl (--parallel) or wrk, checks the database, stops everything it started (also when
# it fails), and exits 0 only if its verdict is PASS. The storm and the rolling restart also
# record every exchange as a history and check it with the JUnit soaks' history checker
# (dev.payonce.history.HistoryFiles, run from target/test-classes on the JDK alone).
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

# curl_config KEYS_FILE BODIES: a curl config with one POST /payments per line of KEYS_FILE
# (the idempotency key, also the order id), each answer's body written to BODIES/<line>. The
# key rides in the URL's fragment, which curl never sends, so that --write-out can name it:
# each answer is "status<tab>url<tab>location<tab>content-type<tab>body file<tab>curl's exit
# code" (a problem+json answer is Payonce's, text/html is HAProxy's own).
curl_config() {
  awk -v url="$PROXY_URL/payments" -v auth="Authorization: Bearer $PAYONCE_CLUSTER_API_KEY" -v bodies="$2" '
    NR > 1 { print "next" }
    {
      printf "url = \"%s#%s\"\n", url, $1
      print "silent"
      printf "output = \"%s/%d\"\n", bodies, NR
      printf "header = \"%s\"\n", auth
      print "header = \"Content-Type: application/json\""
      printf "header = \"Idempotency-Key: %s\"\n", $1
      printf "data-raw = \"{\\\"orderId\\\": \\\"%s\\\", \\\"amount\\\": 1200, \\\"currency\\\": \\\"ILS\\\"}\"\n", $1
      print "max-time = 30"
      print "write-out = \"%{http_code}\\t%{url}\\t%header{location}\\t%{content_type}\\t%{filename_effective}\\t%{exitcode}\\n\""
    }' "$1"
}

# send KEYS_FILE PARALLEL OUT: one request per line of KEYS_FILE, PARALLEL at once over
# their own connections, answers appended to OUT as "status key location content-type" ("-"
# for none) as they come, and, when HISTORY names a file, to HISTORY as history lines.
send() {
  local bodies="$1.bodies"
  rm -rf "$bodies"
  mkdir -p "$bodies"
  curl_config "$1" "$bodies" > "$1.curl"
  curl --parallel --parallel-immediate --parallel-max "$2" -K "$1.curl" 2> /dev/null | tee "$bodies.answers" |
    awk -F'\t' '{ sub(/^[^#]*#/, "", $2); ct = $4; gsub(/ /, "", ct);
                   print $1, $2, ($3 == "" ? "-" : $3), (ct == "" ? "-" : ct) }' >> "$3" || true
  if [ -n "${HISTORY:-}" ]; then
    history_lines "$bodies" >> "$HISTORY"
  fi
  rm -rf "$bodies" "$bodies.answers"
}

# history_lines BODIES: the answers of one send (BODIES.answers, in the order they completed)
# in HistoryFiles' format, "key status body-sha256 type": an exchange curl did not complete
# (no answer, a timeout, a reset mid-body) is "status 0, digest -"; the type is Payonce's rule
# for its answers (Operation.Type.of, which HistoryFiles holds each line to): 201 ok, 402 fail
# (a stored refusal), anything else info.
history_lines() {
  find "$1" -type f -exec sha256sum {} + > "$1.sums"
  awk -F'\t' '
    FILENAME == ARGV[1] { digest[substr($0, 67)] = substr($0, 1, 64); next }
    {
      key = $2; sub(/^[^#]*#/, "", key)
      status = ($6 == 0) ? $1 + 0 : 0
      # A complete answer with an empty body leaves no file: the digest of no bytes.
      d = (status == 0) ? "-" : ($5 in digest) ? digest[$5] : "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
      print key, status, d, (status == 201) ? "ok" : (status == 402) ? "fail" : "info"
    }' "$1.sums" "$1.answers"
  rm -f "$1.sums"
}

# The history checker: the JUnit soaks' HistoryChecker, read from the test classes that
# `./mvnw verify` (.ci/run) compiled; it needs only the JDK.
HISTORY_CLASSES="$ROOT/target/test-classes"

ensure_history_checker() {
  source "$ROOT/scripts/find-jdk.sh" > /dev/null
  if [ ! -f "$HISTORY_CLASSES/dev/payonce/history/HistoryFiles.class" ]; then
    log "No history checker in target/test-classes: compiling the tests (./mvnw -q test-compile)"
    # The build's own files keep the usual modes (this file sets umask 077 for its secrets).
    (umask 022 && cd "$ROOT" && MAVEN_ARGS="--batch-mode --no-transfer-progress" ./mvnw -q test-compile >&2) ||
      die "./mvnw test-compile failed: the cluster's histories cannot be checked"
  fi
}

history_files() { "$JAVA_HOME/bin/java" -cp "$HISTORY_CLASSES" "$CLUSTER_SCRIPT_DIR/HistoryCheck.java" "$@"; }

# The histories this scenario checked, for its verdict line; HISTORY_LAST: the last one's
# "N operations, M anomalies" (or why it was not checked).
HISTORY_OPERATIONS=0
HISTORY_ANOMALIES=0
HISTORY_UNCHECKED=0
HISTORY_LAST=""

# check_history NAME PREFIX: dumps the end state of the keys PREFIX-* (their idempotency
# records, the simulated provider's ledger) with psql, runs HistoryFiles on HISTORY and that
# file, and prints its line ("History NAME: N operations {...} over K keys, M anomalies
# [...]"). Returns non-zero on any anomaly or when the history could not be checked.
check_history() {
  local end="$HISTORY.end-state" line="" status=0 operations anomalies
  if history_files queries | cluster_psql -qAt -F $'\t' -v ON_ERROR_STOP=1 -v keys="$2-%" > "$end"; then
    line=$(history_files check "$1" "$HISTORY" "$end") || status=$?
  else
    status=psql
  fi
  operations=$(echo "$line" | sed -n 's/^History [^:]*: \([0-9]*\) operations .*/\1/p')
  anomalies=$(echo "$line" | sed -n 's/^History [^:]*: .* keys, \([0-9]*\) anomalies.*/\1/p')
  if [ -z "$operations" ] || [ -z "$anomalies" ]; then
    HISTORY_UNCHECKED=$((HISTORY_UNCHECKED + 1))
    HISTORY_LAST="not checked (status $status; files in $WORK)"
    echo "History $1: $HISTORY_LAST"
    return 1
  fi
  echo "$line"
  HISTORY_OPERATIONS=$((HISTORY_OPERATIONS + operations))
  HISTORY_ANOMALIES=$((HISTORY_ANOMALIES + anomalies))
  HISTORY_LAST="$operations operations, $anomalies anomalies"
  [ "$status" = 0 ]
}

# history_verdict: the histories' figures for a VERDICT line.
history_verdict() {
  echo "histories: $HISTORY_OPERATIONS operations, $HISTORY_ANOMALIES anomalies$([ "$HISTORY_UNCHECKED" = 0 ] || echo ", $HISTORY_UNCHECKED not checked")"
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
  local wave=$((256 / dups)) HISTORY="$WORK/$prefix.history"
  : > "$HISTORY"
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
  local history_ok=0
  check_history "storm $prefix" "$prefix" || history_ok=1
  echo "storm $prefix: requests=$total answers: $storm_statuses| retries to resolve: $(wc -l < "$resolve_out") ($(statuses "$resolve_out")) unresolved=$left replay-mismatches=$mismatches 5xx-other-than-502/503=$errors | $figures | history: $HISTORY_LAST"
  [ "$left" = 0 ] && [ "$mismatches" = 0 ] && [ "$errors" = 0 ] && verdict_ok "$figures" && [ "$history_ok" = 0 ]
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
  local out="$WORK/$prefix.out" stop="$WORK/$prefix.stop" HISTORY="$WORK/$prefix.history"
  : > "$HISTORY"
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
  local history_ok=0
  check_history "rolling-restart $prefix" "$prefix" || history_ok=1
  echo "rolling-restart $prefix (instances $*): requests=$total in ${seconds}s answers: $answers| failed (not 201/503)=$failed keys retried=$retried (retries: $(statuses "$resolve_out")) unresolved=$left | $figures | history: $HISTORY_LAST"
  [ "$failed" = 0 ] && [ "$left" = 0 ] && verdict_ok "$figures" && [ "$history_ok" = 0 ]
}

report() { # report NAME OK [DETAIL]: prints the verdict line, returns OK's status
  local detail="${3:+ ($3)}"
  if [ "$2" = 0 ]; then
    echo "VERDICT $1: PASS$detail"
  else
    echo "VERDICT $1: FAIL$detail"
  fi
  return "$2"
}

scenario_storm() {
  ensure_history_checker
  scenario_cluster_up "$SCENARIO_LATENCY"
  local ok=0
  storm_run storm "${STORM_KEYS:-960}" "${STORM_DUPLICATES:-8}" 2 || ok=1
  report storm "$ok" "$(history_verdict)"
}

scenario_rolling_restart() {
  ensure_history_checker
  scenario_cluster_up "$SCENARIO_LATENCY"
  local ok=0
  rolling_run rolling 1 2 3 || ok=1
  report rolling-restart "$ok" "$(history_verdict)"
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
  ensure_history_checker
  scenario_cluster_up "$SCENARIO_LATENCY"
  log "Cluster up in $((SECONDS - started))s"
  storm_run ci-storm "${STORM_KEYS:-192}" "${STORM_DUPLICATES:-8}" 2 || ok=1
  # The SIGKILLed instance comes back while instance 1 is restarted gracefully under load:
  # one JVM start to wait for instead of two (rolling_run waits until all three are UP).
  start_instance 2
  rolling_run ci-rolling 1 || ok=1
  log "ci: $((SECONDS - started))s in all"
  report ci "$ok" "$(history_verdict)"
}
