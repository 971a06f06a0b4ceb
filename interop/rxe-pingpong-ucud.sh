#!/usr/bin/env bash
# jrdma pingpong --transport ud|uc against rdma-core's ibv_ud_pingpong / ibv_uc_pingpong on
# Linux Soft-RoCE (rdma_rxe) in the lab's QEMU guest, both ways:
#   rxe server: ibv_<t>_pingpong in g1      <-  jrdma pingpong --transport <t> ... 10.77.0.2
#   jrdma server: jrdma pingpong ...        <-  ibv_<t>_pingpong ... 10.77.0.1 in g1
# UD: one message per packet, so -s 1000 (<= the 1024 MTU; ibv_ud_pingpong's default is 2048
# and it has no -m: it takes the port's active MTU); -g picks the RoCEv2 IPv4 GID in the guest.
# UC: 4096 B at MTU 1024 (FIRST, MIDDLE x2, LAST). Neither retransmits: a lost message stalls
# the ping-pong, so each jrdma-server run is repeated REPEAT times (the start is the racy part).
# Captured and ICRC-checked like rxe-perf.sh. Needs root and ../shared/lab; DOWN=1 powers off.
# Usage: interop/rxe-pingpong-ucud.sh [ud|uc ...]   ITERS=100 UD_SIZE=1000 UC_SIZE=4096 REPEAT=3
set -euo pipefail
. "$(dirname "$0")/rxe-lib.sh"
transports=("$@")
[ ${#transports[@]} -gt 0 ] || transports=(ud uc)
iters=${ITERS:-100}
GUEST_TIMEOUT=${GUEST_TIMEOUT:-60}
lab_up

for t in "${transports[@]}"; do
  if [ "$t" = ud ]; then
    size=${UD_SIZE:-1000}; gflags="-s $size"
  else
    size=${UC_SIZE:-4096}; gflags="-s $size -m 1024"
  fi
  pp="ibv_${t}_pingpong -d rxe0 -g $gidx -n $iters $gflags"
  jflags=(pingpong -d lab --transport "$t" -n "$iters" -s "$size" -m 1024)
  run "pp_${t}_rxe_server" rxe "$pp" "${jflags[@]}" --timeout-ms 30000
  for k in $(seq 1 "${REPEAT:-3}"); do
    run "pp_${t}_jrdma_server_$k" jrdma "$pp 10.77.0.1" "${jflags[@]}" --timeout-ms 30000
  done
done
summary
