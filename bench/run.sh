#!/usr/bin/env bash
# The benchmark harness, one command: builds the jar, makes sure PostgreSQL runs, starts
# Payonce with production-like settings (plus the bench profile's no-database baseline),
# runs every scenario with wrk and the references with pgbench, stops what it started, and
# writes bench/results/<UTC date-time>/report.md with latency.png. See bench/README.md.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
export BENCH_DIR="$ROOT/bench"

WINDOW="${BENCH_WINDOW:-20}"              # seconds per measured window
WARMUP="${BENCH_WARMUP:-120}"             # seconds of mixed load before the first window
PAIRS="${BENCH_PAIRS:-3}"                 # alternating repetitions of each service/reference pair
GROWTH="${BENCH_GROWTH:-1000000 10000000}" # idempotency_records sizes for the growth phase
PORT="${BENCH_PORT:-18080}"
RESTART_WARMUP="${BENCH_RESTART_WARMUP:-60}" # seconds of load after each restart before measuring
ROUNDS="${BENCH_GROWTH_ROUNDS:-$PAIRS}"   # alternating rounds of the growth phase (empty, sizes..., empty, ...)
POOL="${BENCH_POOL:-32}"                  # Hikari pool of each Payonce instance
PROFILE_WINDOW="${BENCH_PROFILE_WINDOW:-$WINDOW}" # seconds of each JFR-profiled window
DB="${BENCH_DB:-payonce_bench}"
STAMP=$(date -u +%Y-%m-%d-%H%M)
OUT="$BENCH_DIR/results/$STAMP"
RAW="$OUT/raw"
mkdir -p "$RAW"
: > "$RAW/windows.tsv"

source scripts/find-jdk.sh
source scripts/ensure-postgres.sh
source bench/lib.sh

if ! command -v wrk > /dev/null || ! command -v gnuplot > /dev/null || [ ! -x /usr/bin/time ]; then
  echo "Installing wrk, gnuplot and time from Debian's packages"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk gnuplot-nox time > /dev/null
fi

sql() { psql -h "$PGHOST_ADDR" -p "$PGPORT_NUM" -U postgres -d "$DB" -v ON_ERROR_STOP=1 -qtAc "$1"; }

psql -h "$PGHOST_ADDR" -p "$PGPORT_NUM" -U postgres -d postgres -v ON_ERROR_STOP=1 -q \
  -c "DROP DATABASE IF EXISTS $DB WITH (FORCE)" -c "CREATE DATABASE $DB"

if [ -n "${BENCH_JAR:-}" ]; then
  JAR="$BENCH_JAR" # a jar built before, for a run next to other builds
else
  echo "Building the jar"
  MAVEN_ARGS="--batch-mode --no-transfer-progress -q" ./mvnw -Pbench -DskipTests package
  JAR=$(ls target/bench/payonce-*.jar | grep -v original | head -1)
fi

ADMIN_TOKEN="$(head -c 32 /dev/urandom | base64 | tr '+/' '-_' | tr -d '=')"
PAYONCE_PID=""

start_payonce() { # start_payonce NAME [--setting=value ...]: sets PAYONCE_PID (SLOW_PID for NAME slow, on PORT + 1)
  local name="$1" port="$PORT"
  shift
  [ "$name" = slow ] && port=$((PORT + 1))
  SPRING_DATASOURCE_URL="jdbc:postgresql://$PGHOST_ADDR:$PGPORT_NUM/$DB" \
  SPRING_DATASOURCE_USERNAME=postgres SPRING_DATASOURCE_PASSWORD="" \
  PAYONCE_SECURITY_ADMIN_TOKEN="$ADMIN_TOKEN" \
    "$JAVA_HOME/bin/java" -jar "$JAR" --spring.profiles.active=bench --payonce.benchmark.baseline.enabled=true \
      --server.port="$port" \
      --spring.datasource.hikari.maximum-pool-size="$POOL" --payonce.idempotency.cleanup.enabled="${CLEANUP:-false}" \
      --payonce.security.rate-limit.enabled=false --payonce.idempotency.quota.max-live-records=0 \
      "$@" > "$RAW/payonce-$name.log" 2>&1 &
  if [ "$name" = slow ]; then SLOW_PID=$!; else PAYONCE_PID=$!; fi
  for _ in $(seq 1 600); do # start-up takes minutes on a busy machine
    if curl -sf "http://127.0.0.1:$port/actuator/health" > /dev/null; then
      return 0
    fi
    sleep 1
  done
  echo "Payonce did not start; see $RAW/payonce-$name.log" >&2
  exit 1
}

