#!/usr/bin/env bash
# The native provider on Linux rxe (issue 13, item 6, first half): builds on the host (Java under
# TCG is slow), boots one lab guest with this checkout shared read-only at /src and the host's
# JDK 25 at /opt/jdk, and runs the compiled jrdma-native tests — every jrdma-testkit conformance
# suite, the hot-path allocation test, the layout test — in guest g1 on rxe0 with the JUnit
# Platform launcher. Its last line is
#   conformance on rxe: N passed, M failed, K skipped
# The lab is torn down whatever happens (trap). Needs root and ../shared/lab.
# Usage: interop/rxe-native.sh [TEST-CLASS...]   (e.g. org.jrdma.ibv.conformance.NativeResourceTest)
#   JRDMA_NATIVE_GID_INDEX (default 1: rxe's RoCEv2 IPv4 GID), TIMEOUT (guest run, default 5400 s)
set -euo pipefail
start=$(date +%s)
here=$(cd "$(dirname "$0")/.." && pwd)
lab=${LAB_DIR:-$here/../shared/lab}
[ -d "$lab" ] || lab=$here/../../shared/lab # a worktree under /work/wt
[ "$(id -u)" -eq 0 ] || { echo "rxe-native: run as root (the lab boots QEMU guests)" >&2; exit 2; }
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
m2=${M2_REPO:-$HOME/.m2/repository}
stage=$here/target/rxe-native
gid=${JRDMA_NATIVE_GID_INDEX:-1}

# ---- build on the host ---------------------------------------------------------------------------
(cd "$here" && ./mvnw -B -o -q -pl jrdma-native -am test-compile)
rm -rf "$stage" && mkdir -p "$stage/lib" "$stage/classes"
jars="org/junit/jupiter/junit-jupiter-api/6.1.3/junit-jupiter-api-6.1.3.jar
org/junit/jupiter/junit-jupiter-engine/6.1.3/junit-jupiter-engine-6.1.3.jar
org/junit/jupiter/junit-jupiter-params/6.1.3/junit-jupiter-params-6.1.3.jar
org/junit/platform/junit-platform-commons/6.1.3/junit-platform-commons-6.1.3.jar
org/junit/platform/junit-platform-engine/6.1.3/junit-platform-engine-6.1.3.jar
org/junit/platform/junit-platform-launcher/6.1.3/junit-platform-launcher-6.1.3.jar
org/opentest4j/opentest4j/1.3.0/opentest4j-1.3.0.jar
org/apiguardian/apiguardian-api/1.1.2/apiguardian-api-1.1.2.jar
org/jspecify/jspecify/1.0.0/jspecify-1.0.0.jar
org/assertj/assertj-core/3.27.7/assertj-core-3.27.7.jar
net/bytebuddy/byte-buddy/1.18.3/byte-buddy-1.18.3.jar"
for j in $jars; do cp "$m2/$j" "$stage/lib/"; done
"$JAVA_HOME/bin/javac" -d "$stage/classes" -cp "$stage/lib/*" "$here/interop/rxe-native/ConformanceMain.java"
# the guest sees the checkout at /src
cp=/src/target/rxe-native/classes:/src/jrdma-native/target/test-classes:/src/jrdma-native/target/classes
cp=$cp:/src/jrdma-testkit/target/classes:/src/jrdma-verbs/target/classes:/src/target/rxe-native/lib/*

# ---- the lab ---------------------------------------------------------------------------------------
teardown() {
  (cd "$lab" && ./run-lab.sh down >/dev/null 2>&1) || true
  if [ -f /var/tmp/jrdma-lab/run/g1/qemu.pid ] && kill -0 "$(cat /var/tmp/jrdma-lab/run/g1/qemu.pid)" 2>/dev/null; then
    echo "rxe-native: the lab's g1 QEMU is still running"
  fi
  echo "rxe-native: $(( $(date +%s) - start )) s in all; lab down"
}
# one run of this lab at a time (its guests, bridge and namespace are shared)
while pgrep -f 'run-all.sh|run-lab.sh' >/dev/null; do
  echo "rxe-native: another lab run is active; waiting"; sleep 10
done
trap teardown EXIT
cd "$lab"
LAB_DEV=${LAB_DEV:-0} ./build-guest.sh >/dev/null
LAB_SHARE=$here ./run-lab.sh up 1
./run-lab.sh setup

job="native-$$"
classes=""
[ $# -eq 0 ] || classes=$(printf '%q ' "$@")
./run-lab.sh submit 1 "$job" "cd /src && JRDMA_NATIVE_DEVICE=rxe0 JRDMA_NATIVE_GID_INDEX=$gid \
  /opt/jdk/bin/java -XX:TieredStopAtLevel=1 -XX:+UseSerialGC --enable-native-access=ALL-UNNAMED \
  -Djrdma.native.csrc=/src/jrdma-native/src/test/c -Djrdma.native.build=/tmp \
  -cp '$cp' ConformanceMain $classes 2>&1"
rc=0
./run-lab.sh wait 1 "$job" "${TIMEOUT:-5400}" > "$stage/guest.log" || rc=$?
grep -v '^conformance on rxe:' "$stage/guest.log" | tail -n 200
trap - EXIT
teardown
tail -n 1 "$stage/guest.log" | grep '^conformance on rxe:' || echo "conformance on rxe: run did not finish (rc $rc; see $stage/guest.log)"
exit "$rc"
