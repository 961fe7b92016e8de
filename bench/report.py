"""Turns one bench/run.sh run (its raw/ folder) into report.md and latency.png.

Usage: python3 bench/report.py RESULTS_DIR WINDOW_SECONDS PAIRS "GROWTH_SIZES" [GROWTH_ROUNDS]
Parses wrk and pgbench output; computes the goals (PostgreSQL's CPU per new payment and per new
refund against pgbench at the same rate, the JVM's CPU against PostgreSQL's in the same windows,
the latency around a 200 ms provider under an open-model load, and the kept ratios) as
min / median / max over alternating windows, the JVM's CPU time per request of each window, and
the growth ratios per alternating round; includes the JFR profiles' summaries; charts latency
percentiles with gnuplot.
"""
import os
import re
import statistics
import subprocess
import sys

out, window, pairs, growth = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4].split()
rounds = int(sys.argv[5]) if len(sys.argv) > 5 else 1
raw = os.path.join(out, "raw")


def read(name):
    path = os.path.join(raw, name + ".txt")
    return open(path).read() if os.path.exists(path) else ""


def millis(value, unit):
    return float(value) * {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60000.0}[unit]


def wrk(name):
    text = read(name)
    result = {"rps": None, "p50": None, "p90": None, "p99": None, "non2xx": 0, "requests": 0, "errors": ""}
    match = re.search(r"Requests/sec:\s+([\d.]+)", text)
    if match:
        result["rps"] = float(match.group(1))
    for pct in ("50", "90", "99"):
        match = re.search(r"\s%s%%\s+([\d.]+)(us|ms|s|m)\b" % pct, text)
        if match:
            result["p" + pct] = millis(*match.groups())
    match = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", text)
    if match:
        result["non2xx"] = int(match.group(1))
    match = re.search(r"(\d+) requests in", text)
    if match:
        result["requests"] = int(match.group(1))
    match = re.search(r"Socket errors:.*", text)
    if match:
        result["errors"] = match.group(0)
    match = re.search(r"\d+ requests in ([\d.]+)(ms|s|m)\b", text)
    if match and result["requests"]:
        seconds = millis(*match.groups()) / 1000
        result["ok_rps"] = (result["requests"] - result["non2xx"]) / seconds if seconds else None
    match = re.search(r"(\d+) threads and (\d+) connections", text)
    if match:
        result["connections"] = int(match.group(2))
    match = re.search(r"Paced: ([\d.]+) requests/s scheduled; (\d+) sends, (\d+) more than 1 ms behind schedule "
                      r"\(at most ([\d.]+) ms\)", text)
    if match:
        result["paced"] = {"rate": float(match.group(1)), "sends": int(match.group(2)), "late": int(match.group(3)),
                           "max_late": float(match.group(4))}
    return result


def pgbench(name):
    text = read(name)
    result = {"rps": None, "p50": None, "p90": None, "p99": None, "non2xx": 0, "requests": 0, "errors": ""}
    match = re.search(r"tps = ([\d.]+)", text)
    if match:
        result["rps"] = float(match.group(1))
    match = re.search(r"latency average = ([\d.]+) ms", text)
    if match:
        result["p50"] = float(match.group(1))
    match = re.search(r"number of failed transactions: (\d+)", text)
    if match:
        result["non2xx"] = int(match.group(1))
    match = re.search(r"number of transactions actually processed: (\d+)", text)
    if match:
        result["requests"] = int(match.group(1))
    match = re.search(r"rate limit schedule lag: avg ([\d.]+) \(max ([\d.]+)\) ms", text)
    if match:
        result["lag"] = (float(match.group(1)), float(match.group(2)))
    return result


windows = []
steal = {}
cpu = {}
jvm_ms = {}  # the JVM's CPU time in the window and its JIT compiler threads' part, milliseconds
pg_ms = {}  # PostgreSQL's CPU time in the window (every server process), milliseconds
for line in open(os.path.join(raw, "windows.tsv")):
    fields = line.rstrip("\n").split("\t")
    name, kind, st, java, postgres, loadgen = fields[:6]
    windows.append((name, kind))
    steal[name] = float(st)
    cpu[name] = (float(java), float(postgres), float(loadgen))
    if len(fields) >= 8:
        jvm_ms[name] = (float(fields[6]), float(fields[7]))
    if len(fields) >= 9:
        pg_ms[name] = float(fields[8])