stop_payonce() {
  if [ -n "$PAYONCE_PID" ]; then
    kill "$PAYONCE_PID" 2> /dev/null || true
    wait "$PAYONCE_PID" 2> /dev/null || true
    PAYONCE_PID=""
  fi
}
SLOW_PID=""
stop_slow() {
  if [ -n "$SLOW_PID" ]; then
    kill "$SLOW_PID" 2> /dev/null || true
    wait "$SLOW_PID" 2> /dev/null || true
    SLOW_PID=""
  fi
}
trap 'stop_slow; stop_payonce' EXIT

# Clock ticks: the whole machine's (total, steal), then CPU used so far by Payonce's JVM and by
# PostgreSQL (every server process, plus the postmaster's reaped children, so backends that come
# and go inside a window still count).
# The JVM measured is CPU_PID's when set (the slow-provider instance), else PAYONCE_PID's.
cpu_counters() {
  local machine java=0 postgres=0 master pid="${CPU_PID:-$PAYONCE_PID}"
  machine=$(awk '/^cpu / { total = 0; for (i = 2; i <= NF; i++) total += $i; print total, $9 }' /proc/stat)
  if [ -n "$pid" ] && [ -r "/proc/$pid/stat" ]; then
    java=$(awk '{ print $14 + $15 }' "/proc/$pid/stat")
  fi
  master=$(head -1 "$(ls -d /var/lib/postgresql/*/main | head -1)/postmaster.pid" 2> /dev/null || true)
  for pid in $(pgrep -u postgres); do
    if [ "$pid" = "$master" ]; then
      postgres=$((postgres + $(awk '{ print $14 + $15 + $16 + $17 }' "/proc/$pid/stat" 2> /dev/null || echo 0)))
    else
      postgres=$((postgres + $(awk '{ print $14 + $15 }' "/proc/$pid/stat" 2> /dev/null || echo 0)))
    fi
  done
  echo "$machine $java $postgres"
}

window() { # window NAME KIND COMMAND...: runs one measured window; records CPU steal, who used the CPU, and the JVM's CPU time
  local name="$1" kind="$2" pid="${CPU_PID:-$PAYONCE_PID}"
  shift 2
  local before after started ended jit_before jit_after
  before=$(cpu_counters)
  jit_before=$(jvm_jit_ms "$pid")
  started=$(date +%s.%N)
  LOADGEN_CPU="$RAW/$name.loadgen-cpu" "$@" > "$RAW/$name.txt" 2>&1
  ended=$(date +%s.%N)
  after=$(cpu_counters)
  jit_after=$(jvm_jit_ms "$pid")
  # Columns: name, kind, steal %, JVM %, PostgreSQL %, load generator % (shares of all cores),
  # JVM CPU ms, of which JIT compiler threads ms, PostgreSQL CPU ms.
  echo "$before $after $started $ended $(cat "$RAW/$name.loadgen-cpu") $jit_before $jit_after" | awk -v n="$name" -v k="$kind" -v hz="$(getconf CLK_TCK)" -v cores="$(nproc)" '{
      steal = ($5 - $1) > 0 ? 100 * ($6 - $2) / ($5 - $1) : 0
      seconds = ($10 - $9) * cores
      printf "%s\t%s\t%.1f\t%.1f\t%.1f\t%.1f\t%.0f\t%.0f\t%.0f\n", n, k, steal,
        100 * ($7 - $3) / hz / seconds, 100 * ($8 - $4) / hz / seconds, 100 * ($11 + $12) / seconds,
        1000 * ($7 - $3) / hz, $14 - $13, 1000 * ($8 - $4) / hz
    }' >> "$RAW/windows.tsv"
  echo "  $name done"
}

profile() { # profile NAME COMMAND...: one extra, unmeasured window recorded by JFR into raw/NAME.jfr and summarised in raw/NAME.md
  local name="$1"
  shift
  LOADGEN_CPU=/dev/null jfr_profile "${CPU_PID:-$PAYONCE_PID}" "$RAW/$name.jfr" "$@" > "$RAW/$name.txt" 2>&1
  jfr_summary "$RAW/$name.jfr" > "$RAW/$name.md" || echo "(no summary: jfr failed)" > "$RAW/$name.md"
  echo "  $name profiled"
}

