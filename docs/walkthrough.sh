#!/usr/bin/env bash
# Runs the examples of the README and the docs pages as written, then walks the rest of the
# Payonce contract with curl, against a running instance, and checks every status code.
# Usage: bash docs/walkthrough.sh   (service on localhost:8080, local profile)
# Settings: PAYONCE_URL, PAYONCE_API_KEY (a client's key), PAYONCE_ADMIN_TOKEN.
#
# Part 1 reads every ```bash block that a page marks with <!-- walkthrough: STATUSES --> on the
# line before it (README.md, docs/api.md, docs/clients.md, docs/operations.md), runs the blocks
# of one page in one shell in order, and requires exactly STATUSES, in order, from the curl
# calls of each block. The blocks run as written; only the published address, development key
# and admin token are replaced by the settings above (equal to them by default).
set -uo pipefail

URL="${PAYONCE_URL:-http://localhost:8080}"
API_KEY="${PAYONCE_API_KEY:-sk_test_LocalDevelopmentKeyDoNotUseInProduction0000}"
ADMIN_TOKEN="${PAYONCE_ADMIN_TOKEN:-local-admin-token-for-development-only}"
RUN="walk-$(date +%s)-$$"
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
PAGES=(README.md docs/api.md docs/clients.md docs/operations.md)
failures=0
body_file=$(mktemp)
headers_file=$(mktemp)
page_script=$(mktemp)
statuses_file=$(mktemp)
page_out=$(mktemp)
trap 'rm -f "$body_file" "$headers_file" "$page_script" "$statuses_file" "$page_out"' EXIT

# The script for one page: a curl that records each answer's status, then each marked block
# followed by a comparison of the statuses it recorded with the ones its marker names.
page_script() {
  cat <<'PRELUDE'
curl() {
  local h
  h=$(mktemp)
  command curl -D "$h" "$@"
  local rc=$?
  awk '/^HTTP\//{s=$2} END{print (s == "" ? "none" : s)}' "$h" >>"$WALK_STATUSES"
  rm -f "$h"
  return $rc
}
walk_expect() { # walk_expect N EXPECTED...: compares block N's statuses with EXPECTED
  local n="$1"
  shift
  local got
  got=$(tail -n +"$((WALK_SEEN + 1))" "$WALK_STATUSES" | tr '\n' ' ' | sed 's/ $//')
  WALK_SEEN=$(wc -l <"$WALK_STATUSES")
  if [ "$got" = "$*" ]; then
    echo "WALK ok    $WALK_PAGE block $n: $got"
  else
    echo "WALK FAIL  $WALK_PAGE block $n: got '$got', expected '$*'"
  fi
}
WALK_SEEN=0
PRELUDE
  awk -v url="$URL" -v key="$API_KEY" -v token="$ADMIN_TOKEN" '
    function swap(line, from, to,   out, i) {
      out = ""
      while ((i = index(line, from)) > 0) {
        out = out substr(line, 1, i - 1) to
        line = substr(line, i + length(from))
      }
      return out line
    }
    /^<!-- walkthrough: .* -->$/ { expect = $0; sub(/^<!-- walkthrough: /, "", expect); sub(/ -->$/, "", expect); armed = 1; next }
    armed && /^```bash$/ { inblock = 1; armed = 0; n++; next }
    inblock && /^```$/ { inblock = 0; print "walk_expect " n " " expect; next }
    inblock {
      line = swap($0, "http://localhost:8080", url)
      line = swap(line, "sk_test_LocalDevelopmentKeyDoNotUseInProduction0000", key)
      line = swap(line, "local-admin-token-for-development-only", token)
      print line; next
    }
    { armed = 0 }
  ' "$1"
}

for page in "${PAGES[@]}"; do
  page_script "$ROOT/$page" >"$page_script"
  if ! grep -q '^walk_expect ' "$page_script"; then
    echo "FAIL  $page has no block marked for the walk-through"
    failures=$((failures + 1))
    continue
  fi
  : >"$statuses_file"
  (cd "$ROOT" && WALK_PAGE="$page" WALK_STATUSES="$statuses_file" bash "$page_script" >"$page_out" 2>&1)
  grep '^WALK ' "$page_out" | sed 's/^WALK //'
  fails=$(grep -c '^WALK FAIL' "$page_out")
  failures=$((failures + fails))
done
echo

