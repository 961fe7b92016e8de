# Sourced by bench/run.sh and bench/cpu.sh: JVM CPU counters and JFR profiles.

# jvm_cpu_ms PID: CPU time (user + system, milliseconds) the process has used so far.
jvm_cpu_ms() {
  awk -v hz="$(getconf CLK_TCK)" '{ printf "%d\n", ($14 + $15) * 1000 / hz }' "/proc/$1/stat"
}

# jvm_sys_ms PID: the part of jvm_cpu_ms spent in the kernel (stime).
jvm_sys_ms() {
  awk -v hz="$(getconf CLK_TCK)" '{ printf "%d\n", $15 * 1000 / hz }' "/proc/$1/stat"
}

# jvm_jit_ms PID: CPU time (milliseconds) the JVM's JIT compiler threads have used so far, a
# warm-up cost that a long-running server no longer pays: subtracted, it makes short
# measurements on a busy machine comparable. Threads that ended are not counted.
jvm_jit_ms() {
  cat /proc/"$1"/task/*/stat 2> /dev/null | awk -v hz="$(getconf CLK_TCK)" '
    /\((C1|C2) CompilerThre/ { sub(/^.*\) /, ""); total += $12 + $13 }
    END { printf "%d\n", total * 1000 / hz }'
}

# jfr_profile PID FILE COMMAND...: records a JFR profile (CPU samples, allocation samples,
# virtual-thread pinning) of the JVM while COMMAND runs, into FILE.
jfr_profile() {
  local pid="$1" file="$2" name="bench-$$-$RANDOM"
  shift 2
  "$JAVA_HOME/bin/jcmd" "$pid" JFR.start name="$name" settings=profile \
    jdk.VirtualThreadPinned#enabled=true jdk.VirtualThreadPinned#threshold=0ms > /dev/null
  "$@"
  "$JAVA_HOME/bin/jcmd" "$pid" JFR.stop name="$name" filename="$file" > /dev/null
}

# jfr_summary FILE: Markdown tables of the profile's top frames by library and by method.
jfr_summary() {
  python3 "$BENCH_DIR/jfr_summary.py" "$1"
}
