#!/usr/bin/env bash
# The jrdma tools on the native provider (libibverbs + librdmacm through FFM) against rdma-core's
# tools and against jrdma on the soft provider, then the speed comparison (issue 13, items 6, 7),
# in one command. Builds the jar on the host, boots two lab guests with this checkout shared
# read-only at /src, and runs `jrdma demo --provider native` in g1 (both sides, TCP and CM
# bootstrap), then, each in both roles, data checked where the tool can check:
#   jrdma --provider native in g1 (rxe0, GID 1)  <->  in g2: ibv_rc_pingpong -c, ib_write_bw,
#       ib_read_bw, ib_atomic_bw, ib_send_lat (TCP exchange), rping -V (CM)
#   jrdma --provider native in g1  <->  jrdma --provider soft on the host in the lab namespace
#       (10.77.0.1, as run-all.sh's soft side; captured and ICRC-checked by rxe-lib.sh's run):
#       pingpong -c, perf write_bw
# then a pass/fail table, then (speed) jrdma perf write_bw / send_lat native g1 <-> g2 against
# ib_write_bw / ib_send_lat g1 <-> g2, same sizes and iterations, interleaved, and the ratios.
# The conformance runs use the guest JVM with -XX:TieredStopAtLevel=1 (as rxe-native-cm.sh);
# the speed runs use the full JIT and jrdma's --warmup. The lab is torn down whatever happens.
# Needs root and ../shared/lab; the default lab instance (rxe-lib.sh's captures live there).
# Usage: interop/rxe-native-tools.sh [demo] [rdmacore] [soft] [speed]   (default: all four;
#   rdmacore = pingpong perf rping, each its rows against rdma-core alone)
#   PP_ITERS (50) BW_ITERS (1000) LAT_ITERS (1000) SPEED_BW_ITERS (5000) SPEED_LAT_ITERS (5000)
#   SPEED_REPS (3)
set -euo pipefail
start=$(date +%s)
here=$(cd "$(dirname "$0")/.." && pwd)
lab=${LAB_DIR:-$here/../shared/lab}
[ -d "$lab" ] || lab=$here/../../shared/lab # a worktree under /work/wt
export LAB_DIR=$lab
[ "$(id -u)" -eq 0 ] || { echo "rxe-native-tools: run as root (the lab boots QEMU guests)" >&2; exit 2; }
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
export NETNS=rxe-lab INTEROP_WORK=/var/tmp/jrdma-lab
steps=${*:-demo rdmacore soft speed}
g1=10.77.0.2 g2=10.77.0.3
tmo=${TOOL_TIMEOUT_MS:-180000}
pp=${PP_ITERS:-50} bwn=${BW_ITERS:-1000} latn=${LAT_ITERS:-1000}

stage=$here/target/rxe-native-tools
rm -rf "$stage" && mkdir -p "$stage"
# rxe-lib.sh: run() (a guest-g1 command against jrdma in the namespace), jrdma_ns, captures
OUT=$stage . "$here/interop/rxe-lib.sh"
# rxe-native-lib.sh: pair() (a server/client pair of guest jobs), record(), the shared results
. "$here/interop/rxe-native-lib.sh"

# ---- build on the host (Java under TCG is slow) ----------------------------------------------------
"$here/jrdma" --version >/dev/null
unzip -l "$here/jrdma-tools/target/jrdma.jar" org/jrdma/ibv/NativeProvider.class >/dev/null \
  || { echo "rxe-native-tools: the tools jar has no native provider" >&2; exit 2; }

# ---- the lab (two guests) --------------------------------------------------------------------------
cd "$lab"
teardown() {
  ./run-lab.sh down >/dev/null 2>&1 || true
  echo "rxe-native-tools: $(( $(date +%s) - start )) s in all; lab ($NETNS) down"
}
for f in "$INTEROP_WORK"/run/g*/qemu.pid; do
  if [ -f "$f" ] && kill -0 "$(cat "$f")" 2>/dev/null; then
    echo "rxe-native-tools: lab $NETNS has a guest running (pid $(cat "$f")): another run uses it" >&2
    exit 2
  fi
done
trap teardown EXIT
LAB_SHARE=$here ./run-lab.sh up 2
./run-lab.sh setup >/dev/null
# each guest (one vCPU) on a host core of its own: the two then do not take turns on one core,
# which made the speed figures swing more
if [ "$(nproc)" -ge 2 ]; then
  taskset -a -p -c 0 "$(cat "$INTEROP_WORK/run/g1/qemu.pid")" >/dev/null
  taskset -a -p -c 1 "$(cat "$INTEROP_WORK/run/g2/qemu.pid")" >/dev/null
fi
echo "rxe-native-tools: lab up after $(( $(date +%s) - start )) s"

jvm="/opt/jdk/bin/java -XX:+UseSerialGC --enable-native-access=ALL-UNNAMED"
jar=/src/jrdma-tools/target/jrdma.jar
jrdma="$jvm -XX:TieredStopAtLevel=1 -jar $jar"   # conformance: C1 only (TCG)
jrdma_jit="$jvm -jar $jar"                          # speed: the full JIT, with --warmup
nat="--provider native -d rxe0"
bad='invalid data|mismatch|[Cc]orrupt|FAIL'

