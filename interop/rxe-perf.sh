#!/usr/bin/env bash
# jrdma perf against perftest (ib_*; Debian's 4.5, "6.06" on the wire) on Linux Soft-RoCE
# (rdma_rxe) in the lab's QEMU guest, both ways for each test:
#   rxe server: ib_<test> in guest g1        <-  jrdma perf <test> ... 10.77.0.2 in the namespace
#   jrdma server: jrdma perf <test> ...      <-  ib_<test> ... 10.77.0.1 in g1
# Each run is captured on the lab bridge and every ICRC checked (the lab's check_icrc.py); a run
# passes when both ends exit 0 and no ICRC is bad. jrdma's --warmup is not used (perftest has no
# such flag: both sides must run the same iterations).
# Needs root and ../shared/lab (see its README); boots one guest, leaves it running unless DOWN=1.
# Usage: interop/rxe-perf.sh [TEST...]   (default: write_bw send_lat send_bw read_bw)
#   ITERS=200 BW_SIZE=4096 LAT_SIZE=64 SIDES="rxe jrdma" OUT=/tmp/jrdma-interop VERBOSE=0
#   PERF_FLAGS="-c UC" (added on both sides; the run names get a suffix from it)
set -euo pipefail
. "$(dirname "$0")/rxe-lib.sh"
lab_up
perf_cases perf lab "$gidx" ${@:-write_bw send_lat send_bw read_bw}
summary
