#!/usr/bin/env bash
# JVM CPU per request, robust to a busy machine: starts Payonce's jar as bench/run.sh does,
# warms it, then runs windows of new payments, of replays and of new refunds with wrk at modest concurrency and
# divides the JVM's CPU time in each window (utime + stime from /proc/<pid>/stat) by the
# requests it completed. Prints min / median / max per scenario. See bench/README.md.
#
# Usage: bash bench/cpu.sh [JAR]   (default: builds nothing, uses target/payonce-*.jar)
# Settings: CPU_PORT (18090), CPU_DB (payonce_cpu), CPU_WINDOW (10 s), CPU_REPEATS (3),
# CPU_WARMUP_REQUESTS (30000: the warm-up runs the mix in 10 s windows until that many requests
# completed, so a busy machine warms the JVM as much as an idle one), CPU_CONNECTIONS (8), CPU_JFR (a folder: record a JFR profile of one
# extra window of each scenario there), CPU_JAVA_OPTS (extra JVM options, for an A/B of a JVM
# setting; none by default, as a user runs the jar), PGHOST_ADDR / PGPORT_NUM.
# Each window also prints the share of the JVM's CPU spent in the kernel (stime): system calls
# such as socket reads and writes, and the virtual threads' parking and waking.
set -euo pipefail
cd "$(dirname "$0")/.."
export BENCH_DIR="$PWD/bench"
JAR="${1:-$(ls target/payonce-*.jar | grep -v original | head -1)}"
PORT="${CPU_PORT:-18090}"
DB="${CPU_DB:-payonce_cpu}"
WINDOW="${CPU_WINDOW:-10}"
REPEATS="${CPU_REPEATS:-3}"
WARMUP_REQUESTS="${CPU_WARMUP_REQUESTS:-30000}"
CONNECTIONS="${CPU_CONNECTIONS:-8}"
JFR_DIR="${CPU_JFR:-}"
source scripts/find-jdk.sh > /dev/null
source scripts/ensure-postgres.sh
source bench/lib.sh

if ! command -v wrk > /dev/null; then
  echo "Installing wrk from Debian's packages"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk > /dev/null
fi

psql -h "$PGHOST_ADDR" -p "$PGPORT_NUM" -U postgres -d postgres -v ON_ERROR_STOP=1 -q \
  -c "DROP DATABASE IF EXISTS $DB WITH (FORCE)" -c "CREATE DATABASE $DB"
LOG=$(mktemp)
ADMIN_TOKEN="$(head -c 32 /dev/urandom | base64 | tr '+/' '-_' | tr -d '=')"
SPRING_DATASOURCE_URL="jdbc:postgresql://$PGHOST_ADDR:$PGPORT_NUM/$DB" SPRING_DATASOURCE_USERNAME=postgres \
  SPRING_DATASOURCE_PASSWORD="" PAYONCE_SECURITY_ADMIN_TOKEN="$ADMIN_TOKEN" \
  "$JAVA_HOME/bin/java" ${CPU_JAVA_OPTS:-} -jar "$JAR" --server.port="$PORT" --spring.datasource.hikari.maximum-pool-size=32 \
  --payonce.security.rate-limit.enabled=false --payonce.idempotency.quota.max-live-records=0 > "$LOG" 2>&1 &
PID=$!
cleanup() {
  kill "$PID" 2> /dev/null || true
  wait "$PID" 2> /dev/null || true
  psql -h "$PGHOST_ADDR" -p "$PGPORT_NUM" -U postgres -d postgres -q -c "DROP DATABASE IF EXISTS $DB WITH (FORCE)" || true
  rm -f "$LOG"
}
trap cleanup EXIT
for _ in $(seq 1 600); do # start-up takes minutes on a busy machine
  curl -sf "http://127.0.0.1:$PORT/actuator/health" > /dev/null && break
  sleep 1
done
CLIENT_JSON=$(curl -sf -X POST "http://127.0.0.1:$PORT/admin/clients" -H "Authorization: Bearer $ADMIN_TOKEN" \
  -H 'Content-Type: application/json' -d '{"name":"cpu"}')
export PAYONCE_API_KEY=$(echo "$CLIENT_JSON" | sed -n 's/.*"apiKey":"\([^"]*\)".*/\1/p')
URL="http://127.0.0.1:$PORT"

