#!/usr/bin/env bash
# jrdma rping against librdmacm's rping (rdmacm-utils 44) on Linux Soft-RoCE (rdma_rxe) in the
# lab's QEMU guest, both ways — the connection made by the kernel's rdma_cm on one side and
# jrdma-cm on the other (REQ/REP/RTU/DREQ/DREP as MADs on QP1), no TCP anywhere:
#   rxe server: rping -s in guest g1          <-  jrdma rping -c ... -a 10.77.0.2 in the namespace
#   jrdma server: jrdma rping -s (10.77.0.1)  <-  rping -c ... -a 10.77.0.1 in g1
# Each run is captured on the lab bridge and every ICRC checked (as rxe-perf.sh does).
# Needs root and ../shared/lab (see its README); boots one guest, leaves it running unless DOWN=1.
# Usage: interop/rxe-rping.sh   (COUNT=10 SIZE=64 SIDES="rxe jrdma" OUT=/tmp/jrdma-interop)
set -euo pipefail
. "$(dirname "$0")/rxe-lib.sh"
lab_up
rping_cases rping 10.77.0.2 10.77.0.1
summary
