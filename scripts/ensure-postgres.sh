# Sourced by bench/run.sh: starts the machine's PostgreSQL when nothing answers
# on PGHOST_ADDR:PGPORT_NUM (defaults 127.0.0.1:5432).
PGHOST_ADDR="${PGHOST_ADDR:-127.0.0.1}"
PGPORT_NUM="${PGPORT_NUM:-5432}"
if ! pg_isready -h "$PGHOST_ADDR" -p "$PGPORT_NUM" -q; then
  echo "Starting the machine's PostgreSQL"
  for version in $(ls /etc/postgresql); do
    pg_ctlcluster --skip-systemctl-redirect "$version" main start || true
  done
  for _ in $(seq 1 30); do
    pg_isready -h "$PGHOST_ADDR" -p "$PGPORT_NUM" -q && break
    sleep 1
  done
  pg_isready -h "$PGHOST_ADDR" -p "$PGPORT_NUM"
fi