step_demo() {
  # the demo's two sides in one process on rxe0 (a NIC loops an RC connection back to itself):
  # every message checked byte for byte; with the CM (librdmacm) instead of TCP too
  solo 1 "cd /tmp && $jrdma demo $nat -g 1 -n 200 2>&1" "400 messages verified byte for byte; TCP sockets closed before the first RDMA packet: yes" \
    "demo: jrdma native, both sides in g1 (tcp bootstrap)" "$bad"
  solo 1 "cd /tmp && $jrdma demo $nat -g 1 -n 200 --bootstrap cm 2>&1" "400 messages verified byte for byte" \
    "demo: jrdma native, both sides in g1 (cm bootstrap)" "$bad"
}

step_pingpong() {
  local p=18600
  # ibv_rc_pingpong -c: rdma-core's server checks its page starts, jrdma every message. Neither
  # server prints when it listens (jrdma pingpong only for -p 0): ready when the port listens.
  pair 1 2 "$jrdma pingpong $nat -g 1 -p $p -n $pp -s 9000 -m 1024 -c --timeout-ms $tmo 2>&1" "tcp:$p" \
    "stdbuf -oL ibv_rc_pingpong -d rxe0 -g 1 -p $p -n $pp -s 9000 -m 1024 -c $g1 2>&1" "iters in" \
    "pingpong -c: jrdma native server (g1) <- ibv_rc_pingpong (g2)" "$bad"
  p=$((p + 1))
  pair 2 1 "stdbuf -oL ibv_rc_pingpong -d rxe0 -g 1 -p $p -n $pp -s 9000 -m 1024 -c 2>&1" "tcp:$p" \
    "$jrdma pingpong $nat -g 1 -p $p -n $pp -s 9000 -m 1024 -c --timeout-ms $tmo $g2 2>&1" "iters in" \
    "pingpong -c: jrdma native client (g1) -> ibv_rc_pingpong (g2)" "$bad"
}

step_rdmacore() {
  step_pingpong
  step_perf
  step_rping
}

step_perf() {
  local t sz n want p=18602
  for t in write_bw read_bw atomic_bw send_lat; do
    case $t in
      atomic_bw) sz=""; n=$bwn; want='^ *8 +'$n ;;
      send_lat) sz="-s 2"; n=$latn; want='^ *2 +'$n ;;
      *) sz="-s 65536"; n=$bwn; want='^ *65536 +'$n ;;
    esac
    p=$((p + 1))
    pair 1 2 "$jrdma perf $t $nat -x 1 -p $p $sz -n $n --timeout-ms $tmo 2>&1" "Waiting for client" \
      "stdbuf -oL ib_$t -d rxe0 -x 1 -p $p $sz -n $n -F $g1 2>&1" "$want" \
      "perf $t: jrdma native server (g1) <- ib_$t (g2)"
    p=$((p + 1))
    pair 2 1 "stdbuf -oL ib_$t -d rxe0 -x 1 -p $p $sz -n $n -F 2>&1" "Waiting for client" \
      "$jrdma perf $t $nat -x 1 -p $p $sz -n $n --timeout-ms $tmo $g2 2>&1" "$want" \
      "perf $t: jrdma native client (g1) -> ib_$t server (g2)"
  done
}

step_rping() { # rping's -d is debug (it takes no device): --provider native alone
  # rping -V checks every ping's data on both sides; -C 10 pings, then the client disconnects
  pair 1 2 "$jrdma rping --provider native -s -a $g1 -p 7174 -V -d --timeout-ms $tmo 2>&1" "rping: listening on" \
    "stdbuf -oL rping -c -a $g1 -p 7174 -C 10 -V -v 2>&1" "ping data: rdma-ping-9" \
    "rping -V: jrdma native server (g1) <- rping client (g2)" "$bad"
  pair 2 1 "stdbuf -oL rping -s -a $g2 -p 7175 -C 10 -V -d 2>&1" "rdma_listen" \
    "$jrdma rping --provider native -c -a $g2 -p 7175 -C 10 -V -v --timeout-ms $tmo 2>&1" "ping data: rdma-ping-9" \
    "rping -V: jrdma native client (g1) -> rping server (g2)" "$bad"
}