# check NAME EXPECTED_STATUS CURL_ARGS... : runs curl, prints the answer, compares the status.
check() {
  local name="$1" expected="$2"
  shift 2
  local status
  status=$(curl -s -o "$body_file" -D "$headers_file" -w '%{http_code}' "$@")
  if [ "$status" = "$expected" ]; then
    printf 'ok    %-58s %s\n' "$name" "$status"
  else
    printf 'FAIL  %-58s got %s, expected %s\n' "$name" "$status" "$expected"
    failures=$((failures + 1))
  fi
  printf '      %s\n' "$(head -n 1 "$body_file" | head -c 220)"
}

header() { grep -i "^$1:" "$headers_file" | head -1 | cut -d' ' -f2- | tr -d '\r'; }
field() { sed -n "s/.*\"$1\":\"\\([^\"]*\\)\".*/\\1/p" "$body_file"; }

pay() { # pay KEY BODY [CONTENT_TYPE] [API_KEY]: sets curl_args for a POST /payments
  curl_args=(-X POST "$URL/payments" -H "Authorization: Bearer ${4:-$API_KEY}"
    -H "Content-Type: ${3:-application/json}" -H "Idempotency-Key: $1" -d "$2")
}

body='{"orderId":"'"$RUN"'","amount":1200,"currency":"ILS"}'

pay "$RUN-1" "$body"; check "first payment: 201 with a receipt" 201 "${curl_args[@]}"
first=$(cat "$body_file"); location=$(header Location)
pay "$RUN-1" '{"currency":"ils","amount":1200,"orderId":"'"$RUN"'"}'
check "same request spelled differently: stored 201 replayed" 201 "${curl_args[@]}"
[ "$(cat "$body_file")" = "$first" ] && [ "$(header Idempotent-Replayed)" = "true" ] \
  || { echo "FAIL  replay differs from the original or lacks Idempotent-Replayed"; failures=$((failures + 1)); }
pay "\"$RUN-1\"" "$body"; check "RFC 8941 string spelling of the key: replay" 201 "${curl_args[@]}"
pay "$RUN-1" '{"orderId":"'"$RUN"'","amount":9900,"currency":"ILS"}'
check "same key, different amount: 422 idempotency-key-reused" 422 "${curl_args[@]}"
check "GET the payment: 200" 200 "$URL$location" -H "Authorization: Bearer $API_KEY"
check "GET an unknown payment: 404 payment-not-found" 404 "$URL/payments/00000000-0000-4000-8000-000000000000" \
  -H "Authorization: Bearer $API_KEY"

declined='{"orderId":"'"$RUN"'-d","amount":500,"currency":"USD","paymentMethod":"pm_card_chargeDeclined"}'
pay "$RUN-2" "$declined"; check "declined card: 402 payment-declined" 402 "${curl_args[@]}"
pay "$RUN-2" "$declined"; check "declined card again: the stored 402 replayed" 402 "${curl_args[@]}"

check "no Idempotency-Key: 400 idempotency-key-missing" 400 -X POST "$URL/payments" \
  -H "Authorization: Bearer $API_KEY" -H 'Content-Type: application/json' -d "$body"
pay "$(printf 'k%.0s' $(seq 256))" "$body"; check "256-character key: 400 idempotency-key-invalid" 400 "${curl_args[@]}"
pay "$RUN-3" '{"orderId":"o","amount":12.5,"currency":"ILS"}'
check "amount 12.5: 400 invalid-request, never rounded" 400 "${curl_args[@]}"
pay "$RUN-4" '{"orderId":"o","amount":"1200","currency":"ILS"}'
check "amount as a string: 400 invalid-request" 400 "${curl_args[@]}"
pay "$RUN-5" '{"orderId":"o","amount":1200,"currency":"ILS","amout":1}'
check "unknown field: 400 invalid-request" 400 "${curl_args[@]}"
pay "$RUN-6" "$body" text/plain
check "text/plain body: 415 unsupported-media-type" 415 "${curl_args[@]}"
pay "$RUN-7" '{"orderId":"o","amount":1,"currency":"ILS","pad":"'"$(head -c 17000 /dev/zero | tr '\0' x)"'"}'
check "body over 16 KiB: 413 payload-too-large" 413 "${curl_args[@]}"
pay "$RUN-3" "$body"; check "corrected retry after a 400 with the same key: 201" 201 "${curl_args[@]}"

