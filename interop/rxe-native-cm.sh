#!/usr/bin/env bash
# jrdma-cm on librdmacm against the Linux kernel's rdma_cm (issue 13, item 5), in one command:
# builds on the host (Java under TCG is slow), boots two lab guests with this checkout shared
# read-only at /src, and in guest g1 on native rxe0 runs
#   - NativeCmLoopbackTest (the API against the kernel's rdma_cm through g1's own address),
#   - `jrdma rping` against rdma-core's rping in g2, both roles, 10 pings, -V (data verified),
#   - `jrdma perf write_bw -R` and `send_lat -R` against perftest's ib_write_bw -R / ib_send_lat -R
#     in g2, both roles,
# then prints a pass/fail table. The lab is torn down whatever happens (trap).
# Needs root and ../shared/lab. Honours NETNS and INTEROP_WORK (a second lab instance beside the
# default one: NETNS=rxe-lab2 INTEROP_WORK=/var/tmp/jrdma-lab2, with images/ linked to the
# default instance's). RXE_CM_REUSE=1: use guests that are already up and set up, leave them up.
# Usage: interop/rxe-native-cm.sh [loopback] [rping] [perf]   (default: all three)
set -euo pipefail
start=$(date +%s)
here=$(cd "$(dirname "$0")/.." && pwd)
lab=${LAB_DIR:-$here/../shared/lab}
[ -d "$lab" ] || lab=$here/../../shared/lab # a worktree under /work/wt
[ "$(id -u)" -eq 0 ] || { echo "rxe-native-cm: run as root (the lab boots QEMU guests)" >&2; exit 2; }
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
export NETNS=${NETNS:-rxe-lab} INTEROP_WORK=${INTEROP_WORK:-/var/tmp/jrdma-lab}
stage=$here/target/rxe-native-cm
steps=${*:-loopback rping perf}
g1=10.77.0.2 g2=10.77.0.3
# the tools' deadline per CM step and completion: generous, as a TCG guest on a shared host can
# stall for tens of seconds while other guests boot (the default is 10 s for rping, 60 s for perf)
tmo=${TOOL_TIMEOUT_MS:-180000}

# ---- build on the host ---------------------------------------------------------------------------
. "$here/interop/rxe-native-lib.sh"
(cd "$here" && ./mvnw -B -o -q -DskipTests -pl jrdma-tools,jrdma-native -am package)
rm -rf "$stage" && mkdir -p "$stage"
stage_junit "$stage"
cp=/src/target/rxe-native-cm/classes:/src/jrdma-native/target/test-classes:/src/jrdma-native/target/classes
cp=$cp:/src/jrdma-cm/target/classes:/src/jrdma-testkit/target/classes:/src/jrdma-verbs/target/classes:/src/target/rxe-native-cm/lib/*

# ---- the lab ---------------------------------------------------------------------------------------
cd "$lab"
teardown() {
  ./run-lab.sh down >/dev/null 2>&1 || true
  echo "rxe-native-cm: $(( $(date +%s) - start )) s in all; lab ($NETNS) down"
}
if [ "${RXE_CM_REUSE:-0}" != 1 ]; then
  # `up` stops this instance's guests and `down` deletes its namespace: never take another run's
  for f in "$INTEROP_WORK"/run/g*/qemu.pid; do
    if [ -f "$f" ] && kill -0 "$(cat "$f")" 2>/dev/null; then
      echo "rxe-native-cm: lab instance $NETNS ($INTEROP_WORK) has a guest running (pid $(cat "$f")): another run" \
        "uses it; wait, or run beside it: NETNS=rxe-lab2 INTEROP_WORK=/var/tmp/jrdma-lab2 (images/ linked)" >&2
      exit 2
    fi
  done
  trap teardown EXIT
  LAB_SHARE=$here ./run-lab.sh up 2
  ./run-lab.sh setup >/dev/null
fi