results = {name: (pgbench(name) if "pgbench" in kind else wrk(name)) for name, kind in windows}


def is_pgbench(name):
    return "pgbench" in dict(windows).get(name, "")


def cpu_per_request(name, without_jit=False):
    """The JVM's CPU milliseconds per completed request in a wrk window, or None."""
    if name not in jvm_ms or not results[name].get("requests") or is_pgbench(name):
        return None
    total, jit = jvm_ms[name]
    if without_jit and (jit < 0 or jit > total):
        return None  # a JIT compiler thread ended during the window, or the readings skewed: unknown
    return (total - jit if without_jit else total) / results[name]["requests"]


def fmt(value, digits=1):
    return "n/a" if value is None else f"{value:,.{digits}f}"


def spread(values):
    values = [v for v in values if v is not None]
    if not values:
        return "n/a", None
    return f"{min(values):.2f} / {statistics.median(values):.2f} / {max(values):.2f}", statistics.median(values)


def ratios(service_kind, reference_kind):
    service = [results[n]["rps"] for n, k in windows if k == service_kind]
    reference = [results[n]["rps"] for n, k in windows if k == reference_kind]
    values = [s / r for s, r in zip(service, reference) if s and r]
    clean = [s / r for (s, r, ns, nr) in zip(service, reference,
                                            [n for n, k in windows if k == service_kind],
                                            [n for n, k in windows if k == reference_kind])
             if s and r and steal[ns] <= 5 and steal[nr] <= 5]
    return values, clean


lines = []
# The last commit that changed what was measured (code, build or harness).
commit = subprocess.run(["git", "log", "-1", "--format=%h", "--", "src", "pom.xml", "bench/run.sh", "bench/lua",
                         "bench/sql"], capture_output=True, text=True).stdout.strip()
cores = os.cpu_count()
mem = next((l.split()[1] for l in open("/proc/meminfo") if l.startswith("MemTotal")), "?")
pg = subprocess.run(["psql", "-h", "127.0.0.1", "-U", "postgres", "-tAc", "SHOW server_version"],
                    capture_output=True, text=True).stdout.strip()
def rows_label(rows):
    rows = int(rows)
    if rows >= 1000000 and rows % 1000000 == 0:
        return f"{rows // 1000000}M"
    if rows >= 1000 and rows % 1000 == 0:
        return f"{rows // 1000}k"
    return str(rows)


lines += [f"# Payonce benchmark, {os.path.basename(out)} UTC", "",
          f"Commit `{commit}` (the last commit that changed the code, the build or the harness); {cores} cores, {int(mem) // 1024 // 1024 if mem != '?' else '?'} GiB; "
          f"PostgreSQL {pg}; windows of {window} s; {pairs} alternating pairs; wrk with 2 threads; "
          "pgbench `-M prepared -j 2`; Payonce, wrk, pgbench and PostgreSQL share the machine.", ""]
if window < 20 or pairs < 3:
    lines += [f"**Shortened run** ({window} s windows, {pairs} pair(s)): a smoke test of the harness; its figures "
              "are not comparable with a full run's.", ""]
lines += [
          "Every figure below comes from this one run. Ratios are taken between windows measured "
          "back to back and alternating; windows whose CPU steal exceeded 5 % are marked and left "
          "out of the 'clean' ratios.", ""]

new_all, new_clean = ratios("new-service", "new-pgbench")
rep_base_all, rep_base_clean = ratios("replay-service", "replay-baseline")
rep_pg_all, rep_pg_clean = ratios("replay-service", "replay-pgbench")
ref_base_all, ref_base_clean = ratios("refund-replay", "refund-baseline")
slow_all, slow_clean = ratios("slow", "instant")
storm_keys, storm_min, storm_max = (read("storm-charges").split() + ["0", "0", "0"])[:3]
rstorm_keys, rstorm_min, rstorm_max = (read("refund-storm-refunds").split() + ["0", "0", "0"])[:3]
largest = growth[-1] if growth else "0"