wrk_run() { # wrk_run SCRIPT CONNECTIONS SECONDS (TARGET_PORT: another instance than PORT's)
  RUN="$RUN" /usr/bin/time -f "%U %S" -o "$LOADGEN_CPU" wrk -t2 -c"$2" -d"$3"s --timeout 30s --latency -s "$BENCH_DIR/lua/$1.lua" "http://127.0.0.1:${TARGET_PORT:-$PORT}"
}

warm_as_much_as_main() { # warm_as_much_as_main NAME PORT SCRIPT CONNECTIONS: load a restarted instance for at
  # least RESTART_WARMUP seconds and until it has completed as many requests as the first
  # instance's warm-up (raw/warmup.txt), so its JIT compiler has done the same work before it is measured
  local target done_now total=0 started=$SECONDS round=0
  target=$(sed -n 's/^ *\([0-9]*\) requests in.*/\1/p' "$RAW/warmup.txt" | head -1)
  while [ $((SECONDS - started)) -lt "$RESTART_WARMUP" ] || [ "$total" -lt "${target:-0}" ]; do
    round=$((round + 1))
    done_now=$(LOADGEN_CPU=/dev/null RUN="$1warm$round" TARGET_PORT="$2" wrk_run "$3" "$4" 10 | sed -n 's/^ *\([0-9]*\) requests in.*/\1/p')
    total=$((total + ${done_now:-0}))
    if [ "$round" -ge 60 ]; then
      break # ten minutes at most
    fi
  done
  echo "$total requests in $((SECONDS - started)) s of warm-up (the first instance's warm-up: ${target:-?})"
}

pgbench_run() { # pgbench_run SQL CONNECTIONS [RATE]: flat out, or RATE transactions per second (pgbench -R)
  if [ "$#" -ge 3 ] && ! awk -v r="$3" 'BEGIN { exit !(r > 0) }'; then
    echo "No rate to run at (the Payonce window before this one completed nothing): window skipped"
    return 0
  fi
  /usr/bin/time -f "%U %S" -o "$LOADGEN_CPU" pgbench -h "$PGHOST_ADDR" -p "$PGPORT_NUM" -U postgres -n -M prepared -c "$2" -j 2 -T "$WINDOW" \
    ${3:+-R "$3"} -D digest="$DIGEST" -D client="$CLIENT_ID" -D replay_keys=500 -D replay_run="$REPLAY_RUN" \
    -D clients="$2" -D targets="$REFUND_TARGETS" -D k=0 -f "bench/sql/$1.sql" "$DB"
}

ok_rate() { # ok_rate NAME: the 2xx responses per second of wrk's window NAME (raw/NAME.txt), one decimal
  awk '/ requests in / { requests = $1; seconds = $4; sub(/s,$/, "", seconds); if (seconds ~ /m$/) { sub(/m$/, "", seconds); seconds *= 60 } }
       /Non-2xx or 3xx responses:/ { failed = $NF }
       END { if (seconds > 0) printf "%.1f\n", (requests - failed) / seconds }' "$RAW/$1.txt"
}

paced_connections() { # paced_connections RATE: wrk connections for an open-model load of RATE requests/s
  # against a 200 ms provider: four times the requests in flight at that rate (RATE x 0.2 s), so a
  # connection is free whenever a send is due, 64 to 2,000, even for wrk's two threads
  awk -v r="$1" 'BEGIN { c = int(r * 0.8 / 2 + 1) * 2; if (c < 64) c = 64; if (c > 2000) c = 2000; print c }'
}

echo "Starting Payonce (production-like, bench profile)"
start_payonce main
CLIENT_JSON=$(curl -sf -X POST "http://127.0.0.1:$PORT/admin/clients" -H "Authorization: Bearer $ADMIN_TOKEN" \
  -H 'Content-Type: application/json' -d '{"name":"bench"}')
export PAYONCE_API_KEY=$(echo "$CLIENT_JSON" | sed -n 's/.*"apiKey":"\([^"]*\)".*/\1/p')
CLIENT_ID=$(echo "$CLIENT_JSON" | sed -n 's/.*"id":"\([^"]*\)".*/\1/p')
DIGEST=$(printf '%s' "$PAYONCE_API_KEY" | sha256sum | cut -d' ' -f1)

