#!/usr/bin/env bash
# Payonce on one machine as it runs on several (docs/deployment.md, "Three instances"):
# PostgreSQL (Debian's binaries, a server of its own), PgBouncer in transaction pooling mode,
# three Payonce instances from the project's jar, and HAProxy in front of them. It records the
# PID of everything it starts and stops exactly those, never by name.
#
#   cluster.sh start              start what is not running yet (builds the jar if target/ has none)
#   cluster.sh stop               stop everything this script started, in reverse order
#   cluster.sh status             what runs, each instance's health, HAProxy's view
#   cluster.sh restart-instance N SIGTERM instance N (1-3), wait for its drain, start it, wait healthy
#   cluster.sh kill-instance N    SIGKILL instance N (what a crash looks like)
#   cluster.sh start-instance N   start instance N again after kill-instance
#   cluster.sh psql [args]        psql on the cluster's database, directly (not through PgBouncer)
#   cluster.sh storm | rolling-restart | throughput | ci
#                                 the scenarios with a pass/fail exit status (deploy/cluster/scenarios.sh)
#
# Ports (all on 127.0.0.1; PAYONCE_CLUSTER_BASE_PORT moves them all, default 21500):
#   HAProxy BASE, instances BASE+1..BASE+3, PgBouncer BASE+10, PostgreSQL BASE+11,
#   HAProxy's stats page BASE+20. Each can be set on its own: PAYONCE_CLUSTER_PROXY_PORT,
#   PAYONCE_CLUSTER_APP_PORTS ("p1 p2 p3"), PAYONCE_CLUSTER_BOUNCER_PORT,
#   PAYONCE_CLUSTER_PG_PORT, PAYONCE_CLUSTER_STATS_PORT.
# State (data directory, generated passwords, logs, PIDs): PAYONCE_CLUSTER_DIR, default
# .payonce/cluster in the checkout (git-ignored). Extra Payonce settings for every instance:
# PAYONCE_CLUSTER_APP_ARGS ("--payonce.idempotency.lease=45s ..."); JVM options:
# PAYONCE_CLUSTER_JAVA_OPTS (default -Xmx512m).
set -euo pipefail

CLUSTER_SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$CLUSTER_SCRIPT_DIR/../.." && pwd)"

BASE="${PAYONCE_CLUSTER_BASE_PORT:-21500}"
PROXY_PORT="${PAYONCE_CLUSTER_PROXY_PORT:-$BASE}"
read -r -a APP_PORTS <<< "${PAYONCE_CLUSTER_APP_PORTS:-$((BASE + 1)) $((BASE + 2)) $((BASE + 3))}"
BOUNCER_PORT="${PAYONCE_CLUSTER_BOUNCER_PORT:-$((BASE + 10))}"
PG_PORT="${PAYONCE_CLUSTER_PG_PORT:-$((BASE + 11))}"
STATS_PORT="${PAYONCE_CLUSTER_STATS_PORT:-$((BASE + 20))}"
STATE="${PAYONCE_CLUSTER_DIR:-$ROOT/.payonce/cluster}"
PIDS="$STATE/pids"
LOGS="$STATE/logs"
PROXY_URL="http://127.0.0.1:$PROXY_PORT"

log() { echo "[cluster $(date -u +%T)] $*" >&2; }
die() {
  log "FAILED: $*"
  exit 1
}

# --- Packages -------------------------------------------------------------------------------

# ensure_packages: Debian's pgbouncer, haproxy, PostgreSQL server binaries, curl and wrk,
# installed with apt-get when missing (as ops/check.sh does for promtool).
ensure_packages() {
  local missing=()
  command -v pgbouncer > /dev/null || missing+=(pgbouncer)
  command -v haproxy > /dev/null || missing+=(haproxy)
  command -v curl > /dev/null || missing+=(curl)
  command -v wrk > /dev/null || missing+=(wrk)
  command -v psql > /dev/null || missing+=(postgresql-client)
  command -v python3 > /dev/null || missing+=(python3)
  if [ "${#missing[@]}" -gt 0 ] || [ -z "$(pg_bindir 2> /dev/null)" ]; then
    log "Installing Debian packages: ${missing[*]} $([ -n "$(pg_bindir 2> /dev/null)" ] || echo postgresql)"
    apt-get update -qq
    if [ -z "$(pg_bindir 2> /dev/null)" ]; then
      # Only the server binaries: no "main" cluster of the package's own on port 5432.
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends postgresql-common > /dev/null
      sed -i 's/^#\? *create_main_cluster *=.*/create_main_cluster = false/' /etc/postgresql-common/createcluster.conf
      missing+=(postgresql)
    fi
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" > /dev/null
  fi
}

