#!/usr/bin/env bash
# Proves that HAProxy's request timeout defeats slowloris (issue 15, item 2), bounded and
# against 127.0.0.1 only: starts one Payonce instance and HAProxy in front of it, then runs
# the same slowloris twice, each time probing /actuator/health once a second:
#   1. at Payonce directly: its connections fill and health stops answering;
#   2. at HAProxy: health keeps answering, and HAProxy closes every attack connection after
#      timeout http-request (5 s) however regularly it trickles.
# Payonce runs here with server.tomcat.max-connections=200 (CHECK_MAX_CONNECTIONS) so that a
# few hundred connections show what about 8,300 do to the default 8,192. Exits non-zero if
# health failed through HAProxy or an attack connection outlived the timeout.
# The database is SPRING_DATASOURCE_URL / _USERNAME / _PASSWORD (default: a local payonce_deploy_check).
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/find-jdk.sh
source scripts/ensure-postgres.sh
source deploy/haproxy/lib.sh
ensure_haproxy
trap stop_started EXIT

APP_PORT="${CHECK_APP_PORT:-18181}"
PROXY_PORT="${CHECK_PROXY_PORT:-18180}"
CONNECTIONS="${CHECK_CONNECTIONS:-600}"
DURATION="${CHECK_DURATION:-20}"
if [ -z "${SPRING_DATASOURCE_URL:-}" ]; then
  psql -h "$PGHOST_ADDR" -p "$PGPORT_NUM" -U postgres -d postgres -q -v ON_ERROR_STOP=1 \
    -c "DROP DATABASE IF EXISTS payonce_deploy_check WITH (FORCE)" -c "CREATE DATABASE payonce_deploy_check"
  export SPRING_DATASOURCE_URL="jdbc:postgresql://$PGHOST_ADDR:$PGPORT_NUM/payonce_deploy_check"
  export SPRING_DATASOURCE_USERNAME=postgres SPRING_DATASOURCE_PASSWORD=""
fi

start_payonce "$APP_PORT" --server.tomcat.max-connections="${CHECK_MAX_CONNECTIONS:-200}" \
  --server.tomcat.accept-count=10 --spring.datasource.hikari.maximum-pool-size=4
wait_healthy "http://127.0.0.1:$APP_PORT" 120
# The per-source cap is lifted here: the timeouts alone must hold.
start_haproxy "127.0.0.1:$PROXY_PORT" "127.0.0.1:$APP_PORT" 100000
wait_healthy "http://127.0.0.1:$PROXY_PORT" 30

probe() { # probe PORT SECONDS: GET /actuator/health once a second, 2 s each; prints "ok total"
  local ok=0 total=0 end=$((SECONDS + $2))
  while [ "$SECONDS" -lt "$end" ]; do
    total=$((total + 1))
    if curl -sf --max-time 2 -o /dev/null "http://127.0.0.1:$1/actuator/health"; then
      ok=$((ok + 1))
      echo "$(date -u +%T) 200" >&2
    else
      echo "$(date -u +%T) no answer" >&2
    fi
    sleep 1
  done
  echo "$ok $total"
}

attack() { # attack PORT: slowloris at PORT for DURATION, health probed at the same PORT from
  # its own process once the attack has had 3 s to open its connections; prints the
  # slowloris report with the probes
  (sleep 3 && probe "$1" $((DURATION - 5))) > "$LOG_DIR/probe-$1.txt" 2> "$LOG_DIR/probe-$1.log" &
  local prober=$!
  local report
  report=$(python3 deploy/haproxy/slowloris.py --port "$1" --connections "$CONNECTIONS" --duration "$DURATION")
  wait "$prober"
  read -r ok total < "$LOG_DIR/probe-$1.txt"
  echo "${report%\}}, \"health_probes\": $total, \"health_probes_ok\": $ok}"
}

echo "1. Slowloris ($CONNECTIONS connections, ${DURATION} s) at Payonce directly, port $APP_PORT"
DIRECT=$(attack "$APP_PORT")
echo "   $DIRECT"
wait_healthy "http://127.0.0.1:$APP_PORT" 60
# HAProxy's own health checks (every 2 s, down after 3 failures) saw the instance down during
# the attack, and may still mark it down a moment after it recovered: wait until HAProxy has
# answered healthy for 10 s in a row.
healthy_in_a_row=0
for _ in $(seq 1 60); do
  if curl -sf --max-time 2 -o /dev/null "http://127.0.0.1:$PROXY_PORT/actuator/health"; then
    healthy_in_a_row=$((healthy_in_a_row + 1))
  else
    healthy_in_a_row=0
  fi
  [ "$healthy_in_a_row" -ge 10 ] && break
  sleep 1
done
echo "2. The same slowloris through HAProxy, port $PROXY_PORT"
PROXIED=$(attack "$PROXY_PORT")
echo "   $PROXIED"

python3 - "$DIRECT" "$PROXIED" << 'PY'
import json, sys
direct, proxied = (json.loads(arg) for arg in sys.argv[1:3])
print()
print("| | direct to Payonce | through HAProxy |")
print("| --- | --- | --- |")
for label, key in [("health probes answered 200", None),
                   ("attack connections open at once (most)", "most_open_at_once"),
                   ("attack connections closed by the server", "closed_by_server"),
                   ("longest an attack connection lived (s)", "longest_seconds_before_server_closed"),
                   ("attack connections never closed", "still_open_at_end"),
                   ("connections not accepted", "connect_failures")]:
    if key is None:
        cells = [f"{r['health_probes_ok']} of {r['health_probes']}" for r in (direct, proxied)]
    else:
        cells = [str(r[key]) for r in (direct, proxied)]
    print(f"| {label} | {cells[0]} | {cells[1]} |")
ok = (proxied["health_probes"] > 0 and proxied["health_probes_ok"] == proxied["health_probes"]
      and proxied["closed_by_server"] > 0
      and (proxied["longest_seconds_before_server_closed"] or 0) <= 8)
print()
print("PASS: health answered through HAProxy throughout, attack connections cut at its request timeout"
      if ok else "FAIL: see the table")
sys.exit(0 if ok else 1)
PY