echo "Warming up for ${WARMUP}s"
LOADGEN_CPU=/dev/null RUN="warm" wrk_run mix 32 "$WARMUP" > "$RAW/warmup.txt" 2>&1

REPLAY_RUN="new1"
REFUND_TARGETS=50000 # payments that bench/sql/new-refund.sql refunds (created before the refund windows)
echo "New payments vs pgbench at the same rate and flat out, $PAIRS rounds"
for i in $(seq 1 "$PAIRS"); do
  RUN="new$i" window "new-service-$i" new-service wrk_run new-payments 32 "$WINDOW"
  # The same SQL at the rate Payonce just reached, same connections: both sides pay the same
  # rate effect, so PostgreSQL's CPU per payment compares like with like (BENCHMARKING.md).
  RUN="x" window "new-pgbench-rate-$i" new-pgbench-rate pgbench_run new-payment 32 "$(ok_rate "new-service-$i")"
  RUN="x" window "new-pgbench-$i" new-pgbench pgbench_run new-payment 32
done
export REPLAY_RUN REPLAY_KEYS=500 REPLAY_THREADS=2

echo "Replays vs the no-database baseline and pgbench, $PAIRS rounds"
for i in $(seq 1 "$PAIRS"); do
  RUN="replay$i" window "replay-service-$i" replay-service wrk_run replays 32 "$WINDOW"
  RUN="base$i" window "replay-baseline-$i" replay-baseline wrk_run baseline 32 "$WINDOW"
  RUN="x" window "replay-pgbench-$i" replay-pgbench pgbench_run replay 32
done

# Refunds need SUCCEEDED payments of the bench client: those of the windows above.
REFUND_PAYMENTS="$RAW/refund-payments.txt"
sql "SELECT id FROM payments WHERE client_id = '$CLIENT_ID' AND status = 'SUCCEEDED' ORDER BY id" > "$REFUND_PAYMENTS"
export REFUND_PAYMENTS
echo "Refunds: new refunds, pgbench at the same rate, refund replays and the no-database baseline, $PAIRS rounds ($(wc -l < "$REFUND_PAYMENTS") payments to refund)"
# pgbench's refunds (bench/sql/new-refund.sql) refund payments of their own, made here: SUCCEEDED
# payments of the bench client with the simulator's charge for each, numbered 1..REFUND_TARGETS,
# so that pgbench can name one without a statement Payonce does not issue.
sql "INSERT INTO payments (id, client_id, order_id, amount, currency, payment_method, status, provider_reference,
       created_at, updated_at, version, provider_key_generation)
     SELECT ('00000000-0000-4000-8000-' || lpad(n::text, 12, '0'))::uuid, '$CLIENT_ID', 'rt-' || n, 1200, 'ILS',
       'pm_card_visa', 'SUCCEEDED', 'rt_' || n, now(), now(), 1, 1
     FROM generate_series(1, $REFUND_TARGETS) AS n;
     INSERT INTO simulated_provider_charges (provider_reference, provider_idempotency_key, amount, currency, payment_method,
       outcome, decline_code, created_at)
     SELECT 'rt_' || n, 'rt-' || n, 1200, 'ILS', 'pm_card_visa', 'SUCCEEDED', NULL, now() FROM generate_series(1, $REFUND_TARGETS) AS n;
     ANALYZE payments, simulated_provider_charges"
# The warm-up above ran payments only: one window of new refunds, not measured, so that the first
# measured one does not pay the refund path's JIT compilation (a long-running server has paid it).
LOADGEN_CPU=/dev/null RUN="rwarm" wrk_run new-refunds 32 "$WINDOW" > "$RAW/warmup-refunds.txt" 2>&1
for i in $(seq 1 "$PAIRS"); do
  RUN="rnew$i" window "refund-new-$i" refund-new wrk_run new-refunds 32 "$WINDOW"
  RUN="x" window "refund-pgbench-rate-$i" refund-pgbench-rate pgbench_run new-refund 32 "$(ok_rate "refund-new-$i")"
  REPLAY_RUN="rnew1" RUN="x" window "refund-replay-$i" refund-replay wrk_run refund-replays 32 "$WINDOW"
  RUN="rbase$i" window "refund-baseline-$i" refund-baseline wrk_run baseline 32 "$WINDOW"