# pg_bindir: the newest Debian PostgreSQL server's bin directory (/usr/lib/postgresql/N/bin).
pg_bindir() {
  ls -d /usr/lib/postgresql/*/bin 2> /dev/null | sort -V | tail -1
}

# PostgreSQL and PgBouncer refuse to run as root. As root they run in a new user namespace
# (unshare -U, as the tests' embedded server does, README "Quick start"): not root there,
# while their files still belong to the caller. unshare execs, so the recorded PID is theirs.
AS_SERVICE=()
if [ "$(id -u)" = 0 ]; then
  AS_SERVICE=(unshare -U)
fi

# --- Processes: started in the background, recorded, stopped by the recorded PID only ---------

proc_start_time() { # the kernel's start time of PID (field 22 of /proc/PID/stat), or nothing
  sed 's/^.*) //' "/proc/$1/stat" 2> /dev/null | cut -d' ' -f20
}

# spawn NAME CMD...: runs CMD in its own session (Ctrl+C in the caller's terminal does not
# reach it), output to $LOGS/NAME.log, and records "PID start-time" in $PIDS/NAME, so that
# a PID reused by another process after ours ended is never signalled.
spawn() {
  local name="$1"
  shift
  mkdir -p "$PIDS" "$LOGS"
  setsid "$@" >> "$LOGS/$name.log" 2>&1 < /dev/null &
  local pid=$!
  local started=""
  for _ in 1 2 3 4 5 6 7 8 9 10; do
    started="$(proc_start_time "$pid" || true)"
    [ -n "$started" ] && break
    sleep 0.1
  done
  [ -n "$started" ] || die "$name exited at once; see $LOGS/$name.log"
  echo "$pid $started" > "$PIDS/$name"
}

# pid_of NAME: the recorded PID when that process still runs, else nothing.
pid_of() {
  local file="$PIDS/$1" pid started
  [ -f "$file" ] || return 0
  read -r pid started < "$file"
  if [ "$(proc_start_time "$pid" || true)" = "$started" ]; then
    echo "$pid"
  fi
}

running() { [ -n "$(pid_of "$1")" ]; }

# stop_process NAME SIGNAL SECONDS: signals the recorded PID and waits for it to end; a
# process still running after SECONDS gets SIGKILL.
stop_process() {
  local name="$1" signal="$2" seconds="$3" pid
  pid="$(pid_of "$name")"
  if [ -z "$pid" ]; then
    rm -f "$PIDS/$name"
    return 0
  fi
  kill "-$signal" "$pid" 2> /dev/null || true
  local deadline=$((SECONDS + seconds))
  while [ -n "$(pid_of "$name")" ] && [ "$SECONDS" -lt "$deadline" ]; do
    sleep 0.2
  done
  if [ -n "$(pid_of "$name")" ]; then
    log "$name did not stop within ${seconds}s after SIG$signal: SIGKILL"
    kill -KILL "$pid" 2> /dev/null || true
    while [ -n "$(pid_of "$name")" ]; do sleep 0.1; done
  fi
  rm -f "$PIDS/$name"
}

port_free() { ! (echo > "/dev/tcp/127.0.0.1/$1") 2> /dev/null; }

# --- Secrets --------------------------------------------------------------------------------

# 32 random bytes as base64url (43 characters): what the admin-token rule asks for.
random_secret() { head -c 32 /dev/urandom | base64 | tr '+/' '-_' | tr -d '=\n'; }

# load_secrets: the database passwords and the admin token, generated on the first start and
# kept in $STATE/secrets.env (mode 600); the API key of the client "cluster" once created.
load_secrets() {
  mkdir -p "$STATE"
  if [ ! -f "$STATE/secrets.env" ]; then
    (
      umask 077
      {
        echo "PG_SUPERUSER_PASSWORD=$(random_secret)"
        echo "PAYONCE_DB_PASSWORD=$(random_secret)"
        echo "PAYONCE_SECURITY_ADMIN_TOKEN=$(random_secret)"
      } > "$STATE/secrets.env"
    )
  fi
  # shellcheck disable=SC1091
  source "$STATE/secrets.env"
  export PAYONCE_SECURITY_ADMIN_TOKEN
}

# --- PostgreSQL -----------------------------------------------------------------------------

start_postgres() {
  running postgres && return 0
  port_free "$PG_PORT" || die "port $PG_PORT (PostgreSQL) is taken by something else"
  local bin data="$STATE/postgres"
  bin="$(pg_bindir)"
  if [ ! -f "$data/PG_VERSION" ]; then
    log "initdb $data ($bin)"
    mkdir -p "$data"
    local pwfile="$STATE/.pwfile"
    (umask 077 && echo "$PG_SUPERUSER_PASSWORD" > "$pwfile")
    ("${AS_SERVICE[@]}" "$bin/initdb" -D "$data" -U postgres --auth=scram-sha-256 --pwfile="$pwfile" \
      -E UTF8 --locale=C.UTF-8 > "$LOGS/initdb.log" 2>&1) || die "initdb failed; see $LOGS/initdb.log"
    rm -f "$pwfile"
  fi
  # TCP on 127.0.0.1 only, no Unix socket (nothing to create under /var/run).
  spawn postgres "${AS_SERVICE[@]}" "$bin/postgres" -D "$data" -c port="$PG_PORT" -c listen_addresses=127.0.0.1 \
    -c unix_socket_directories= -c max_connections=100 -c shared_buffers=128MB \
    -c logging_collector=off
  for _ in $(seq 1 60); do
    pg_isready -q -h 127.0.0.1 -p "$PG_PORT" -U postgres -d postgres && break
    running postgres || die "PostgreSQL exited; see $LOGS/postgres.log"
    sleep 0.5
  done
  pg_isready -q -h 127.0.0.1 -p "$PG_PORT" -U postgres -d postgres || die "PostgreSQL did not answer; see $LOGS/postgres.log"
  # The application's role and database, once.
  PGPASSWORD="$PG_SUPERUSER_PASSWORD" psql -X -q -h 127.0.0.1 -p "$PG_PORT" -U postgres -d postgres \
    -v ON_ERROR_STOP=1 -v pw="$PAYONCE_DB_PASSWORD" > /dev/null <<'SQL'
SELECT format('CREATE ROLE payonce LOGIN PASSWORD %L', :'pw')
WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'payonce') \gexec
SELECT 'CREATE DATABASE payonce OWNER payonce'
WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = 'payonce') \gexec
SQL
}

# cluster_psql ARGS...: psql as payonce on the payonce database, directly.
cluster_psql() {
  PGPASSWORD="$PAYONCE_DB_PASSWORD" psql -X -h 127.0.0.1 -p "$PG_PORT" -U payonce -d payonce "$@"
}

# --- PgBouncer ------------------------------------------------------------------------------

start_pgbouncer() {
  running pgbouncer && return 0
  port_free "$BOUNCER_PORT" || die "port $BOUNCER_PORT (PgBouncer) is taken by something else"
  mkdir -p "$STATE/pgbouncer"
  (umask 077 && printf '"payonce" "%s"\n' "$PAYONCE_DB_PASSWORD" > "$STATE/pgbouncer/userlist.txt")
  sed -e "s|@PG_PORT@|$PG_PORT|g" -e "s|@BOUNCER_PORT@|$BOUNCER_PORT|g" \
    -e "s|@USERLIST@|$STATE/pgbouncer/userlist.txt|g" \
    -e "s|@POOL_SIZE@|${PAYONCE_CLUSTER_BOUNCER_POOL_SIZE:-20}|g" \
    "$CLUSTER_SCRIPT_DIR/pgbouncer.ini" > "$STATE/pgbouncer/pgbouncer.ini"
  spawn pgbouncer "${AS_SERVICE[@]}" pgbouncer "$STATE/pgbouncer/pgbouncer.ini"
  for _ in $(seq 1 40); do
    pg_isready -q -h 127.0.0.1 -p "$BOUNCER_PORT" -U payonce -d payonce && return 0
    running pgbouncer || die "PgBouncer exited; see $LOGS/pgbouncer.log"
    sleep 0.25
  done
  die "PgBouncer did not answer; see $LOGS/pgbouncer.log"
}

# --- Payonce --------------------------------------------------------------------------------

payonce_jar() {
  local jar
  jar=$(ls "$ROOT"/target/payonce-*.jar 2> /dev/null | grep -v original | head -1 || true)
  if [ -z "$jar" ]; then
    log "Building the jar (./mvnw -DskipTests package)"
    (cd "$ROOT" && MAVEN_ARGS="--batch-mode --no-transfer-progress -q" ./mvnw -DskipTests package >&2)
    jar=$(ls "$ROOT"/target/payonce-*.jar | grep -v original | head -1)
  fi
  echo "$jar"
}

# The settings that make Payonce work through PgBouncer's transaction pooling
# (docs/deployment.md, "PgBouncer"):
#  - the pool connects to PgBouncer with prepareThreshold=0: PgBouncer 1.18 (Debian 12) does
#    not track named prepared statements, and pgjdbc would name one after a statement's
#    fifth use and then find it missing on another server connection;
#  - Flyway migrates over a direct connection (its advisory lock and session settings must
#    stay on one server session);
#  - the API-key cache's LISTEN runs on a direct connection (a LISTEN through transaction
#    pooling would sit on whichever server connection the statement happened to use).
instance_args() {
  local port="$1"
  local direct="jdbc:postgresql://127.0.0.1:$PG_PORT/payonce"
  echo --server.address=127.0.0.1 --server.port="$port" \
    --spring.datasource.url="jdbc:postgresql://127.0.0.1:$BOUNCER_PORT/payonce?prepareThreshold=0" \
    --spring.datasource.username=payonce --management.endpoint.health.probes.enabled=true \
    --spring.flyway.url="$direct" --spring.flyway.user=payonce \
    --payonce.security.key-cache.listener-url="$direct" \
    --payonce.security.key-cache.listener-username=payonce
}

start_instance() {
  local n="$1" port="${APP_PORTS[$(($1 - 1))]}"
  running "payonce-$n" && return 0
  port_free "$port" || die "port $port (instance $n) is taken by something else"
  local jar
  jar="$(payonce_jar)"
  # Passwords go through the environment, never the command line (ps shows it).
  # shellcheck disable=SC2046,SC2086
  SPRING_DATASOURCE_PASSWORD="$PAYONCE_DB_PASSWORD" SPRING_FLYWAY_PASSWORD="$PAYONCE_DB_PASSWORD" \
    PAYONCE_SECURITY_KEY_CACHE_LISTENER_PASSWORD="$PAYONCE_DB_PASSWORD" \
    spawn "payonce-$n" "$JAVA_HOME/bin/java" ${PAYONCE_CLUSTER_JAVA_OPTS:--Xmx512m} -jar "$jar" \
    $(instance_args "$port") ${PAYONCE_CLUSTER_APP_ARGS:-}
}

# wait_instance N SECONDS: until instance N answers its health 200 directly.
wait_instance() {
  local n="$1" port="${APP_PORTS[$(($1 - 1))]}" deadline=$((SECONDS + $2))
  while [ "$SECONDS" -lt "$deadline" ]; do
    curl -sf --max-time 2 -o /dev/null "http://127.0.0.1:$port/actuator/health" && return 0
    running "payonce-$n" || die "instance $n exited; see $LOGS/payonce-$n.log"
    sleep 0.5
  done
  die "instance $n not healthy within $2 s; see $LOGS/payonce-$n.log"
}

# --- HAProxy --------------------------------------------------------------------------------

# The cluster's HAProxy configuration: deploy/haproxy/haproxy.cfg (every slow-client setting
# of docs/deployment.md) with its one server line replaced by the three instances, retries,
# and a stats page.
haproxy_config() {
  awk -v p1="${APP_PORTS[0]}" -v p2="${APP_PORTS[1]}" -v p3="${APP_PORTS[2]}" -v stats="$STATS_PORT" \
    -v socket="$STATE/haproxy.sock" '
    NR == 1 { print "# Generated by deploy/cluster/cluster.sh from deploy/haproxy/haproxy.cfg." }
    /^ *# Health as the load balancer sees it/ || /^ *# the database\.$/ { next }
    /^ *option httpchk / {
      print "    # Readiness, not /actuator/health: the instance is started and not draining. The"
      print "    # database is shared, so its trouble is no reason to prefer one instance: each"
      print "    # request then answers 503 service-unavailable at once. A health check that waits"
      print "    # for a pooled connection fails whenever a burst fills the pools, and takes every"
      print "    # instance out at once (measured: docs/deployment.md, \"The health check HAProxy uses\")."
      print "    option httpchk GET /actuator/health/readiness"
      print "    timeout check 5s"
      next
    }
    /^global/ {
      print
      print "    # The runtime API (cluster.sh drains an instance through it), for root only."
      print "    stats socket " socket " mode 600 level admin"
      next
    }
    /^ *server payonce1 / {
      print "    # Round robin over three instances sharing one database (deploy/cluster/cluster.sh)."
      print "    balance roundrobin"
      print "    # A request that could not reach an instance (refused) or got no answer at all (the"
      print "    # instance died) goes to another one. Safe for POST: every payment and refund"
      print "    # carries an Idempotency-Key, so a second delivery is a replay, a 409 or a"
      print "    # takeover, never a second charge. A 503 is not retried here: under overload that"
      print "    # would multiply the load; the client retries it after Retry-After."
      print "    retries 2"
      print "    option redispatch 1"
      print "    retry-on conn-failure empty-response"
      for (i = 1; i <= 3; i++) {
        port = (i == 1) ? p1 : (i == 2) ? p2 : p3
        printf "    server payonce%d 127.0.0.1:%s maxconn 200 check inter 1s fall 3 rise 2\n", i, port
      }
      next
    }
    { print }
    END {
      print ""
      print "# HAProxy statistics (cluster.sh status reads its CSV), on 127.0.0.1 only."
      print "listen stats"
      print "    bind 127.0.0.1:" stats
      print "    stats enable"
      print "    stats uri /"
      print "    stats refresh 5s"
    }' "$ROOT/deploy/haproxy/haproxy.cfg"
}

start_haproxy() {
  running haproxy && return 0
  port_free "$PROXY_PORT" || die "port $PROXY_PORT (HAProxy) is taken by something else"
  port_free "$STATS_PORT" || die "port $STATS_PORT (HAProxy stats) is taken by something else"
  haproxy_config > "$STATE/haproxy.cfg"
  # The load generators all connect from 127.0.0.1: the per-source cap of the slowloris
  # recipe (200) is raised here (PAYONCE_PROXY_MAX_CONN_PER_SOURCE).
  PAYONCE_PROXY_BIND="127.0.0.1:$PROXY_PORT" \
    PAYONCE_PROXY_MAX_CONN_PER_SOURCE="${PAYONCE_PROXY_MAX_CONN_PER_SOURCE:-2000}" \
    spawn haproxy haproxy -db -f "$STATE/haproxy.cfg"
}

# haproxy_command COMMAND: one command to HAProxy's runtime API (its Unix socket).
haproxy_command() {
  python3 -c 'import socket, sys
s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); s.sendall((sys.argv[2] + "\n").encode())
print(s.makefile().read(), end="")' "$STATE/haproxy.sock" "$1"
}

# haproxy_up_count: how many instances HAProxy's health checks currently call UP.
haproxy_up_count() {
  curl -sf --max-time 2 "http://127.0.0.1:$STATS_PORT/;csv" | awk -F, '$1 == "payonce" && $2 ~ /^payonce[0-9]/ && $18 ~ /^UP/ { n++ } END { print n + 0 }'
}

# wait_haproxy_up N SECONDS: until HAProxy calls at least N instances UP.
wait_haproxy_up() {
  local deadline=$((SECONDS + $2))
  while [ "$SECONDS" -lt "$deadline" ]; do
    [ "$(haproxy_up_count)" -ge "$1" ] && return 0
    sleep 0.25
  done
  die "HAProxy does not see $1 instances UP within $2 s"
}

# --- Commands -------------------------------------------------------------------------------

cluster_start() {
  ensure_packages
  source "$ROOT/scripts/find-jdk.sh" > /dev/null
  load_secrets
  mkdir -p "$LOGS"
  log "PostgreSQL on 127.0.0.1:$PG_PORT ($(pg_bindir)), data in $STATE/postgres"
  start_postgres
  log "PgBouncer (transaction pooling) on 127.0.0.1:$BOUNCER_PORT"
  start_pgbouncer
  # The three start together: Flyway's lock (on its direct connection) lets one migrate
  # while the others wait, then they find the schema current.
  log "Payonce instances on 127.0.0.1:${APP_PORTS[*]}"
  for n in 1 2 3; do start_instance "$n"; done
  for n in 1 2 3; do wait_instance "$n" 240; done
  log "HAProxy on $PROXY_URL (stats on http://127.0.0.1:$STATS_PORT/)"
  start_haproxy
  wait_haproxy_up 3 30
  ensure_api_key
  log "Cluster up: $PROXY_URL; secrets (admin token, API key) in $STATE/secrets.env"
}

# ensure_api_key: the client "cluster", created once through the admin API; its key is kept
# in $STATE/secrets.env as PAYONCE_CLUSTER_API_KEY.
ensure_api_key() {
  if grep -q '^PAYONCE_CLUSTER_API_KEY=' "$STATE/secrets.env"; then
    source "$STATE/secrets.env"
    return 0
  fi
  local answer key
  # The token goes to curl on its standard input (-H @-), never on its command line, which
  # any local user can read in the process list; printf is a shell builtin, not a process.
  answer=$(printf 'Authorization: Bearer %s\n' "$PAYONCE_SECURITY_ADMIN_TOKEN" |
    curl -s --max-time 10 -X POST "$PROXY_URL/admin/clients" \
      -H @- -H 'Content-Type: application/json' -d '{"name": "cluster"}')
  key=$(echo "$answer" | sed -n 's/.*"apiKey":"\([^"]*\)".*/\1/p')
  [ -n "$key" ] || die "creating the client failed: $answer"
  echo "PAYONCE_CLUSTER_API_KEY=$key" >> "$STATE/secrets.env"
  PAYONCE_CLUSTER_API_KEY="$key"
}