def growth_window(kind, rows, rnd):
    # Runs before the alternating rounds named their windows without a round.
    return results.get(f"growth-{kind}-{rows}-{rnd}") or results.get(f"growth-{kind}-{rows}", {})


def growth_ratios(rows):
    values = []
    for rnd in range(1, rounds + 1):
        empty, grown = growth_window("claim", "0", rnd), growth_window("claim", rows, rnd)
        if empty.get("p99") and grown.get("p99"):
            values.append(grown["p99"] / empty["p99"])
    return values


cleanup = read("cleanup").split()
deleted_per_s = None
if len(cleanup) == 4:
    before, after, started, ended = int(cleanup[0]), int(cleanup[1]), float(cleanup[2]), float(cleanup[3])
    deleted_per_s = (before - after) / (ended - started)


def kind_cpu(kind, without_jit=False):
    return [cpu_per_request(n, without_jit) for n, k in windows if k == kind]


def at_most(values, limit):
    values = [v for v in values if v is not None]
    return bool(values) and statistics.median(values) <= limit


def paired(service_kind, reference_kind):
    """(service window, reference window) pairs in the order they alternated."""
    return list(zip([n for n, k in windows if k == service_kind], [n for n, k in windows if k == reference_kind]))


def pg_per_request(name):
    """PostgreSQL's CPU milliseconds per completed request (wrk) or transaction (pgbench), or None."""
    requests = results.get(name, {}).get("requests")
    return pg_ms[name] / requests if name in pg_ms and requests else None


def same_rate(service_kind, reference_kind, clean=False):
    """PostgreSQL's CPU per request in each Payonce window over its per transaction in the pgbench
    window at the same rate that followed it."""
    values = []
    for s, r in paired(service_kind, reference_kind):
        if clean and (steal[s] > 5 or steal[r] > 5):
            continue
        a, b = pg_per_request(s), pg_per_request(r)
        values.append(a / b if a and b else None)
    return values


def jvm_over_pg(kind, clean=False):
    """The JVM's CPU over PostgreSQL's in each window of KIND: the app tier's cost per request
    relative to the database's, whatever the number of requests."""
    return [jvm_ms[n][0] / pg_ms[n] if n in jvm_ms and pg_ms.get(n) else None
            for n, k in windows if k == kind and not (clean and steal[n] > 5)]


def over_baseline(kind, baseline_kind):
    """JVM CPU per request of each KIND window over the no-database baseline's of the same round."""
    values = []
    for s, b in paired(kind, baseline_kind):
        a, c = cpu_per_request(s), cpu_per_request(b)
        values.append(a / c if a and c else None)
    return values


def reached(service_kind, reference_kind):
    """How much of the Payonce window's rate the pgbench window at that rate reached."""
    values = []
    for s, r in paired(service_kind, reference_kind):
        a, b = results[s].get("ok_rps"), results[r].get("rps")
        values.append(b / a if a and b else None)
    return values


def spread_of(values, digits, unit=""):
    values = [v for v in values if v is not None]
    if not values:
        return "n/a", None
    return (f"{min(values):.{digits}f} / {statistics.median(values):.{digits}f} / {max(values):.{digits}f}{unit}",
            statistics.median(values))


def met(ok):
    return "yes" if ok else "**no**"


def goal(label, target, values, ok, digits=2, unit="", suffix=""):
    text, median = spread_of(values, digits, unit)
    lines.append(f"| {label} | {target} | {text}{suffix} | {met(median is not None and ok(median))} |")


half = [n for n, k in windows if k == "latency-half"]
saturation = results.get("latency-saturation", {})
growth_values = growth_ratios(largest)
lines += ["## Goals", "", "Each goal holds when its median over the alternating windows meets the target.", "",
          "| Goal | Target | Measured (min / median / max) | Met |", "| --- | --- | --- | --- |"]
