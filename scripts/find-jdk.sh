# Sourced by bench/run.sh: sets and exports JAVA_HOME to a JDK 21 or newer,
# keeping the caller's JAVA_HOME when it already is one; fails if there is none.
java_major() {
  "$1/bin/java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = \([0-9]*\).*/\1/p'
}

if [ -z "${JAVA_HOME:-}" ] || [ ! -x "$JAVA_HOME/bin/java" ] || [ "$(java_major "$JAVA_HOME")" -lt 21 ]; then
  JAVA_HOME=""
  for candidate in /usr/lib/jvm/temurin-25-jdk-amd64 /usr/lib/jvm/*; do
    if [ -x "$candidate/bin/java" ] && [ "$(java_major "$candidate")" -ge 21 ]; then
      JAVA_HOME="$candidate"
      break
    fi
  done
  if [ -z "$JAVA_HOME" ]; then
    echo "No JDK 21 or newer found under /usr/lib/jvm" >&2
    exit 1
  fi
fi
export JAVA_HOME
export PATH="$JAVA_HOME/bin:$PATH"
echo "Using JDK at $JAVA_HOME (Java $(java_major "$JAVA_HOME"))"