done

echo "Same-key storms, 256 connections: payments, then refunds"
RUN="storm" window storm storm wrk_run storm 256 "$WINDOW"
sql "SELECT count(*) || ' ' || coalesce(min(charges), 0) || ' ' || coalesce(max(charges), 0)
     FROM (SELECT r.idempotency_key, count(c.provider_reference) AS charges
           FROM idempotency_records r
           LEFT JOIN simulated_provider_charges c ON c.provider_idempotency_key = 'payonce-payment-' || r.resource_id
           WHERE r.idempotency_key LIKE 'storm-%' GROUP BY r.idempotency_key) per_key" > "$RAW/storm-charges.txt"
RUN="rstorm" window refund-storm refund-storm wrk_run refund-storm 256 "$WINDOW"
sql "SELECT count(*) || ' ' || coalesce(min(refunds), 0) || ' ' || coalesce(max(refunds), 0)
     FROM (SELECT r.idempotency_key, count(p.provider_reference) AS refunds
           FROM idempotency_records r
           LEFT JOIN simulated_provider_refunds p ON p.provider_idempotency_key = 'payonce-refund-' || r.resource_id
           WHERE r.idempotency_key LIKE 'rstorm-%' GROUP BY r.idempotency_key) per_key" > "$RAW/refund-storm-refunds.txt"

echo "Mix: 90 % new, 10 % retries"
RUN="mix" window mix mix wrk_run mix 32 "$WINDOW"

echo "JFR profiles (CPU, allocation, virtual-thread pinning), one unmeasured window each"
RUN="pnew" profile profile-new-payments wrk_run new-payments 32 "$PROFILE_WINDOW"
REPLAY_RUN="new1" RUN="x" profile profile-replays wrk_run replays 32 "$PROFILE_WINDOW"
RUN="pref" profile profile-new-refunds wrk_run new-refunds 32 "$PROFILE_WINDOW"
REPLAY_RUN="rnew1" RUN="x" profile profile-refund-replays wrk_run refund-replays 32 "$PROFILE_WINDOW"

echo "Slow provider (200 ms) against the instant one, 200 connections, then open-model latency, $PAIRS rounds"
# A second instance with the 200 ms provider on PORT + 1, the first one (instant) kept warm:
# their windows alternate, so the ratio compares the two in the same conditions.
start_payonce slow --payonce.gateway.simulator.latency=200ms
SLOW_PORT=$((PORT + 1))
# Warmed until it has served as many requests as the first instance's warm-up, not for a fixed
# time: on a slow machine 60 s left its JIT compiler busy through the first windows (2026-11-30-1755:
# 8.4 of the slow JVM's 25.6 CPU seconds in slow-1 were compilation).
warm_as_much_as_main slow "$SLOW_PORT" new-payments 200 > "$RAW/warmup-slow.txt" 2>&1
# Latency around the provider: the slow instance at a fixed rate of half the instant provider's
# saturation (its 2xx per second in the instant window just measured), an open-model load
# (lua/paced-payments.lua); after the rounds, once at the saturation rate itself, for information.
saturation_rates=""
for i in $(seq 1 "$PAIRS"); do
  RUN="slow$i" CPU_PID="$SLOW_PID" TARGET_PORT="$SLOW_PORT" window "slow-$i" slow wrk_run new-payments 200 "$WINDOW"
  RUN="instant$i" window "instant-$i" instant wrk_run new-payments 200 "$WINDOW"
  saturation=$(ok_rate "instant-$i")
  saturation_rates="$saturation_rates $saturation"
  half=$(awk -v r="${saturation:-0}" 'BEGIN { printf "%.1f", r / 2 }')
  PACE_RATE="$half" RUN="half$i" CPU_PID="$SLOW_PID" TARGET_PORT="$SLOW_PORT" window "latency-half-$i" latency-half \
    wrk_run paced-payments "$(paced_connections "$half")" "$WINDOW"