goal("1. Database work per new payment: PostgreSQL's CPU per payment in Payonce's windows / per transaction of "
     "pgbench with the same SQL at the same rate (`-R`, 32 connections)", "<= 1.10",
     same_rate("new-service", "new-pgbench-rate"), lambda m: m <= 1.10)
goal("2. Database work per new refund: the same against `sql/new-refund.sql` at the same rate", "<= 1.10",
     same_rate("refund-new", "refund-pgbench-rate"), lambda m: m <= 1.10)
goal("3a. The app tier stays cheap: JVM CPU / PostgreSQL CPU per new payment, same windows", "<= 0.50",
     jvm_over_pg("new-service"), lambda m: m <= 0.5)
goal("3b. The same per new refund", "<= 0.50", jvm_over_pg("refund-new"), lambda m: m <= 0.5)
goal("4a. Latency around a 200 ms provider at half the instant provider's saturation (open model): p50",
     "<= 205 ms", [results[n].get("p50") for n in half], lambda m: m <= 205, 1, " ms")
goal("4b. The same: p99", "<= 225 ms", [results[n].get("p99") for n in half], lambda m: m <= 225, 1, " ms")
goal("Replays vs the no-database HTTP baseline (32 connections), throughput", ">= 0.50", rep_base_all,
     lambda m: m >= 0.5)
goal("Refund replays vs the no-database HTTP baseline (32 connections), throughput", ">= 0.50", ref_base_all,
     lambda m: m >= 0.5)
goal("Slow provider (200 ms) vs the instant provider, 200 connections, throughput", ">= 0.90", slow_all,
     lambda m: m >= 0.9)
goal(f"Claim p99 at {int(largest):,} rows vs empty, per alternating round", "<= 1.2x", growth_values,
     lambda m: m <= 1.2, suffix=f" over {len(growth_values)} round(s)")
lines.append(f"| Same-key storm (256 connections): charges per key | exactly 1 | {storm_min}-{storm_max} over {storm_keys} keys | {met(storm_min == '1' and storm_max == '1')} |")
lines.append(f"| Same-key refund storm (256 connections): provider refunds per key | exactly 1 | {rstorm_min}-{rstorm_max} over {rstorm_keys} keys | {met(rstorm_min == '1' and rstorm_max == '1')} |")

paced_rates = [results[n].get("paced", {}).get("rate") for n in half]
lines += ["", "## Information", "", "Former goals and the figures that read the goals above; no target.", "",
          "| Figure | min / median / max |", "| --- | --- |",
          f"| New payments: Payonce's throughput / pgbench flat out (same SQL, 32 connections; a goal of >= 0.90 until 2026-12-02) | {spread_of(new_all, 2)[0]} |",
          f"| New payments: PostgreSQL's CPU per payment, Payonce / pgbench at the same rate (goal 1, beside the line above) | {spread_of(same_rate('new-service', 'new-pgbench-rate'), 2)[0]} |",
          f"| PostgreSQL's CPU per new payment: Payonce's windows | {spread_of([pg_per_request(n) for n, k in windows if k == 'new-service'], 3, ' ms')[0]} |",
          f"| PostgreSQL's CPU per transaction: pgbench at the same rate / flat out | {spread_of([pg_per_request(n) for n, k in windows if k == 'new-pgbench-rate'], 3, ' ms')[0]} / {spread_of([pg_per_request(n) for n, k in windows if k == 'new-pgbench'], 3, ' ms')[0]} |",
          f"| pgbench at the same rate reached (its transactions/s / Payonce's 2xx/s): payments, refunds | {spread_of(reached('new-service', 'new-pgbench-rate'), 2)[0]}; {spread_of(reached('refund-new', 'refund-pgbench-rate'), 2)[0]} |",
          f"| PostgreSQL's CPU per new refund: Payonce's windows / pgbench at the same rate | {spread_of([pg_per_request(n) for n, k in windows if k == 'refund-new'], 3, ' ms')[0]} / {spread_of([pg_per_request(n) for n, k in windows if k == 'refund-pgbench-rate'], 3, ' ms')[0]} |",
          f"| JVM CPU per new payment (a goal of <= 0.40 ms until 2026-12-02) | {spread_of(kind_cpu('new-service'), 2, ' ms')[0]} |",
          f"| JVM CPU per new payment / per no-database request of the same round | {spread_of(over_baseline('new-service', 'replay-baseline'), 1)[0]} |",
          f"| JVM CPU per new refund (a goal of <= 0.40 ms until 2026-12-02) | {spread_of(kind_cpu('refund-new'), 2, ' ms')[0]} |",
          f"| JVM CPU per new refund / per no-database request of the same round | {spread_of(over_baseline('refund-new', 'refund-baseline'), 1)[0]} |",
          f"| Goal 4's rate: half the instant provider's saturation (its 2xx/s at 200 connections) | {spread_of(paced_rates, 1, ' /s')[0]} |",
          f"| Latency around the 200 ms provider at the saturation rate ({fmt(saturation.get('paced', {}).get('rate'))} /s): p50 / p99 | {fmt(saturation.get('p50'), 1)} / {fmt(saturation.get('p99'), 1)} ms |",
          ""]

