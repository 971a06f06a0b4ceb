#!/usr/bin/env bash
# jrdma pingpong against Linux Soft-RoCE (rdma_rxe) in the lab's QEMU guest, both ways:
#   1) ibv_rc_pingpong server in guest g1  <-  jrdma pingpong client in the lab namespace
#   2) jrdma pingpong server in the namespace  <-  ibv_rc_pingpong client in g1
# Captures each run on the lab bridge and checks every ICRC (the lab's check_icrc.py).
# Needs root and ../shared/lab (see its README); boots one guest, leaves it running unless
# DOWN=1. Usage: interop/rxe-pingpong.sh [size] [iters]
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
lab=${LAB_DIR:-$here/../shared/lab}
size=${1:-4001}
iters=${2:-20}
cd "$lab"
./build-guest.sh
if [ ! -f /var/tmp/jrdma-lab/run/g1/gidx ] || ! ./run-lab.sh exec 1 true >/dev/null 2>&1; then
  ./run-lab.sh up 1
  ./run-lab.sh setup
fi
gidx=$(cat /var/tmp/jrdma-lab/run/g1/gidx)
jrdma() { ip netns exec rxe-lab env JRDMA_SOFT_DEVICES=lab=10.77.0.1 "$here/jrdma" pingpong -d lab "$@"; }
fail=0

echo "== 1) rxe server (g1), jrdma client: $iters x $size B"
./run-lab.sh cap-start jrdma_to_rxe >/dev/null
./run-lab.sh submit 1 srv "ibv_rc_pingpong -d rxe0 -g $gidx -n $iters -s $size -m 1024"
jrdma -n "$iters" -s "$size" -m 1024 --timeout-ms 30000 10.77.0.2 || fail=1
./run-lab.sh wait 1 srv 90 || fail=1
./run-lab.sh cap-stop jrdma_to_rxe >/dev/null
grep -E "RC_|ICRC|retransmitted" -A1 /var/tmp/jrdma-lab/captures/jrdma_to_rxe.opcodes.txt | grep -v "^--"

echo "== 2) jrdma server (namespace), rxe client (g1): $iters x $size B"
./run-lab.sh cap-start rxe_to_jrdma >/dev/null
jrdma -n "$iters" -s "$size" -m 1024 --timeout-ms 60000 > /tmp/jrdma-interop-server.txt 2>&1 &
server=$!
./run-lab.sh submit 1 cli "sleep 2; ibv_rc_pingpong -d rxe0 -g $gidx -n $iters -s $size -m 1024 10.77.0.1"
./run-lab.sh wait 1 cli 90 || fail=1
wait "$server" || fail=1
cat /tmp/jrdma-interop-server.txt
./run-lab.sh cap-stop rxe_to_jrdma >/dev/null
grep -E "RC_|ICRC|retransmitted" -A1 /var/tmp/jrdma-lab/captures/rxe_to_jrdma.opcodes.txt | grep -v "^--"

if grep -q " [1-9][0-9]* invalid" /var/tmp/jrdma-lab/captures/jrdma_to_rxe.opcodes.txt /var/tmp/jrdma-lab/captures/rxe_to_jrdma.opcodes.txt; then
  echo "bad ICRCs on the wire"; fail=1
fi
[ "${DOWN:-0}" = 1 ] && ./run-lab.sh down
[ "$fail" = 0 ] && echo "interop: OK" || { echo "interop: FAILED"; exit 1; }