done
saturation=$(echo $saturation_rates | tr ' ' '\n' | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
PACE_RATE="$saturation" RUN="full" CPU_PID="$SLOW_PID" TARGET_PORT="$SLOW_PORT" window "latency-saturation" latency-saturation \
  wrk_run paced-payments "$(paced_connections "$saturation")" "$WINDOW"
RUN="pslow" CPU_PID="$SLOW_PID" TARGET_PORT="$SLOW_PORT" profile profile-slow wrk_run new-payments 200 "$PROFILE_WINDOW"
stop_slow

echo "Growth: claim and replay latency at 0 and ${GROWTH// /, } rows, $ROUNDS alternating rounds"
# Each size is its own table, loaded once and renamed into place as idempotency_records for its
# windows (PostgreSQL re-plans the server's prepared statements after the rename): the sizes
# alternate without reloading millions of rows between windows.
# CASCADE: every table that references payments (refunds, webhook events) goes too.
sql "TRUNCATE idempotency_records, payments, simulated_provider_charges, simulated_provider_refunds CASCADE"
for rows in $GROWTH; do
  echo "  loading $rows rows"
  sql "DROP TABLE IF EXISTS bench_growth_$rows"
  sql "CREATE TABLE bench_growth_$rows (LIKE idempotency_records INCLUDING ALL)"
  sql "INSERT INTO bench_growth_$rows (scope, idempotency_key, operation, request_fingerprint, status, attempt,
         resource_id, response_status, response_headers, response_body, created_at, completed_at, expires_at)
       SELECT 'growth', 'g-' || n, 'payment', md5(n::text) || md5((n + 1)::text), 'COMPLETED', 1, gen_random_uuid(), 201,
         '{}', '{}', now(), now(), now() + interval '30 days'
       FROM generate_series(1, $rows) AS n"
  sql "VACUUM ANALYZE bench_growth_$rows"
done
live=0
use_rows() { # use_rows N: the table of N rows becomes idempotency_records
  if [ "$1" != "$live" ]; then
    sql "BEGIN; ALTER TABLE idempotency_records RENAME TO bench_growth_$live;
         ALTER TABLE bench_growth_$1 RENAME TO idempotency_records; COMMIT"
    live=$1
  fi
}
for round in $(seq 1 "$ROUNDS"); do
  for rows in 0 $GROWTH; do
    use_rows "$rows"
    RUN="grow$rows-$round" window "growth-claim-$rows-$round" growth-claim wrk_run new-payments 8 "$WINDOW"
    REPLAY_RUN="grow$rows-$round" REPLAY_KEYS=200 RUN="x" window "growth-replay-$rows-$round" growth-replay wrk_run replays 8 "$WINDOW"
  done
done
# The cleanup phase runs on the largest table, as a long-lived deployment would.
use_rows "${GROWTH##* }"
for rows in 0 $GROWTH; do
  if [ "$rows" != "$live" ]; then
    sql "DROP TABLE IF EXISTS bench_growth_$rows"
  fi
done
stop_payonce

echo "Cleanup: 1,000,000 expired records deleted while new payments run"
CLEANUP=true start_payonce cleanup --payonce.idempotency.cleanup.interval=1s \
  --payonce.idempotency.cleanup.batch-size=1000
warm_as_much_as_main clean "$PORT" new-payments 8 > "$RAW/warmup-cleanup.txt" 2>&1
sql "INSERT INTO idempotency_records (scope, idempotency_key, operation, request_fingerprint, status, attempt,
       resource_id, response_status, response_headers, response_body, created_at, completed_at, expires_at)
     SELECT 'expired', 'e-' || n, 'payment', repeat('0', 64), 'COMPLETED', 1, gen_random_uuid(), 201, '{}', '{}',
       now() - interval '2 days', now() - interval '2 days', now() - interval '1 day'
     FROM generate_series(1, 1000000) AS n"
before=$(sql "SELECT count(*) FROM idempotency_records WHERE scope = 'expired'")
started=$(date +%s.%N)
RUN="clean" window cleanup-claim cleanup-claim wrk_run new-payments 8 "$WINDOW"
ended=$(date +%s.%N)
after=$(sql "SELECT count(*) FROM idempotency_records WHERE scope = 'expired'")
echo "$before $after $started $ended" > "$RAW/cleanup.txt"
stop_payonce

echo "Writing the report"
python3 "$BENCH_DIR/report.py" "$OUT" "$WINDOW" "$PAIRS" "$GROWTH" "$ROUNDS"
echo "Report: $OUT/report.md"