lines += ["## Ratios", "", "| Pair | All windows (min / median / max) | Windows with steal <= 5 % |", "| --- | --- | --- |",
          f"| New payments, PostgreSQL's CPU per payment: Payonce / pgbench same SQL at the same rate | {spread(same_rate('new-service', 'new-pgbench-rate'))[0]} | {spread(same_rate('new-service', 'new-pgbench-rate', True))[0]} |",
          f"| New refunds, PostgreSQL's CPU per refund: Payonce / pgbench same SQL at the same rate | {spread(same_rate('refund-new', 'refund-pgbench-rate'))[0]} | {spread(same_rate('refund-new', 'refund-pgbench-rate', True))[0]} |",
          f"| New payments, JVM CPU / PostgreSQL CPU | {spread(jvm_over_pg('new-service'))[0]} | {spread(jvm_over_pg('new-service', True))[0]} |",
          f"| New refunds, JVM CPU / PostgreSQL CPU | {spread(jvm_over_pg('refund-new'))[0]} | {spread(jvm_over_pg('refund-new', True))[0]} |",
          f"| New payments throughput: Payonce / pgbench same SQL flat out | {spread(new_all)[0]} | {spread(new_clean)[0]} |",
          f"| Replays: Payonce / no-database baseline | {spread(rep_base_all)[0]} | {spread(rep_base_clean)[0]} |",
          f"| Replays: Payonce / pgbench same SQL | {spread(rep_pg_all)[0]} | {spread(rep_pg_clean)[0]} |",
          f"| Refund replays: Payonce / no-database baseline | {spread(ref_base_all)[0]} | {spread(ref_base_clean)[0]} |",
          f"| Slow provider / instant provider (200 connections) | {spread(slow_all)[0]} | {spread(slow_clean)[0]} |", ""]