java_g="JRDMA_PROVIDER=native /opt/jdk/bin/java -XX:TieredStopAtLevel=1 -XX:+UseSerialGC --enable-native-access=ALL-UNNAMED"
jrdma="$java_g -jar /src/jrdma-tools/target/jrdma.jar"

for step in $steps; do
  case $step in
  loopback)
    rc=0
    ./run-lab.sh submit 1 "cm-loop-$$" "cd /src && JRDMA_NATIVE_CM_ADDR=$g1 $java_g -cp '$cp' ConformanceMain \
      org.jrdma.ibv.cm.NativeCmLoopbackTest org.jrdma.ibv.cm.NativeCmHostTest 2>&1"
    ./run-lab.sh wait 1 "cm-loop-$$" 900 > "$stage/loopback.log" 2>&1 || rc=$?
    line=$(grep '^conformance on rxe:' "$stage/loopback.log" | tail -n 1 || true)
    grep -E 'FAIL|✘|Exception' "$stage/loopback.log" | head -n 20 || true
    # in a guest with a device, only NativeCmHostTest's two no-device checks may skip
    odd_skips=$(grep -E '^ *[0-9]+ × ' "$stage/loopback.log" \
      | grep -Ev 'this machine has /dev/infiniband/rdma_cm|the native CM is available here' || true)
    if [ $rc -eq 0 ] && [[ $line == *" 0 failed,"* ]] && [ -z "$odd_skips" ]; then
      record "NativeCmLoopbackTest+NativeCmHostTest (g1)" "pass (${line#conformance on rxe: })"
    else
      record "NativeCmLoopbackTest+NativeCmHostTest (g1)" "FAIL (rc $rc: ${line:-no summary}; target/rxe-native-cm/loopback.log)"
    fi ;;
  rping)
    # rping -V checks every ping's data on both sides; -C 10 pings, then the client disconnects
    pair 1 2 "cd /tmp && $jrdma rping -s -a $g1 -p 7174 -V -d --timeout-ms $tmo 2>&1" "rping: listening on" \
      "stdbuf -oL rping -c -a $g1 -p 7174 -C 10 -V -v 2>&1" "ping data: rdma-ping-9" "rping: jrdma server (g1) <- rping client (g2)"
    pair 2 1 "stdbuf -oL rping -s -a $g2 -p 7175 -C 10 -V -d 2>&1" "rdma_listen" \
      "cd /tmp && $jrdma rping -c -a $g2 -p 7175 -C 10 -V -v --timeout-ms $tmo 2>&1" "ping data: rdma-ping-9" "rping: jrdma client (g1) -> rping server (g2)"
    ;;
  perf)
    for t in write_bw send_lat; do
      ib=ib_$t; n=1000
      [ $t = write_bw ] && sz=65536 || sz=2
      want='^ *'$sz' +'$n
      pair 1 2 "cd /tmp && $jrdma perf $t -R -x 1 -s $sz -n $n --timeout-ms $tmo 2>&1" "Waiting for client" \
        "stdbuf -oL $ib -R -d rxe0 -x 1 -s $sz -n $n $g1 2>&1" "$want" "perf $t -R: jrdma server (g1) <- $ib (g2)"
      pair 2 1 "stdbuf -oL $ib -R -d rxe0 -x 1 -s $sz -n $n 2>&1" "Waiting for client" \
        "cd /tmp && $jrdma perf $t -R -x 1 -s $sz -n $n --timeout-ms $tmo $g2 2>&1" "$want" "perf $t -R: jrdma client (g1) -> $ib server (g2)"
    done ;;
  *) echo "rxe-native-cm: unknown step $step (loopback, rping, perf)" >&2; exit 2 ;;
  esac
done

echo
echo "native CM on rxe (g1 rxe0 = $g1, g2 = $g2; $NETNS):"
printf '%s\n' "${results[@]}"
fails=$(printf '%s\n' "${results[@]}" | grep -c 'FAIL' || true)
echo "native CM on rxe: $(( ${#results[@]} - fails )) passed, $fails failed"
[ "$fails" -eq 0 ]
