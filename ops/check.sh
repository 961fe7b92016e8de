#!/usr/bin/env bash
# Checks the alert rules and the Grafana dashboard under ops/:
#   1. promtool check rules  - the rules parse and are well formed;
#   2. promtool test rules   - every alert fires on its firing series and stays quiet on
#                              its quiet ones (ops/prometheus/payonce-alerts-test.yml);
#   3. every dashboard query parses as PromQL (each is checked by promtool as a recording
#      rule, with Grafana's $__rate_interval replaced by 5m).
# That the rules and the dashboard name only series Payonce exports is proved against a real
# scrape by OperationsMetricsIntegrationTests (./mvnw verify).
# Installs Debian's prometheus package (which ships promtool) when promtool is missing.
# Exit status 0 means every check passed.
set -euo pipefail
cd "$(dirname "$0")"

if ! command -v promtool > /dev/null; then
  echo "Installing promtool from Debian's prometheus package"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends prometheus > /dev/null
fi
if ! command -v jq > /dev/null; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq jq > /dev/null
fi

promtool check rules prometheus/payonce-alerts.yml
(cd prometheus && promtool test rules payonce-alerts-test.yml)

queries=$(mktemp --suffix=.yml)
trap 'rm -f "$queries"' EXIT
jq -r '
  [.panels[] | .title as $title | .targets[]? | {title: $title, expr: .expr}] as $targets
  | "groups:\n  - name: dashboard-queries\n    rules:",
    ($targets | to_entries[]
      | "      - record: dashboard_query_\(.key)\n        expr: \(.value.expr | gsub("\\$__rate_interval"; "5m") | tojson)")
' grafana/payonce-dashboard.json > "$queries"
echo "Checking the dashboard's $(grep -c 'record:' "$queries") queries"
promtool check rules "$queries" > /dev/null
echo "  SUCCESS"