check "no credentials: 401 unauthorized" 401 -X POST "$URL/payments" -H 'Content-Type: application/json' \
  -H "Idempotency-Key: $RUN-8" -d "$body"
check "unknown API key: 401 unauthorized" 401 -X POST "$URL/payments" -H 'Content-Type: application/json' \
  -H "Authorization: Bearer sk_test_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA" -H "Idempotency-Key: $RUN-8" -d "$body"

refund() { # refund KEY BODY [API_KEY]: sets curl_args for a POST of a refund of the first payment
  curl_args=(-X POST "$URL$location/refunds" -H "Authorization: Bearer ${3:-$API_KEY}"
    -H 'Content-Type: application/json' -H "Idempotency-Key: $1" -d "$2")
}

refund "$RUN-r1" '{"amount":300,"reason":"requested_by_customer"}'
check "refund 300: 201 with the refund's receipt" 201 "${curl_args[@]}"
refunded=$(cat "$body_file")
refund "$RUN-r1" '{"reason":"requested_by_customer","amount":300}'
check "same refund spelled differently: stored 201 replayed" 201 "${curl_args[@]}"
[ "$(cat "$body_file")" = "$refunded" ] && [ "$(header Idempotent-Replayed)" = "true" ] \
  || { echo "FAIL  refund replay differs from the original or lacks Idempotent-Replayed"; failures=$((failures + 1)); }
refund "$RUN-r2" '{"amount":1000}'
check "refund more than remains: 409 refund-exceeds-refundable" 409 "${curl_args[@]}"
refund "$RUN-r3" '{"amount":12.5}'
check "fractional refund amount: 400 invalid-request" 400 "${curl_args[@]}"
refund "$RUN-1" '{"amount":100}'
check "the payment's key on the refund route: 422 idempotency-key-reused" 422 "${curl_args[@]}"
refund "$RUN-r4" '{}'
check "refund all that remains (900): 201" 201 "${curl_args[@]}"
check "list the payment's refunds: 200" 200 "$URL$location/refunds" -H "Authorization: Bearer $API_KEY"
check "GET the payment: refundedAmount 1200" 200 "$URL$location" -H "Authorization: Bearer $API_KEY"
grep -q '"refundedAmount":1200' "$body_file" || { echo "FAIL  refundedAmount is not 1200"; failures=$((failures + 1)); }

check "admin: create a client, key shown once" 201 -X POST "$URL/admin/clients" \
  -H "Authorization: Bearer $ADMIN_TOKEN" -H 'Content-Type: application/json' -d '{"name":"walkthrough"}'
client_id=$(field id); client_key=$(field apiKey)
pay "$RUN-1" "$body" application/json "$client_key"
check "another client, same key: its own new payment (201)" 201 "${curl_args[@]}"
[ -z "$(header Idempotent-Replayed)" ] || { echo "FAIL  another client's request was a replay"; failures=$((failures + 1)); }
check "another client reads the first client's payment: 404" 404 "$URL$location" -H "Authorization: Bearer $client_key"
refund "$RUN-r5" '{"amount":1}' "$client_key"
check "another client refunds the first client's payment: 404" 404 "${curl_args[@]}"
check "admin: list clients, no secrets" 200 "$URL/admin/clients" -H "Authorization: Bearer $ADMIN_TOKEN"
check "client key on the admin API: 403 forbidden" 403 "$URL/admin/clients" -H "Authorization: Bearer $client_key"
check "admin: rotate the client's key" 201 -X POST "$URL/admin/clients/$client_id/api-keys" \
  -H "Authorization: Bearer $ADMIN_TOKEN"
new_key=$(field apiKey)
check "old key after rotation: 401" 401 "$URL$location" -H "Authorization: Bearer $client_key"
check "admin: disable the client" 200 -X POST "$URL/admin/clients/$client_id/disable" \
  -H "Authorization: Bearer $ADMIN_TOKEN"
check "disabled client's new key: 401" 401 "$URL$location" -H "Authorization: Bearer $new_key"

check "health is public" 200 "$URL/actuator/health"
check "metrics need the admin token" 401 "$URL/actuator/prometheus"
check "metrics for the admin" 200 "$URL/actuator/prometheus" -H "Authorization: Bearer $ADMIN_TOKEN"
check "OpenAPI document" 200 "$URL/v3/api-docs"

echo
if [ "$failures" -eq 0 ]; then
  echo "Every step answered as the contract says."
else
  echo "$failures step(s) differed from the contract."
  exit 1
fi
