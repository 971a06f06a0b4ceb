#!/usr/bin/env bash
# Every interop case against Linux Soft-RoCE (rdma_rxe) and rdma-core/perftest/rdmacm-utils in
# the lab's QEMU guest, each in both roles, then a pass/fail table — one command (issue 7):
#   pingpong rc/uc/ud  <->  ibv_rc_pingpong -g 1 / ibv_uc_pingpong / ibv_ud_pingpong
#   pingpong -c rc/uc/ud  <->  the same with -c (rdma-core's page-start zeros; 9000 B = 3 pages on rc/uc)
#   perf write_bw read_bw send_bw atomic_bw send_lat write_lat read_lat atomic_lat  <->  Debian perftest ("6.06")
#   perf ... -R        <->  ib_* -R (perftest's rdma_cm mode: CM-connected exchange and test QPs, no TCP)
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
pp=${PP_ITERS:-50}

pingpong_cases pingpong lab "$gidx" "$pp" rc uc ud
# -c (issue 12, item 6): both roles; rc/uc over 3 pages (page starts 0, 4096, 8192), ud in one MTU
SIZE=9000 PP_FLAGS=-c pingpong_cases pingpong_chk lab "$gidx" "$pp" rc uc
PP_FLAGS=-c pingpong_cases pingpong_chk lab "$gidx" "$pp" ud

perf_cases perf lab "$gidx" write_bw read_bw send_bw atomic_bw send_lat write_lat read_lat atomic_lat
# perftest -R: the connection manager connects an exchange QP and the test QP, no TCP
PERF_FLAGS=-R perf_cases perf lab "$gidx" write_bw read_bw send_bw atomic_bw send_lat write_lat read_lat atomic_lat
PERF_FLAGS="-R -q 2" perf_cases perf lab "$gidx" write_bw read_bw # one CM connection per test QP

rping_cases rping 10.77.0.2 10.77.0.1

# IPv6 (issue 7, item 4): the pingpongs, write_bw and rping again over IPv6 GIDs (rxe-pingpong-ipv6.sh)
lab_ipv6_up
CAP6=1
pingpong_cases pingpong_ipv6 lab6 "$g6" "$pp" rc uc ud
perf_cases perf_ipv6 lab6 "$g6" write_bw
rping_cases rping_ipv6 fd77::2 fd77::1
CAP6=0
summary
