#!/usr/bin/env bash
# The native provider on Linux rxe (issue 13, items 5-7), in one command: three steps, each of
# which builds on the host (Java under TCG is slow), boots the lab's guests with this checkout
# shared read-only at /src and the host's JDK 25 at /opt/jdk, and tears them down (trap):
#   conformance  every jrdma-testkit conformance suite, the hot-path allocation test and the
#                layout test, compiled on the host, run in guest g1 on rxe0 with the JUnit
#                Platform launcher (rxe-native/ConformanceMain.java), eth0 at MTU $LAB_MTU so
#                rxe0's path MTU reaches 4096;
#   tools        interop/rxe-native-tools.sh: jrdma --provider native against rdma-core's tools
#                and against jrdma on soft, both roles, data checked; then the speed ratios;
#   cm           interop/rxe-native-cm.sh: jrdma-cm on librdmacm (rping, perf -R, the loopback
#                tests) against the kernel's rdma_cm.
# Then a summary: the tools' and the CM's pass/fail tables, the speed rows, the time, and as its
# last line
#   conformance on rxe: N passed, M failed, K skipped
# Needs root and ../shared/lab (the default lab instance, one step after the other).
# Usage: interop/rxe-native.sh [conformance] [tools] [cm]   (default: all three)
#        interop/rxe-native.sh TEST-CLASS...   (conformance of those classes only, e.g.
#                                               org.jrdma.ibv.conformance.NativeResourceTest)
#   JRDMA_NATIVE_GID_INDEX (default 1: rxe's RoCEv2 IPv4 GID), TIMEOUT (guest run, default 5400 s),
#   LAB_MTU (g1's eth0 for the conformance step, default 9000; 1500 gives rxe0 path MTU 1024)
set -euo pipefail
start=$(date +%s)
here=$(cd "$(dirname "$0")/.." && pwd)
lab=${LAB_DIR:-$here/../shared/lab}
[ -d "$lab" ] || lab=$here/../../shared/lab # a worktree under /work/wt
export LAB_DIR=$lab
[ "$(id -u)" -eq 0 ] || { echo "rxe-native: run as root (the lab boots QEMU guests)" >&2; exit 2; }
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
stage=$here/target/rxe-native
gid=${JRDMA_NATIVE_GID_INDEX:-1}
steps="" classes=""
for a in "$@"; do
  case $a in
    conformance|tools|cm) steps="$steps $a" ;;
    *.*) classes="$classes $(printf '%q' "$a")" ;;
    *) echo "rxe-native: unknown step $a (conformance, tools, cm, or test classes)" >&2; exit 2 ;;
  esac
done
if [ -n "$classes" ]; then steps=conformance; fi
steps=${steps:-conformance tools cm}
. "$here/interop/rxe-native-lib.sh"
rm -rf "$stage" && mkdir -p "$stage"

conformance_line="conformance on rxe: not run"
step_conformance() {
  local t0 rc=0 job="native-$$"
  t0=$(date +%s)
  (cd "$here" && ./mvnw -B -o -q -pl jrdma-native -am test-compile)
  stage_junit "$stage"
  # the guest sees the checkout at /src
  local cp=/src/target/rxe-native/classes:/src/jrdma-native/target/test-classes:/src/jrdma-native/target/classes
  cp=$cp:/src/jrdma-testkit/target/classes:/src/jrdma-verbs/target/classes:/src/target/rxe-native/lib/*
  # one run of this lab at a time (its guests, bridge and namespace are shared)
  while pgrep -f 'run-all.sh|run-lab.sh' >/dev/null; do
    echo "rxe-native: another lab run is active; waiting"; sleep 10
  done
  trap 'cd "$lab" && ./run-lab.sh down >/dev/null 2>&1' EXIT
  cd "$lab"
  LAB_DEV=${LAB_DEV:-0} ./build-guest.sh >/dev/null
  LAB_SHARE=$here ./run-lab.sh up 1
  ./run-lab.sh setup
  # rxe0's port MTU follows eth0's (the largest IB MTU that fits); at the default 1500 it is 1024
  # and the tests of path MTU 2048 and 4096 would skip. Loopback on rxe0 never leaves the guest.
  ./run-lab.sh exec 1 "ip link set eth0 mtu ${LAB_MTU:-9000} && ibv_devinfo -d rxe0 | grep -E 'max_mtu|active_mtu'"
  ./run-lab.sh submit 1 "$job" "cd /src && JRDMA_NATIVE_DEVICE=rxe0 JRDMA_NATIVE_GID_INDEX=$gid \
    /opt/jdk/bin/java -XX:TieredStopAtLevel=1 -XX:+UseSerialGC --enable-native-access=ALL-UNNAMED \
    -Djrdma.native.csrc=/src/jrdma-native/src/test/c -Djrdma.native.build=/tmp \
    -cp '$cp' ConformanceMain $classes 2>&1"
  ./run-lab.sh wait 1 "$job" "${TIMEOUT:-5400}" > "$stage/guest.log" || rc=$?
  grep -v '^conformance on rxe:' "$stage/guest.log" | tail -n 200
  ./run-lab.sh down >/dev/null 2>&1 || true
  trap - EXIT
  cd "$here"
  conformance_line=$(tail -n 1 "$stage/guest.log" | grep '^conformance on rxe:' \
    || echo "conformance on rxe: run did not finish (rc $rc; see $stage/guest.log)")
  echo "rxe-native: conformance took $(( $(date +%s) - t0 )) s"
  [ "$rc" -eq 0 ] || failed="$failed conformance"
}

# tools, cm: the scripts of their own, their output kept for the summary
step_script() { # step script
  "$here/interop/$2" 2>&1 | tee "$stage/$1.log" || failed="$failed $1"
}

# (each step notes its own failure: a function called as `f || …` would run without set -e)
failed=""
for step in $steps; do
  case $step in
    conformance) step_conformance ;;
    tools) step_script tools rxe-native-tools.sh ;;
    cm) step_script cm rxe-native-cm.sh ;;
  esac
done

echo
echo "== rxe-native: $steps, $(date -u '+%F %H:%M UTC'), $(( $(date +%s) - start )) s in all"
if [ -f "$stage/tools.log" ]; then
  echo; sed -n '/^jrdma native (g1/,/^native tools on rxe:/p' "$stage/tools.log"
  echo; sed -n '/^speed, g1/,/^$/p' "$stage/tools.log" | grep -v '^rxe-native-tools:'
fi
if [ -f "$stage/cm.log" ]; then
  echo; sed -n '/^native CM on rxe (g1/,/^native CM on rxe:/p' "$stage/cm.log"
fi
[ -z "$failed" ] || echo "rxe-native: failed:$failed"
echo "$conformance_line"
[ -z "$failed" ]
