"""Turns one bench/run.sh run (its raw/ folder) into report.md and latency.png.

Usage: python3 bench/report.py RESULTS_DIR WINDOW_SECONDS PAIRS "GROWTH_SIZES"
Parses wrk and pgbench output; computes throughput ratios per alternating pair and their
min / median / max; charts latency percentiles with gnuplot.
"""
import os
import re
import statistics
import subprocess
import sys

out, window, pairs, growth = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4].split()
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
    return result


windows = []
steal = {}
cpu = {}
for line in open(os.path.join(raw, "windows.tsv")):
    name, kind, st, java, postgres, loadgen = line.rstrip("\n").split("\t")
    windows.append((name, kind))
    steal[name] = float(st)
    cpu[name] = (float(java), float(postgres), float(loadgen))

results = {name: (pgbench(name) if "pgbench" in kind else wrk(name)) for name, kind in windows}


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
storm_keys, storm_min, storm_max = (read("storm-charges").split() + ["0", "0", "0"])[:3]
slow = results.get("slow", {}).get("rps")
claims = {rows: results.get(f"growth-claim-{rows}", {}) for rows in ["0"] + growth}
replays = {rows: results.get(f"growth-replay-{rows}", {}) for rows in ["0"] + growth}
largest = growth[-1] if growth else "0"
p99_growth = (claims[largest].get("p99") / claims["0"]["p99"]) if claims["0"].get("p99") and claims[largest].get("p99") else None

cleanup = read("cleanup").split()
deleted_per_s = None
if len(cleanup) == 4:
    before, after, started, ended = int(cleanup[0]), int(cleanup[1]), float(cleanup[2]), float(cleanup[3])
    deleted_per_s = (before - after) / (ended - started)

new_text, new_median = spread(new_all)
rep_text, rep_median = spread(rep_base_all)
lines += ["## Goals", "", "| Goal | Target | Measured | Met |", "| --- | --- | --- | --- |"]


def met(ok):
    return "yes" if ok else "**no**"


lines.append(f"| New payments vs pgbench with the same SQL (32 connections), median ratio | >= 0.90 | {new_text} (min / median / max) | {met(new_median is not None and new_median >= 0.9)} |")
lines.append(f"| Replays vs the no-database HTTP baseline (32 connections), median ratio | >= 0.50 | {rep_text} | {met(rep_median is not None and rep_median >= 0.5)} |")
lines.append(f"| Slow provider (200 ms, 200 connections) | >= 800 payments/s | {fmt(slow)} | {met(slow is not None and slow >= 800)} |")
lines.append(f"| Claim p99 at {int(largest):,} rows vs empty | <= 1.2x | {fmt(p99_growth, 2)}x (the empty window runs first, after a restart: a ratio below 1 means no growth, not a speed-up) | {met(p99_growth is not None and p99_growth <= 1.2)} |")
lines.append(f"| Same-key storm (256 connections): charges per key | exactly 1 | {storm_min}-{storm_max} over {storm_keys} keys | {met(storm_min == '1' and storm_max == '1')} |")
lines.append("")

lines += ["## Ratios", "", "| Pair | All windows (min / median / max) | Windows with steal <= 5 % |", "| --- | --- | --- |",
          f"| New payments: Payonce / pgbench same SQL | {spread(new_all)[0]} | {spread(new_clean)[0]} |",
          f"| Replays: Payonce / no-database baseline | {spread(rep_base_all)[0]} | {spread(rep_base_clean)[0]} |",
          f"| Replays: Payonce / pgbench same SQL | {spread(rep_pg_all)[0]} | {spread(rep_pg_clean)[0]} |", ""]

lines += ["## Windows", "", "CPU columns: share of the whole machine (all cores) used during the window by Payonce's JVM, "
          "by PostgreSQL and by the load generator (wrk or pgbench); what is left was idle or used by others.", "",
          "| Window | Throughput (per s) | p50 ms (pgbench: average) | p90 ms | p99 ms | Non-2xx / failed | CPU steal % | JVM % | PostgreSQL % | Load generator % |",
          "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
for name, kind in windows:
    r = results[name]
    mark = " (steal > 5 %)" if steal[name] > 5 else ""
    j, p, l = cpu[name]
    lines.append(f"| {name}{mark} | {fmt(r['rps'])} | {fmt(r['p50'], 2)} | {fmt(r['p90'], 2)} | {fmt(r['p99'], 2)} | {r['non2xx']} | {steal[name]:.1f} | {j:.0f} | {p:.0f} | {l:.0f} |")
lines += ["", "pgbench rows give transactions (one whole payment or replay script) per second and the "
          "average latency in the p50 column. A replay window's few non-2xx answers are most likely 409s for "
          "keys whose requests were still in flight when the preceding claim window ended.", ""]

lines += ["## Growth", "", "| Rows in idempotency_records | Claim p50 ms | Claim p99 ms | Replay p50 ms | Replay p99 ms |",
          "| --- | --- | --- | --- | --- |"]
for rows in ["0"] + growth:
    lines.append(f"| {int(rows):,} | {fmt(claims[rows].get('p50'), 2)} | {fmt(claims[rows].get('p99'), 2)} | {fmt(replays[rows].get('p50'), 2)} | {fmt(replays[rows].get('p99'), 2)} |")
clean_claim = results.get("cleanup-claim", {})
exhausted = len(cleanup) == 4 and int(cleanup[1]) == 0
lines += ["", f"Cleanup: {fmt(deleted_per_s, 0)} expired records deleted per second (batches of 1,000 every second"
          f"{'; all 1,000,000 were gone before the window ended, so this is a lower bound' if exhausted else ''}) "
          f"while new payments ran at 8 connections; their p99 was {fmt(clean_claim.get('p99'), 2)} ms, against "
          f"{fmt(claims[largest].get('p99'), 2)} ms without cleanup in the growth phase at {int(largest):,} rows "
          "(the cleanup phase adds the 1,000,000 expired rows to those).", ""]

storm = results.get("storm", {})
lines += ["## Storm and mix", "",
          f"Storm: {storm.get('requests', 0):,} requests on {storm_keys} keys (each key for one second at 256 "
          f"connections): {storm.get('non2xx', 0):,} answered 409 in progress, the rest 201; ledger charges per key "
          f"{storm_min}-{storm_max}.", "",
          f"Mix (90 % new, 10 % retries): {fmt(results.get('mix', {}).get('rps'))} requests/s, p99 "
          f"{fmt(results.get('mix', {}).get('p99'), 2)} ms, {results.get('mix', {}).get('non2xx', 0)} non-2xx.", ""]

# Latency chart: p50, p90 and p99 of each Payonce scenario's last window.
chart = [("new", "new-service-%d" % pairs), ("replay", "replay-service-%d" % pairs),
         ("baseline", "replay-baseline-%d" % pairs), ("mix", "mix"), ("storm", "storm"), ("slow", "slow"),
         ("claim-empty", "growth-claim-0"), (f"claim-{rows_label(largest)}", f"growth-claim-{largest}"),
         ("replay-empty", "growth-replay-0"), (f"replay-{rows_label(largest)}", f"growth-replay-{largest}")]
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
lines += ["![Latency per scenario](latency.png)", "", "Raw wrk and pgbench output, the server logs and "
          "the CPU steal of every window are in `raw/`.", ""]

with open(os.path.join(out, "report.md"), "w") as f:
    f.write("\n".join(lines))
print("\n".join(lines[:20]))
