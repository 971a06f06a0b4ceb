#!/usr/bin/env bash
# jrdma pingpong against rdma-core's ibv_rc_pingpong on Linux Soft-RoCE (rdma_rxe) in the lab's
# QEMU guest, both ways:
#   rxe server: ibv_rc_pingpong in g1          <-  jrdma pingpong ... 10.77.0.2 in the namespace
#   jrdma server: jrdma pingpong (10.77.0.1)   <-  ibv_rc_pingpong ... 10.77.0.1 in g1
# Each run is captured on the lab bridge and every ICRC checked (rxe-lib.sh's run).
# Needs root and ../shared/lab (see its README); boots one guest, leaves it running unless DOWN=1.
# Usage: interop/rxe-pingpong.sh [size] [iters]   (4001: FIRST, MIDDLE x2, LAST with pad 3; 20)
set -euo pipefail
. "$(dirname "$0")/rxe-lib.sh"
SIZE=${1:-4001}
lab_up
pingpong_cases pingpong lab "$gidx" "${2:-20}" rc
summary
