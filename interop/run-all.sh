#!/usr/bin/env bash
# Every interop case against Linux Soft-RoCE (rdma_rxe) and rdma-core/perftest/rdmacm-utils in
# the lab's QEMU guest, each in both roles, then a pass/fail table — one command (issue 7):
#   pingpong rc/uc/ud  <->  ibv_rc_pingpong -g 1 / ibv_uc_pingpong / ibv_ud_pingpong
#   perf write_bw read_bw send_bw atomic_bw send_lat write_lat read_lat atomic_lat  <->  Debian perftest ("6.06")
#   rping -V           <->  rping -V (connection manager on QP1, no TCP; both sides check the data)
#   over IPv6 GIDs: pingpong rc/uc/ud, write_bw and rping again (the lab link gets IPv6 for them)
# Builds the guest image if needed, boots one guest, captures and ICRC-checks every run (see
# rxe-lib.sh), and always tears the lab down at the end (nothing left running).
# Needs root and ../shared/lab. Usage: interop/run-all.sh   (ITERS=200 PP_ITERS=50 OUT=/tmp/jrdma-interop)
set -euo pipefail
start=$(date +%s)
. "$(dirname "$0")/rxe-lib.sh"
teardown() {
  (cd "$lab" && ./run-lab.sh down >/dev/null 2>&1) || true
  if pgrep -f qemu-system >/dev/null; then echo "run-all: a QEMU process is still running"; fi
  echo "run-all: $(( $(date +%s) - start )) s in all; lab down"
}
trap teardown EXIT
lab_up
iters=${ITERS:-200}
pp=${PP_ITERS:-50}

for t in rc uc ud; do
  case $t in
    rc) size=4001; g="-s $size -m 1024" ;;
    uc) size=4096; g="-s $size -m 1024" ;;
    ud) size=1000; g="-s $size" ;;
  esac
  cmd="ibv_${t}_pingpong -d rxe0 -g $gidx -n $pp $g"
  # no -c: jrdma's -c checks jrdma's own pattern (both ends jrdma); rc_pingpong's --chk another
  j=(pingpong -d lab --transport "$t" -n "$pp" -s "$size" -m 1024 --timeout-ms 30000)
  run "pingpong_${t}_rxe_server" rxe "$cmd" "${j[@]}"
  run "pingpong_${t}_jrdma_server" jrdma "$cmd 10.77.0.1" "${j[@]}"
done

for t in write_bw read_bw send_bw atomic_bw send_lat write_lat read_lat atomic_lat; do
  case $t in
    atomic_*) s="" ;;
    *_lat) s="-s 64" ;;
    *) s="-s 4096" ;;
  esac
  f="-n $iters${s:+ $s} -F"
  run "perf_${t}_rxe_server" rxe "ib_$t -d rxe0 -x $gidx $f" perf "$t" -d lab $f --timeout-ms 60000
  run "perf_${t}_jrdma_server" jrdma "ib_$t -d rxe0 -x $gidx $f 10.77.0.1" perf "$t" -d lab $f --timeout-ms 120000
done

RPING=1
run "rping_rxe_server" rxe "rping -s -a 10.77.0.2 -v" rping -c -V -v -d -C 10 -a
run "rping_jrdma_server" jrdma "rping -c -v -V -C 10 -a 10.77.0.1" rping -s -v -d -a 10.77.0.1
RPING=0

# IPv6 (issue 7, item 4): the pingpongs, write_bw and rping again over IPv6 GIDs (rxe-pingpong-ipv6.sh)
lab_ipv6_up
CAP6=1
for t in rc uc ud; do
  case $t in
    rc) size=4001; g="-s $size -m 1024" ;;
    uc) size=4096; g="-s $size -m 1024" ;;
    ud) size=1000; g="-s $size" ;;
  esac
  cmd="ibv_${t}_pingpong -d rxe0 -g $g6 -n $pp $g"
  j=(pingpong -d lab6 --transport "$t" -n "$pp" -s "$size" -m 1024 --timeout-ms 30000)
  run "pingpong_ipv6_${t}_rxe_server" rxe "$cmd" "${j[@]}"
  run "pingpong_ipv6_${t}_jrdma_server" jrdma "$cmd 10.77.0.1" "${j[@]}"
done
f="-n $iters -s 4096 -F"
run "perf_ipv6_write_bw_rxe_server" rxe "ib_write_bw -d rxe0 -x $g6 $f" perf write_bw -d lab6 $f --timeout-ms 60000
run "perf_ipv6_write_bw_jrdma_server" jrdma "ib_write_bw -d rxe0 -x $g6 $f 10.77.0.1" perf write_bw -d lab6 $f --timeout-ms 120000
RPING=1 PEER=fd77::2
run "rping_ipv6_rxe_server" rxe "rping -s -a fd77::2 -v" rping -c -V -v -d -C 10 -a
run "rping_ipv6_jrdma_server" jrdma "rping -c -v -V -C 10 -a fd77::1" rping -s -v -d -a fd77::1
RPING=0 PEER= CAP6=0
summary
