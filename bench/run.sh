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
DB=payonce_bench
STAMP=$(date -u +%Y-%m-%d-%H%M)
OUT="$BENCH_DIR/results/$STAMP"
RAW="$OUT/raw"
mkdir -p "$RAW"
: > "$RAW/windows.tsv"

source scripts/find-jdk.sh
source scripts/ensure-postgres.sh

if ! command -v wrk > /dev/null || ! command -v gnuplot > /dev/null || [ ! -x /usr/bin/time ]; then
  echo "Installing wrk, gnuplot and time from Debian's packages"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk gnuplot-nox time > /dev/null
fi

sql() { psql -h "$PGHOST_ADDR" -p "$PGPORT_NUM" -U postgres -d "$DB" -v ON_ERROR_STOP=1 -qtAc "$1"; }

psql -h "$PGHOST_ADDR" -p "$PGPORT_NUM" -U postgres -d postgres -v ON_ERROR_STOP=1 -q \
  -c "DROP DATABASE IF EXISTS $DB WITH (FORCE)" -c "CREATE DATABASE $DB"

echo "Building the jar"
MAVEN_ARGS="--batch-mode --no-transfer-progress -q" ./mvnw -DskipTests package
JAR=$(ls target/payonce-*.jar | grep -v original | head -1)

ADMIN_TOKEN="bench-$(head -c 24 /dev/urandom | base64 | tr -d '/+=')"
PAYONCE_PID=""