warmed=0
round=0
while [ "$warmed" -lt "$WARMUP_REQUESTS" ]; do
  round=$((round + 1))
  done_now=$(RUN="warm$round" wrk -t2 -c"$CONNECTIONS" -d10s -s bench/lua/mix.lua "$URL" | sed -n 's/^ *\([0-9]*\) requests in.*/\1/p')
  warmed=$((warmed + done_now))
done
# Keys for the replays: one window of new payments under a known run name.
RUN=keys wrk -t2 -c"$CONNECTIONS" -d5s -s bench/lua/new-payments.lua "$URL" > /dev/null
export REPLAY_RUN=keys REPLAY_KEYS=200 REPLAY_THREADS=2
# New refunds refund 100 minor units of the SUCCEEDED payments made so far (1,200 each).
REFUND_PAYMENTS=$(mktemp)
psql -h "$PGHOST_ADDR" -p "$PGPORT_NUM" -U postgres -d "$DB" -Atq \
  -c "SELECT id FROM payments WHERE status = 'SUCCEEDED' ORDER BY id" > "$REFUND_PAYMENTS"
export REFUND_PAYMENTS
echo "New refunds refund $(wc -l < "$REFUND_PAYMENTS") payments"
# The warm-up ran payments only: one window of new refunds, not measured, so that the first
# measured one does not pay the refund path's JIT compilation.
RUN=rwarm wrk -t2 -c"$CONNECTIONS" -d"$WINDOW"s -s bench/lua/new-refunds.lua "$URL" > /dev/null

measure() { # measure LABEL SCRIPT RUN: prints "LABEL requests cpu_ms jit_ms ms_per_request ms_per_request_without_jit kernel_share"
  local before after jit_before jit_after sys_before sys_after out requests
  before=$(jvm_cpu_ms "$PID")
  jit_before=$(jvm_jit_ms "$PID")
  sys_before=$(jvm_sys_ms "$PID")
  out=$(RUN="$3" wrk -t2 -c"$CONNECTIONS" -d"$WINDOW"s -s "bench/lua/$2.lua" "$URL")
  after=$(jvm_cpu_ms "$PID")
  jit_after=$(jvm_jit_ms "$PID")
  sys_after=$(jvm_sys_ms "$PID")
  requests=$(echo "$out" | sed -n 's/^ *\([0-9]*\) requests in.*/\1/p')
  awk -v l="$1" -v r="$requests" -v c="$((after - before))" -v j="$((jit_after - jit_before))" \
    -v k="$((sys_after - sys_before))" \
    'BEGIN { printf "%s %d %d %d %.3f %.3f %.2f\n", l, r, c, j, c / r, (c - j) / r, k / c }'
}

results=$(mktemp)
for i in $(seq 1 "$REPEATS"); do
  measure new new-payments "cpu$i" >> "$results"
  measure replay replays "x$i" >> "$results"
  measure refund new-refunds "cpu$i" >> "$results"
done
if [ -n "$JFR_DIR" ]; then
  mkdir -p "$JFR_DIR"
  for scenario in new-payments replays new-refunds; do
    RUN="jfr" jfr_profile "$PID" "$JFR_DIR/$scenario.jfr" wrk -t2 -c"$CONNECTIONS" -d"$WINDOW"s -s "bench/lua/$scenario.lua" "$URL" > /dev/null
    jfr_summary "$JFR_DIR/$scenario.jfr" > "$JFR_DIR/$scenario.md"
  done
fi
echo "scenario requests jvm_cpu_ms jit_ms ms_per_request ms_per_request_without_jit kernel_share"
cat "$results"
for scenario in new replay refund; do
  for column in 5 6; do
    grep "^$scenario " "$results" | awk -v c="$column" '{ print $c }' | sort -n | awk -v s="$scenario" -v c="$column" '
      { v[NR] = $1 } END { printf "%s: JVM CPU per request%s (ms) min %.3f / median %.3f / max %.3f\n", s,
        c == 6 ? " without the JIT compiler threads" : "", v[1], v[int((NR + 1) / 2)], v[NR] }'
  done
done
rm -f "$results" "$REFUND_PAYMENTS"