step_soft() {
  # rxe-lib.sh's run: the guest command in g1, jrdma (soft, device "lab") in the namespace; both
  # must exit 0 and every RoCEv2 frame of the capture have a valid ICRC
  local s="--provider soft -d lab"
  GUEST_TIMEOUT=400
  PORT=18700 run native_soft_pingpong_chk_native_server rxe \
    "$jrdma pingpong $nat -g 1 -p 18700 -n $pp -s 9000 -m 1024 -c --timeout-ms $tmo" \
    pingpong $s -p 18700 -n "$pp" -s 9000 -m 1024 -c --timeout-ms "$tmo"
  PORT=18701 run native_soft_pingpong_chk_soft_server jrdma \
    "$jrdma pingpong $nat -g 1 -p 18701 -n $pp -s 9000 -m 1024 -c --timeout-ms $tmo 10.77.0.1" \
    pingpong $s -p 18701 -n "$pp" -s 9000 -m 1024 -c --timeout-ms "$tmo"
  PORT=18702 run native_soft_write_bw_check_native_server rxe \
    "$jrdma perf write_bw $nat -x 1 -p 18702 -s 65536 -n $bwn --check --timeout-ms $tmo" \
    perf write_bw $s -p 18702 -s 65536 -n "$bwn" --check --timeout-ms "$tmo"
  PORT=18703 run native_soft_write_bw_check_soft_server jrdma \
    "$jrdma perf write_bw $nat -x 1 -p 18703 -s 65536 -n $bwn --check --timeout-ms $tmo 10.77.0.1" \
    perf write_bw $s -p 18703 -s 65536 -n "$bwn" --check --timeout-ms "$tmo"
  GUEST_TIMEOUT=
}

# ---- item 7: the same test, jrdma native g1 <-> g2 and perftest g1 <-> g2, interleaved ------------
# TCG figures swing by 2x from run to run (one perftest send_lat sample gave t_typical 257 us, the
# next 698): SPEED_REPS pairs, perftest then jrdma, and the ratio of the medians.
speed_rows=()
figure() { # log, test: bw -> BW average (MB/s), lat -> t_typical (usec) of the result row
  awk -v t="$2" '$1 ~ /^[0-9]+$/ && $2 ~ /^[0-9]+$/ && NF >= 5 { v = (t == "bw") ? $4 : $5 } END { print v }' "$1"
}
median() { { printf '%s\n' "$@" | grep -E '^[0-9.]+$' || true; } | sort -g | awk '{ v[NR] = $1 } END { if (NR) print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
speed_one() { # test size iters
  local t=$1 sz=$2 n=$3 w=$(( $3 / 5 )) unit rep name js=() ps=() jm pm ratio p=18800
  case $t in *_bw) unit=bw ;; *) unit=lat ;; esac
  for rep in $(seq 1 "${SPEED_REPS:-3}"); do
    name="speed $t #$rep: ib_$t g1 <- ib_$t g2"
    pair 1 2 "stdbuf -oL ib_$t -d rxe0 -x 1 -p $p -s $sz -n $n -F 2>&1" "Waiting for client" \
      "stdbuf -oL ib_$t -d rxe0 -x 1 -p $p -s $sz -n $n -F $g1 2>&1" "^ *$sz +$n" "$name"
    ps+=("$(figure "$(logbase "$name").client.log" $unit 2>/dev/null || true)")
    p=$((p + 1))
    name="speed $t #$rep: jrdma native g1 <- jrdma native g2"
    pair 1 2 "$jrdma_jit perf $t $nat -x 1 -p $p -s $sz -n $n --warmup $w --timeout-ms $tmo 2>&1" "Waiting for client" \
      "$jrdma_jit perf $t $nat -x 1 -p $p -s $sz -n $n --warmup $w --timeout-ms $tmo $g1 2>&1" "^ *$sz +$n" "$name"
    js+=("$(figure "$(logbase "$name").client.log" $unit 2>/dev/null || true)")
    p=$((p + 1))
  done
  jm=$(median "${js[@]}"); pm=$(median "${ps[@]}")
  ratio=$(awk -v a="$jm" -v b="$pm" 'BEGIN { if (a > 0 && b > 0) printf "%.3f", a / b; else print "n/a" }')
  speed_rows+=("$(printf '%-9s %5s B x%-5s jrdma %9s  perftest %9s  %s ratio of medians %s  (jrdma: %s; perftest: %s)' \
    "$t" "$sz" "$n" "${jm:-?}" "${pm:-?}" "$([ $unit = bw ] && echo 'MB/s avg ' || echo 'usec typ.')" "$ratio" \
    "${js[*]}" "${ps[*]}")")
}
step_speed() {
  speed_one write_bw 65536 "${SPEED_BW_ITERS:-5000}"
  speed_one send_lat 2 "${SPEED_LAT_ITERS:-5000}"
}

for step in $steps; do
  case $step in
    demo|rdmacore|pingpong|perf|rping|soft|speed) "step_$step" ;;
    *) echo "rxe-native-tools: unknown step $step (demo, rdmacore, pingpong, perf, rping, soft, speed)" >&2; exit 2 ;;
  esac
done

echo
echo "jrdma native (g1 rxe0 = $g1) against rdma-core (g2 = $g2) and soft (host, 10.77.0.1); $(date -u '+%F %H:%M UTC'):"
printf '%s\n' "${results[@]}"
fails=$(printf '%s\n' "${results[@]}" | grep -c 'FAIL' || true)
echo "native tools on rxe: $(( ${#results[@]} - fails )) passed, $fails failed"
if [ ${#speed_rows[@]} -gt 0 ]; then
  echo
  echo "speed, g1 <-> g2 on TCG, ${SPEED_REPS:-3} interleaved pairs each (jrdma: full JIT, --warmup n/5; bw ratio aim >= 0.9, latency <= 1.1):"
  printf '%s\n' "${speed_rows[@]}"
fi
[ "$fails" -eq 0 ]