start_payonce() { # start_payonce NAME [--setting=value ...]
  local name="$1"
  shift
  SPRING_DATASOURCE_URL="jdbc:postgresql://$PGHOST_ADDR:$PGPORT_NUM/$DB" \
  SPRING_DATASOURCE_USERNAME=postgres SPRING_DATASOURCE_PASSWORD="" \
  PAYONCE_SECURITY_ADMIN_TOKEN="$ADMIN_TOKEN" \
    "$JAVA_HOME/bin/java" -jar "$JAR" --spring.profiles.active=bench --payonce.benchmark.baseline.enabled=true \
      --server.port="$PORT" \
      --spring.datasource.hikari.maximum-pool-size=32 --payonce.idempotency.cleanup.enabled="${CLEANUP:-false}" \
      --payonce.security.rate-limit.enabled=false --payonce.idempotency.quota.max-live-records=0 \
      "$@" > "$RAW/payonce-$name.log" 2>&1 &
  PAYONCE_PID=$!
  for _ in $(seq 1 120); do
    if curl -sf "http://127.0.0.1:$PORT/actuator/health" > /dev/null; then
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
trap stop_payonce EXIT

# Clock ticks: the whole machine's (total, steal), then CPU used so far by Payonce's JVM and by
# PostgreSQL (every server process, plus the postmaster's reaped children, so backends that come
# and go inside a window still count).
cpu_counters() {
  local machine java=0 postgres=0 master
  machine=$(awk '/^cpu / { total = 0; for (i = 2; i <= NF; i++) total += $i; print total, $9 }' /proc/stat)
  if [ -n "$PAYONCE_PID" ] && [ -r "/proc/$PAYONCE_PID/stat" ]; then
    java=$(awk '{ print $14 + $15 }' "/proc/$PAYONCE_PID/stat")
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

window() { # window NAME KIND COMMAND...: runs one measured window; records CPU steal and who used the CPU
  local name="$1" kind="$2"
  shift 2
  local before after started ended
  before=$(cpu_counters)
  started=$(date +%s.%N)
  LOADGEN_CPU="$RAW/$name.loadgen-cpu" "$@" > "$RAW/$name.txt" 2>&1
  ended=$(date +%s.%N)
  after=$(cpu_counters)
  echo "$before $after $started $ended $(cat "$RAW/$name.loadgen-cpu")" | awk -v n="$name" -v k="$kind" -v hz="$(getconf CLK_TCK)" -v cores="$(nproc)" '{
      steal = ($5 - $1) > 0 ? 100 * ($6 - $2) / ($5 - $1) : 0
      seconds = ($10 - $9) * cores
      printf "%s\t%s\t%.1f\t%.1f\t%.1f\t%.1f\n", n, k, steal,
        100 * ($7 - $3) / hz / seconds, 100 * ($8 - $4) / hz / seconds, 100 * ($11 + $12) / seconds
    }' >> "$RAW/windows.tsv"
  echo "  $name done"
}

wrk_run() { # wrk_run SCRIPT CONNECTIONS SECONDS
  RUN="$RUN" /usr/bin/time -f "%U %S" -o "$LOADGEN_CPU" wrk -t2 -c"$2" -d"$3"s --timeout 30s --latency -s "$BENCH_DIR/lua/$1.lua" "http://127.0.0.1:$PORT"
}

pgbench_run() { # pgbench_run SQL CONNECTIONS
  /usr/bin/time -f "%U %S" -o "$LOADGEN_CPU" pgbench -h "$PGHOST_ADDR" -p "$PGPORT_NUM" -U postgres -n -M prepared -c "$2" -j 2 -T "$WINDOW" \
    -D digest="$DIGEST" -D client="$CLIENT_ID" -D replay_keys=500 -D replay_run="$REPLAY_RUN" \
    -f "bench/sql/$1.sql" "$DB"
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
echo "New payments vs pgbench, $PAIRS pairs"
for i in $(seq 1 "$PAIRS"); do
  RUN="new$i" window "new-service-$i" new-service wrk_run new-payments 32 "$WINDOW"
  RUN="x" window "new-pgbench-$i" new-pgbench pgbench_run new-payment 32
done
export REPLAY_RUN REPLAY_KEYS=500 REPLAY_THREADS=2

echo "Replays vs the no-database baseline and pgbench, $PAIRS rounds"
for i in $(seq 1 "$PAIRS"); do
  RUN="replay$i" window "replay-service-$i" replay-service wrk_run replays 32 "$WINDOW"
  RUN="base$i" window "replay-baseline-$i" replay-baseline wrk_run baseline 32 "$WINDOW"
  RUN="x" window "replay-pgbench-$i" replay-pgbench pgbench_run replay 32
done

echo "Same-key storm, 256 connections"
RUN="storm" window storm storm wrk_run storm 256 "$WINDOW"
sql "SELECT count(*) || ' ' || coalesce(min(charges), 0) || ' ' || coalesce(max(charges), 0)
     FROM (SELECT r.idempotency_key, count(c.provider_reference) AS charges
           FROM idempotency_records r
           LEFT JOIN simulated_provider_charges c ON c.provider_idempotency_key = 'payonce-payment-' || r.resource_id
           WHERE r.idempotency_key LIKE 'storm-%' GROUP BY r.idempotency_key) per_key" > "$RAW/storm-charges.txt"

echo "Mix: 90 % new, 10 % retries"
RUN="mix" window mix mix wrk_run mix 32 "$WINDOW"
stop_payonce

echo "Slow provider: 200 ms, 200 connections"
start_payonce slow --payonce.gateway.simulator.latency=200ms
LOADGEN_CPU=/dev/null RUN="slowwarm" wrk_run new-payments 200 "$RESTART_WARMUP" > "$RAW/warmup-slow.txt" 2>&1
RUN="slow" window slow slow wrk_run new-payments 200 "$WINDOW"
stop_payonce

echo "Growth: claim and replay latency at 0 and ${GROWTH// /, } rows"
start_payonce growth
LOADGEN_CPU=/dev/null RUN="growwarm" wrk_run mix 32 "$RESTART_WARMUP" > "$RAW/warmup-growth.txt" 2>&1
# CASCADE: every table that references payments (refunds, webhook events) goes too.
sql "TRUNCATE idempotency_records, payments, simulated_provider_charges, simulated_provider_refunds CASCADE"
loaded=0
for rows in 0 $GROWTH; do
  if [ "$rows" -gt "$loaded" ]; then
    echo "  loading $((rows - loaded)) rows"
    sql "INSERT INTO idempotency_records (client_id, idempotency_key, operation, request_fingerprint, status, attempt,
           resource_id, response_status, response_headers, response_body, created_at, completed_at, expires_at)
         SELECT 'growth', 'g-' || n, 'payment', md5(n::text) || md5((n + 1)::text), 'COMPLETED', 1, gen_random_uuid(), 201,
           '{}', '{}', now(), now(), now() + interval '30 days'
         FROM generate_series($loaded + 1, $rows) AS n"
    sql "VACUUM ANALYZE idempotency_records"
    loaded=$rows
  fi
  RUN="grow$rows" window "growth-claim-$rows" growth-claim wrk_run new-payments 8 "$WINDOW"
  REPLAY_RUN="grow$rows" REPLAY_KEYS=200 RUN="x" window "growth-replay-$rows" growth-replay wrk_run replays 8 "$WINDOW"
done
stop_payonce

echo "Cleanup: 1,000,000 expired records deleted while new payments run"
CLEANUP=true start_payonce cleanup --payonce.idempotency.cleanup.interval=1s \
  --payonce.idempotency.cleanup.batch-size=1000
LOADGEN_CPU=/dev/null RUN="cleanwarm" wrk_run new-payments 8 "$RESTART_WARMUP" > "$RAW/warmup-cleanup.txt" 2>&1
sql "INSERT INTO idempotency_records (client_id, idempotency_key, operation, request_fingerprint, status, attempt,
       resource_id, response_status, response_headers, response_body, created_at, completed_at, expires_at)
     SELECT 'expired', 'e-' || n, 'payment', repeat('0', 64), 'COMPLETED', 1, gen_random_uuid(), 201, '{}', '{}',
       now() - interval '2 days', now() - interval '2 days', now() - interval '1 day'
     FROM generate_series(1, 1000000) AS n"
before=$(sql "SELECT count(*) FROM idempotency_records WHERE client_id = 'expired'")
started=$(date +%s.%N)
RUN="clean" window cleanup-claim cleanup-claim wrk_run new-payments 8 "$WINDOW"
ended=$(date +%s.%N)
after=$(sql "SELECT count(*) FROM idempotency_records WHERE client_id = 'expired'")
echo "$before $after $started $ended" > "$RAW/cleanup.txt"
stop_payonce

echo "Writing the report"
python3 "$BENCH_DIR/report.py" "$OUT" "$WINDOW" "$PAIRS" "$GROWTH"
echo "Report: $OUT/report.md"