lines += ["## Database and JVM CPU per new payment and new refund", "",
          "Per round: Payonce's window, then pgbench with the same SQL at the rate Payonce just reached (its 2xx "
          "per second, `pgbench -R`, 32 clients), then (payments) pgbench flat out. CPU from `/proc`: PostgreSQL is "
          "every server process plus the postmaster's reaped children; the JVM is Payonce's process. Per request: "
          "divided by the requests wrk completed or the transactions pgbench completed.", "",
          "| Round | Payonce 2xx/s | PostgreSQL ms per request | pgbench -R reached /s | PostgreSQL ms per transaction | Ratio (goals 1, 2) | pgbench flat out: PostgreSQL ms per transaction | JVM ms per request | JVM / PostgreSQL (goal 3) |",
          "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
for label, service_kind, rate_kind, flat_kind in [("payment", "new-service", "new-pgbench-rate", "new-pgbench"),
                                                  ("refund", "refund-new", "refund-pgbench-rate", None)]:
    flats = [n for n, k in windows if k == flat_kind]
    for i, (s, r) in enumerate(paired(service_kind, rate_kind)):
        a, b = pg_per_request(s), pg_per_request(r)
        flat = pg_per_request(flats[i]) if i < len(flats) else None
        ratio = a / b if a and b else None
        jvm_pg = jvm_ms[s][0] / pg_ms[s] if s in jvm_ms and pg_ms.get(s) else None
        lines.append(f"| {label} {i + 1} | {fmt(results[s].get('ok_rps'))} | {fmt(a, 3)} | {fmt(results[r].get('rps'))} | "
                     f"{fmt(b, 3)} | {fmt(ratio, 2)} | {fmt(flat, 3) if flat_kind else '-'} | {fmt(cpu_per_request(s), 3)} | {fmt(jvm_pg, 2)} |")
lines.append("")

lines += ["## Latency around a 200 ms provider", "",
          "The slow-provider instance (`payonce.gateway.simulator.latency=200ms`) under an open-model load of new "
          "payments: wrk with `lua/paced-payments.lua`, which sends at a fixed rate on a schedule of its own (not "
          "when a connection's previous answer comes back), with four times as many connections as requests in flight "
          "at that rate. Each round's rate is half the instant provider's saturation, its 2xx per second in that "
          "round's instant window at 200 connections; the last row runs once at the median saturation rate, for "
          "information. Debian's `hey` paces too, but sends the same headers with every request, so every request "
          "after the first would carry the same Idempotency-Key and be a replay. wrk measures latency from the moment "
          "a request is written: a send behind its schedule (no connection free) would hide queueing, so the "
          "'behind schedule' column counts them.", "",
          "| Window | Scheduled /s | 2xx /s | Connections | p50 ms | p90 ms | p99 ms | Non-2xx | Sends more than 1 ms behind schedule (at most) |",
          "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
for name in half + (["latency-saturation"] if "latency-saturation" in results else []):
    r = results[name]
    paced = r.get("paced", {})
    late = f"{paced['late']:,} of {paced['sends']:,} ({paced['max_late']:.1f} ms)" if paced else "n/a"
    lines.append(f"| {name} | {fmt(paced.get('rate'))} | {fmt(r.get('ok_rps'))} | {r.get('connections', 'n/a')} | "
                 f"{fmt(r.get('p50'), 1)} | {fmt(r.get('p90'), 1)} | {fmt(r.get('p99'), 1)} | {r['non2xx']} | {late} |")
lines.append("")

lines += ["## Settings that differ from a user's defaults", "",
          "| Setting | Default | Here | Why |", "| --- | --- | --- | --- |",
          "| `spring.datasource.hikari.maximum-pool-size` | 20 | 32 (`BENCH_POOL`) | one pooled connection per wrk "
          "connection and per pgbench client: both sides of each comparison hold 32 database sessions |",
          "| `payonce.security.rate-limit.enabled` | true (100 requests/s per client) | false | one client sends "
          "thousands of requests per second: the harness measures the idempotency engine, not the limiter |",
          "| `payonce.idempotency.quota.max-live-records` | 1,000,000 | 0 (no cap) | the growth phase holds 10 "
          "million live records for one client |",
          "| `payonce.idempotency.cleanup.enabled` | true (every minute) | false, except the cleanup phase "
          "(every second, batches of 1,000) | the retention job's deletes stay out of the other windows; the "
          "cleanup phase measures them |",
          "| `spring.profiles.active=bench` and `payonce.benchmark.baseline.enabled` | off | on | opens the "
          "unauthenticated no-database `POST /bench/baseline`, the replay goals' reference |",
          "| `payonce.gateway.simulator.latency` (second instance only) | 0s | 200ms | the slow provider: the "
          "throughput goal at 200 connections and the latency goals |",
          ""]

lines += ["## JVM CPU per request", "", "The JVM's CPU time (user + system, every thread of the process, from "
          "`/proc/<pid>/stat`) during each window divided by the requests wrk completed in it: unlike throughput, "
          "it barely depends on what else the machine runs. 'Without JIT' leaves out the JIT compiler threads, "
          "whose work is warm-up a long-running server no longer pays.", "",
          "| Scenario | ms per request (min / median / max) | without JIT | windows |", "| --- | --- | --- | --- |"]
for label, kind in [("New payments (32 connections)", "new-service"), ("Replays (32)", "replay-service"),
                    ("No-database baseline (32)", "replay-baseline"), ("New refunds (32)", "refund-new"),
                    ("Refund replays (32)", "refund-replay"), ("Slow provider (200)", "slow"),
                    ("Instant provider (200)", "instant"), ("Same-key storm (256)", "storm"),
                    ("Refund storm (256)", "refund-storm"), ("Mix (32)", "mix"),
                    ("200 ms provider at half saturation (paced)", "latency-half"),
                    ("200 ms provider at saturation (paced)", "latency-saturation"), ("Growth claims (8)", "growth-claim"),
                    ("Growth replays (8)", "growth-replay")]:
    values = kind_cpu(kind)
    if any(v is not None for v in values):
        lines.append(f"| {label} | {spread(values)[0]} | {spread(kind_cpu(kind, True))[0]} | {sum(v is not None for v in values)} |")
lines.append("")

lines += ["## Windows", "", "CPU columns: share of the whole machine (all cores) used during the window by Payonce's JVM, "
          "by PostgreSQL and by the load generator (wrk or pgbench); what is left was idle or used by others.", "",
          "| Window | Throughput (per s) | p50 ms (pgbench: average) | p90 ms | p99 ms | Non-2xx / failed | CPU steal % | JVM % | PostgreSQL % | Load generator % | JVM CPU ms per request | PostgreSQL CPU ms per request |",
          "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
for name, kind in windows:
    r = results[name]
    mark = " (steal > 5 %)" if steal[name] > 5 else ""
    j, p, l = cpu[name]
    lines.append(f"| {name}{mark} | {fmt(r['rps'])} | {fmt(r['p50'], 2)} | {fmt(r['p90'], 2)} | {fmt(r['p99'], 2)} | {r['non2xx']} | {steal[name]:.1f} | {j:.0f} | {p:.0f} | {l:.0f} | {fmt(cpu_per_request(name), 3)} | {fmt(pg_per_request(name), 3)} |")
lines += ["", "pgbench rows give transactions (one whole payment, refund or replay script) per second and the "
          "average latency in the p50 column. A replay window's few non-2xx answers are most likely 409s for "
          "keys whose requests were still in flight when the preceding claim window ended.", ""]

lines += ["## Growth", "", f"Sizes alternate within each of {rounds} round(s) (empty, then each size); each ratio "
          "compares windows of the same round.", "",
          "| Round | Rows in idempotency_records | Claim p50 ms | Claim p99 ms | Claim p99 / empty | Replay p50 ms | Replay p99 ms |",
          "| --- | --- | --- | --- | --- | --- | --- |"]
for rnd in range(1, rounds + 1):
    empty = growth_window("claim", "0", rnd)
    for rows in ["0"] + growth:
        claim, replay = growth_window("claim", rows, rnd), growth_window("replay", rows, rnd)
        ratio = claim["p99"] / empty["p99"] if claim.get("p99") and empty.get("p99") else None
        lines.append(f"| {rnd} | {int(rows):,} | {fmt(claim.get('p50'), 2)} | {fmt(claim.get('p99'), 2)} | {fmt(ratio, 2)} | {fmt(replay.get('p50'), 2)} | {fmt(replay.get('p99'), 2)} |")
for rows in growth:
    lines.append("")
    lines.append(f"Claim p99 at {int(rows):,} rows / empty over the rounds: {spread(growth_ratios(rows))[0]} (min / median / max).")
clean_claim = results.get("cleanup-claim", {})
exhausted = len(cleanup) == 4 and int(cleanup[1]) == 0
last_largest = growth_window("claim", largest, rounds)
lines += ["", f"Cleanup: {fmt(deleted_per_s, 0)} expired records deleted per second (batches of 1,000 every second"
          f"{'; all 1,000,000 were gone before the window ended, so this is a lower bound' if exhausted else ''}) "
          f"while new payments ran at 8 connections; their p99 was {fmt(clean_claim.get('p99'), 2)} ms, against "
          f"{fmt(last_largest.get('p99'), 2)} ms without cleanup in the growth phase's last round at {int(largest):,} rows "
          "(the cleanup phase adds the 1,000,000 expired rows to those).", ""]

storm = results.get("storm", {})
lines += ["## Storm and mix", "",
          f"Storm: {storm.get('requests', 0):,} requests on {storm_keys} keys (each key for one second at 256 "
          f"connections): {storm.get('non2xx', 0):,} non-2xx (409 in progress, or 503 where no pooled connection came within 2 s), the rest 201; ledger charges per key "
          f"{storm_min}-{storm_max}.", "",
          f"Refund storm: {results.get('refund-storm', {}).get('requests', 0):,} requests on {rstorm_keys} keys: "
          f"{results.get('refund-storm', {}).get('non2xx', 0):,} non-2xx (409 in progress, or 503 where no pooled connection came within 2 s); provider refunds per key "
          f"{rstorm_min}-{rstorm_max}.", "",
          f"Mix (90 % new, 10 % retries): {fmt(results.get('mix', {}).get('rps'))} requests/s, p99 "
          f"{fmt(results.get('mix', {}).get('p99'), 2)} ms, {results.get('mix', {}).get('non2xx', 0)} non-2xx.", ""]

# Latency chart: p50, p90 and p99 of each Payonce scenario's last window.
chart = [("new", "new-service-%d" % pairs), ("replay", "replay-service-%d" % pairs),
         ("baseline", "replay-baseline-%d" % pairs), ("refund", "refund-new-%d" % pairs), ("refund-replay", "refund-replay-%d" % pairs),
         ("mix", "mix"), ("storm", "storm"), ("refund-storm", "refund-storm"), ("slow", "slow-%d" % pairs),
         ("instant", "instant-%d" % pairs), ("200ms-half-rate", "latency-half-%d" % pairs),
         ("claim-empty", "growth-claim-0-%d" % rounds), (f"claim-{rows_label(largest)}", f"growth-claim-{largest}-{rounds}"),
         ("replay-empty", "growth-replay-0-%d" % rounds), (f"replay-{rows_label(largest)}", f"growth-replay-{largest}-{rounds}")]
data = os.path.join(raw, "latency.dat")
with open(data, "w") as f:
    for label, name in chart:
        r = results.get(name)
        if r and r.get("p99"):
            f.write(f"{label} {r['p50']} {r['p90']} {r['p99']}\n")
png = os.path.join(out, "latency.png")
subprocess.run(["gnuplot", "-e", f"""
set terminal pngcairo size 1100,520 font ',10' noenhanced;
set output '{png}';
set title 'Payonce latency per scenario (wrk, last window of each)';
set ylabel 'milliseconds (log scale)'; set logscale y; set grid ytics;
set style data histograms; set style histogram clustered gap 1; set style fill solid 0.8 border -1;
set xtics rotate by -30; set key top left;
plot '{data}' using 2:xtic(1) title 'p50', '' using 3 title 'p90', '' using 4 title 'p99'
"""], check=False)
profiles = [("New payments (32 connections)", "profile-new-payments"), ("Replays (32)", "profile-replays"),
            ("New refunds (32)", "profile-new-refunds"), ("Refund replays (32)", "profile-refund-replays"),
            ("Slow provider (200 ms, 200 connections)", "profile-slow")]
if any(os.path.exists(os.path.join(raw, name + ".md")) for _, name in profiles):
    lines += ["## Profiles", "", "JFR (`settings=profile`, plus `jdk.VirtualThreadPinned` at any duration) over one "
              "extra, unmeasured window of each scenario; the recordings are `raw/profile-*.jfr` on the machine that "
              "ran the benchmark, not in git (open them with `jfr view` or JDK Mission Control). Each CPU sample counts for the first frame on its stack that is "
              "not the JDK's own.", ""]
    for label, name in profiles:
        path = os.path.join(raw, name + ".md")
        if os.path.exists(path):
            lines += [f"### {label}", "", open(path).read().strip(), ""]

lines += ["![Latency per scenario](latency.png)", "", "Raw wrk and pgbench output, the server logs and "
          "the CPU steal of every window are in `raw/`.", ""]

with open(os.path.join(out, "report.md"), "w") as f:
    f.write("\n".join(lines))
print("\n".join(lines[:20]))