cluster_stop() {
  stop_process haproxy TERM 10
  # SIGTERM: each instance drains (spring.lifecycle.timeout-per-shutdown-phase, 30 s).
  for n in 1 2 3; do
    pid="$(pid_of "payonce-$n")"
    [ -n "$pid" ] && kill -TERM "$pid" 2> /dev/null || true
  done
  for n in 1 2 3; do stop_process "payonce-$n" TERM 45; done
  stop_process pgbouncer INT 10
  # SIGINT: PostgreSQL's fast shutdown.
  stop_process postgres INT 30
  log "Stopped everything recorded in $PIDS"
}

cluster_status() {
  local name pid
  for name in postgres pgbouncer payonce-1 payonce-2 payonce-3 haproxy; do
    pid="$(pid_of "$name")"
    if [ -n "$pid" ]; then
      printf '%-10s running, PID %s\n' "$name" "$pid"
    else
      printf '%-10s not running\n' "$name"
    fi
  done
  for n in 1 2 3; do
    printf 'instance %s 127.0.0.1:%s health %s\n' "$n" "${APP_PORTS[$((n - 1))]}" \
      "$(curl -s -o /dev/null -w '%{http_code}' --max-time 2 "http://127.0.0.1:${APP_PORTS[$((n - 1))]}/actuator/health" || true)"
  done
  if running haproxy; then
    echo "HAProxy $PROXY_URL sees $(haproxy_up_count) of 3 instances UP (http://127.0.0.1:$STATS_PORT/)"
  fi
}

main() {
  local command="${1:-}"
  shift || true
  case "$command" in
    start) cluster_start ;;
    stop) cluster_stop ;;
    status) cluster_status ;;
    restart-instance)
      source "$ROOT/scripts/find-jdk.sh" > /dev/null
      load_secrets
      stop_process "payonce-$1" TERM 45
      start_instance "$1"
      wait_instance "$1" 180
      ;;
    kill-instance)
      pid="$(pid_of "payonce-$1")"
      [ -n "$pid" ] || die "instance $1 is not running"
      kill -KILL "$pid"
      ;;
    start-instance)
      source "$ROOT/scripts/find-jdk.sh" > /dev/null
      load_secrets
      start_instance "$1"
      wait_instance "$1" 180
      ;;
    psql)
      load_secrets
      cluster_psql "$@"
      ;;
    storm | rolling-restart | throughput | ci)
      source "$CLUSTER_SCRIPT_DIR/scenarios.sh"
      "scenario_${command//-/_}" "$@"
      ;;
    *)
      sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'
      [ -z "$command" ] || exit 2
      ;;
  esac
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  main "$@"
fi
