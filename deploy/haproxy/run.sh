#!/usr/bin/env bash
# Starts one Payonce instance on 127.0.0.1:${PAYONCE_APP_PORT:-8081} and HAProxy in front of it
# on ${PAYONCE_PROXY_BIND:-127.0.0.1:8080} (deploy/haproxy/haproxy.cfg); Ctrl+C stops both.
# The database is SPRING_DATASOURCE_URL / _USERNAME / _PASSWORD; see docs/deployment.md.
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/find-jdk.sh
source deploy/haproxy/lib.sh
ensure_haproxy
trap stop_started EXIT

APP_PORT="${PAYONCE_APP_PORT:-8081}"
BIND="${PAYONCE_PROXY_BIND:-127.0.0.1:8080}"
start_payonce "$APP_PORT" "$@"
wait_healthy "http://127.0.0.1:$APP_PORT" 120
start_haproxy "$BIND" "127.0.0.1:$APP_PORT" "${PAYONCE_PROXY_MAX_CONN_PER_SOURCE:-200}"
wait_healthy "http://$BIND" 30
echo "Payonce answers through HAProxy at http://$BIND (logs in target/deploy/); Ctrl+C stops both"
wait
