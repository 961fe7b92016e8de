#!/usr/bin/env bash
# Model-checks the protocol in spec/protocol.pml with spin (docs/design.md section 14):
#   1. the model, in its two configurations (the payment key; its refunds), has no
#      assertion violation (at_most_one_charge, at_most_one_refund_per_key,
#      refunded_within_paid, replay_is_first_answer, stale_attempt_changes_nothing) and,
#      under weak fairness, no key stuck forever (the LTL property no_key_stuck);
#   2. every mutant (one safeguard removed, a -D macro on the same file) yields a
#      counterexample; a mutant that passes fails this check, because the model would
#      then not depend on that safeguard.
# Prints one line per run: configuration, property, states stored, seconds of search (as
# pan reports them; compiling each verifier adds about a second), result and the depth of
# the counterexample (its length in steps), then the whole check's time.
# Installs Debian's spin package when spin is missing; needs a C compiler (cc).
# Exit status 0 means the model passed and every mutant failed.
set -euo pipefail
cd "$(dirname "$0")"

if ! command -v spin > /dev/null; then
  echo "Installing spin from Debian's spin package"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends spin > /dev/null
fi

model="$PWD/protocol.pml"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

failures=0
began=$(date +%s)
printf '%-36s %-30s %8s %7s  %s\n' "configuration" "property" "states" "seconds" "result"

# run NAME EXPECT KIND DEFINES...: EXPECT is pass or counterexample; KIND is safety (every
# assertion) or liveness (no_key_stuck under weak fairness).
run() {
  local name=$1 expect=$2 kind=$3
  shift 3
  rm -f pan pan.* ./*.trail
  cp "$model" protocol.pml
  spin -a "$@" protocol.pml > spin.out 2>&1 || { cat spin.out; exit 1; }
  local out errors states depth property seconds result
  if [ "$kind" = safety ]; then
    cc -O0 -w -DSAFETY -DNOCLAIM -DCOLLAPSE -o pan pan.c
    out=$(./pan -m500000 2>&1 || true)
    property="assertions"
  else
    cc -O0 -w -DNFAIR=3 -DCOLLAPSE -o pan pan.c
    out=$(./pan -m500000 -a -f -N no_key_stuck 2>&1 || true)
    property="no_key_stuck"
  fi
  seconds=$(grep -Eo 'elapsed time [0-9.e+-]+' <<< "$out" | awk '{print $3}' || echo '?')
  errors=$(grep -o 'errors: [0-9]*' <<< "$out" | grep -o '[0-9]*$' || echo '?')
  states=$(grep -Eo '^ *[0-9.e+]+ states, stored' <<< "$out" | grep -Eo '[0-9.e+]+' | head -1 || echo '?')
  if grep -q 'search depth too small' <<< "$out"; then
    errors='?'
  fi
  if [ "$errors" = 0 ]; then
    result="pass"
  elif [ "$errors" = '?' ]; then
    result="incomplete"
  else
    depth=$(grep -Eo '\(at depth [0-9]+\)' <<< "$out" | head -1 | grep -Eo '[0-9]+' || echo '?')
    if [ "$kind" = safety ]; then
      property=$(grep -Eo 'assertion violated [a-z_]+' <<< "$out" | head -1 | awk '{print $3}')
    fi
    result="counterexample, depth $depth"
  fi
  printf '%-36s %-30s %8s %7s  %s' "$name" "$property" "$states" "$seconds" "$result"
  if { [ "$expect" = pass ] && [ "$result" = pass ]; } || { [ "$expect" = counterexample ] && [[ "$result" == counterexample* ]]; }; then
    echo
  else
    echo "   <- expected $expect"
    failures=$((failures + 1))
  fi
}

# The model. Liveness of the payment key with one fault fewer: weak fairness multiplies the
# state space, and the check must stay within a couple of minutes on two cores.
run "payment key"                          pass safety
run "payment key, MAXFAULT=1"              pass liveness -DMAXFAULT=1
run "refunds"                              pass safety   -DREFUNDS
run "refunds"                              pass liveness -DREFUNDS

# The mutants: each must produce a counterexample.
run "mutant NO_FENCE"                      counterexample safety -DNO_FENCE
run "mutant ATTEMPT_KEY"                   counterexample safety -DATTEMPT_KEY
run "mutant NO_SETTLE"                     counterexample safety -DNO_SETTLE
run "mutant SEND_AFTER_GIVEUP"             counterexample safety -DSEND_AFTER_GIVEUP
run "mutant LATE_SEND"                     counterexample safety -DLATE_SEND
run "mutant RESERVE_OUTSIDE_CLAIM"         counterexample safety -DREFUNDS -DRESERVE_OUTSIDE_CLAIM
run "mutant NO_RECONCILER, MAXFAULT=1"     counterexample liveness -DNO_RECONCILER -DMAXFAULT=1

echo "Checked in $(( $(date +%s) - began )) s"
if [ "$failures" -gt 0 ]; then
  echo "FAILED: $failures run(s) not as expected"
  exit 1
fi
echo "  SUCCESS"
