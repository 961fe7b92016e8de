# Sourced by run.sh and slowloris-check.sh: start one Payonce instance and HAProxy in front of
# it, and stop exactly what was started. Logs go to target/deploy/.
DEPLOY_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$DEPLOY_DIR/../.." && pwd)"
LOG_DIR="$ROOT/target/deploy"
mkdir -p "$LOG_DIR"
STARTED_PIDS=()

stop_started() {
  for pid in "${STARTED_PIDS[@]}"; do
    kill "$pid" 2> /dev/null || true
  done
  for pid in "${STARTED_PIDS[@]}"; do
    wait "$pid" 2> /dev/null || true
  done
  STARTED_PIDS=()
}

ensure_haproxy() {
  if ! command -v haproxy > /dev/null; then
    echo "Installing HAProxy from Debian's packages"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq haproxy > /dev/null
  fi
}

payonce_jar() {
  if [ -n "${PAYONCE_JAR:-}" ]; then
    echo "$PAYONCE_JAR"
    return
  fi
  local jar
  jar=$(ls "$ROOT"/target/payonce-*.jar 2> /dev/null | grep -v original | head -1 || true)
  if [ -z "$jar" ]; then
    (cd "$ROOT" && MAVEN_ARGS="--batch-mode --no-transfer-progress -q" ./mvnw -DskipTests package >&2)
    jar=$(ls "$ROOT"/target/payonce-*.jar | grep -v original | head -1)
  fi
  echo "$jar"
}

# start_payonce PORT [--setting=value ...]: the database comes from SPRING_DATASOURCE_*, the
# admin token from PAYONCE_SECURITY_ADMIN_TOKEN (generated when unset).
start_payonce() {
  local port="$1"
  shift
  if [ -z "${PAYONCE_SECURITY_ADMIN_TOKEN:-}" ]; then
    PAYONCE_SECURITY_ADMIN_TOKEN="$(head -c 32 /dev/urandom | base64 | tr '+/' '-_' | tr -d '=')"
    echo "Generated admin token: $PAYONCE_SECURITY_ADMIN_TOKEN"
  fi
  export PAYONCE_SECURITY_ADMIN_TOKEN
  "$JAVA_HOME/bin/java" -jar "$(payonce_jar)" --server.address=127.0.0.1 --server.port="$port" "$@" \
    > "$LOG_DIR/payonce-$port.log" 2>&1 &
  STARTED_PIDS+=($!)
}

# start_haproxy BIND BACKEND [MAX_CONN_PER_SOURCE]
start_haproxy() {
  PAYONCE_PROXY_BIND="$1" PAYONCE_BACKEND="$2" PAYONCE_PROXY_MAX_CONN_PER_SOURCE="${3:-200}" \
    haproxy -db -f "$DEPLOY_DIR/haproxy.cfg" > "$LOG_DIR/haproxy.log" 2>&1 &
  STARTED_PIDS+=($!)
}

# wait_healthy URL SECONDS
wait_healthy() {
  for _ in $(seq 1 "$2"); do
    if curl -sf --max-time 2 "$1/actuator/health" > /dev/null; then
      return 0
    fi
    sleep 1
  done
  echo "No healthy answer from $1 within $2 s; see $LOG_DIR" >&2
  return 1
}
