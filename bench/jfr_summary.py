"""Summarises a JFR recording as Markdown: where the CPU samples and the sampled allocations
went, by library and by method, and how often a virtual thread was pinned.

Usage: python3 bench/jfr_summary.py FILE.jfr [TOP]
Each CPU sample (jdk.ExecutionSample) counts for the library of the first frame, from the top
of the stack, that is not the JDK's own (java.*, jdk.*, sun.*): a wrapper such as a servlet
filter counts only for its own frames. Allocation samples (jdk.ObjectAllocationSample) are
counted, not weighted. Needs the JDK's `jfr` tool (JAVA_HOME or PATH).
"""
import collections
import json
import os
import shutil
import subprocess
import sys

LIBRARIES = [  # first matching prefix wins
    ("dev.payonce.", "Payonce"),
    ("org.hibernate.validator.", "Hibernate Validator"),
    ("org.hibernate.", "Hibernate"),
    ("org.springframework.security.", "Spring Security"),
    ("org.springframework.data.", "Spring Data"),
    ("org.springframework.transaction.", "Spring tx"),
    ("org.springframework.orm.", "Spring ORM"),
    ("org.springframework.jdbc.", "Spring JDBC"),
    ("org.springframework.web.", "Spring MVC"),
    ("org.springframework.http.", "Spring MVC"),
    ("org.springframework.boot.logging.", "Spring Boot logging"),
    ("org.springframework.boot.", "Spring Boot"),
    ("org.springframework.aop.", "Spring AOP"),
    ("org.springframework.", "Spring core"),
    ("org.apache.catalina.", "Tomcat"),
    ("org.apache.coyote.", "Tomcat"),
    ("org.apache.tomcat.", "Tomcat"),
    ("io.micrometer.", "Micrometer"),
    ("org.postgresql.", "PostgreSQL JDBC"),
    ("com.zaxxer.hikari.", "Hikari"),
    ("tools.jackson.", "Jackson"),
    ("com.fasterxml.jackson.", "Jackson"),
    ("ch.qos.logback.", "Logback"),
    ("org.slf4j.", "SLF4J"),
    ("jakarta.", "Jakarta APIs"),
    ("net.bytebuddy.", "Byte Buddy"),
]
JDK = ("java.", "jdk.", "sun.", "javax.", "com.sun.")


def library(cls):
    for prefix, name in LIBRARIES:
        if cls.startswith(prefix):
            return name
    return "other: " + ".".join(cls.split(".")[:2])


def frames(event):
    trace = event["values"].get("stackTrace") or {}
    for frame in trace.get("frames") or []:
        method = frame.get("method") or {}
        cls = (method.get("type") or {}).get("name", "?").replace("/", ".")
        yield cls, method.get("name", "?")


def first_own(event):
    """The first non-JDK frame from the top, or the top frame when every frame is the JDK's."""
    top = None
    for cls, name in frames(event):
        if top is None:
            top = (cls, name)
        if not cls.startswith(JDK):
            return cls, name, library(cls)
    if top is None:
        return "?", "?", "no stack"
    return top[0], top[1], "JDK only"


def events(path, names):
    jfr = os.path.join(os.environ["JAVA_HOME"], "bin", "jfr") if os.environ.get("JAVA_HOME") else shutil.which("jfr")
    out = subprocess.run([jfr, "print", "--json", "--stack-depth", "96", "--events", names, path],
                         capture_output=True, text=True, check=True).stdout
    return json.loads(out)["recording"]["events"]


def table(title, unit, counter, total, top):
    lines = [f"| {title} | {unit} | share |", "| --- | --- | --- |"]
    for key, value in counter.most_common(top):
        lines.append(f"| `{key}` | {value:,.0f} | {100 * value / total:.1f} % |" if total else f"| `{key}` | 0 | |")
    return lines


def summarise(path, top=12):
    cpu = events(path, "jdk.ExecutionSample")
    alloc = events(path, "jdk.ObjectAllocationSample")
    pinned = events(path, "jdk.VirtualThreadPinned")
    lines = [f"CPU samples: {len(cpu):,}; allocation samples: {len(alloc):,}; "
             f"virtual-thread pinned events: {len(pinned)}.", ""]
    by_lib, by_method, by_top = collections.Counter(), collections.Counter(), collections.Counter()
    for event in cpu:
        cls, name, lib = first_own(event)
        by_lib[lib] += 1
        by_method[f"{cls}.{name}"] += 1
        first = next(frames(event), ("?", "?"))
        by_top[f"{first[0]}.{first[1]}"] += 1
    n = len(cpu)
    lines += ["CPU by library (first non-JDK frame):", ""] + table("library", "samples", by_lib, n, top) + [""]
    lines += ["CPU by method (first non-JDK frame):", ""] + table("method", "samples", by_method, n, top) + [""]
    lines += ["CPU by top frame (self time, JDK included):", ""] + table("method", "samples", by_top, n, top) + [""]
    # Counted per sample, not weighted: the bytes a sample stands for (its weight) are skewed
    # by virtual threads, whose first sample can carry a carrier thread's whole history.
    a_lib, a_method, a_class = collections.Counter(), collections.Counter(), collections.Counter()
    for event in alloc:
        cls, name, lib = first_own(event)
        a_lib[lib] += 1
        a_method[f"{cls}.{name}"] += 1
        a_class[((event["values"].get("objectClass") or {}).get("name", "?")).replace("/", ".")] += 1
    m = len(alloc)
    lines += ["Allocation samples by library (first non-JDK frame):", ""] + table("library", "samples", a_lib, m, top) + [""]
    lines += ["Allocation samples by method (first non-JDK frame):", ""] + table("method", "samples", a_method, m, top) + [""]
    lines += ["Allocation samples by class:", ""] + table("class", "samples", a_class, m, top) + [""]
    if pinned:
        reasons = collections.Counter(f"{first_own(e)[0]}.{first_own(e)[1]}" for e in pinned)
        lines += ["Pinned virtual threads (first non-JDK frame):", ""]
        lines += table("method", "events", reasons, len(pinned), top) + [""]
    return "\n".join(lines)


if __name__ == "__main__":
    print(summarise(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 12))
