#!/usr/bin/env bash
# jrdma pingpong --transport ud|uc against rdma-core's ibv_ud_pingpong / ibv_uc_pingpong on
# Linux Soft-RoCE (rdma_rxe) in the lab's QEMU guest, both ways:
#   rxe server: ibv_<t>_pingpong in g1      <-  jrdma pingpong --transport <t> ... 10.77.0.2
#   jrdma server: jrdma pingpong ...        <-  ibv_<t>_pingpong ... 10.77.0.1 in g1
# UD: one message per packet, so 1000 B (<= the 1024 MTU; ibv_ud_pingpong's default is 2048
# and it has no -m: it takes the port's active MTU); -g picks the RoCEv2 IPv4 GID in the guest.
# UC: 4096 B at MTU 1024 (FIRST, MIDDLE x2, LAST). Neither retransmits: a lost message stalls
# the ping-pong (the run then fails at its timeout rather than hiding it).
# Captured and ICRC-checked (rxe-lib.sh's run). Needs root and ../shared/lab; DOWN=1 powers off.
# Usage: interop/rxe-pingpong-ucud.sh [ud|uc ...]   ITERS=100 SIZE (per transport by default)
set -euo pipefail
. "$(dirname "$0")/rxe-lib.sh"
GUEST_TIMEOUT=${GUEST_TIMEOUT:-60}
lab_up
pingpong_cases pp lab "$gidx" "${ITERS:-100}" ${@:-ud uc}
summary
