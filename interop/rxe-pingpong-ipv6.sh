#!/usr/bin/env bash
# jrdma pingpong over IPv6 GIDs against ibv_{rc,uc,ud}_pingpong on Linux rxe in the lab's guest,
# both ways (issue 7, item 4), and jrdma rping against rping over IPv6 (the connection manager's
# MADs on QP1 as IPv6 RoCEv2, no TCP at all). The lab keeps IPv6 off its link; lab_ipv6_up (rxe-lib.sh) turns
# it on (fd77::1 on the namespace's br0, fd77::2 on the guest's eth0) and finds rxe0's GID for
# fd77::2. The TCP exchange still goes over IPv4; the RoCEv2 packets are IPv6.
# rxe sends UDP checksum 0 over IPv6 too, which Linux drops for an ordinary socket
# (Udp6InCsumErrors): jrdma's IPv6 soft device sets UDP_NO_CHECK6_RX (UdpChecksumOptions).
# The lab's capture leaves IPv6 out, so CAP6=1 captures IPv6 RoCEv2 as well and checks its
# ICRCs with interop/roce_report.py.
# Needs root and ../shared/lab. Usage: interop/rxe-pingpong-ipv6.sh [rc uc ud rping]   (ITERS=20; DOWN=1)
set -euo pipefail
. "$(dirname "$0")/rxe-lib.sh"
lab_up
lab_ipv6_up
CAP6=1
iters=${ITERS:-20}
for t in ${@:-rc uc ud rping}; do
  if [ "$t" = rping ]; then # the connection manager over IPv6: CM MADs on QP1 as IPv6 RoCEv2
    RPING=1 PEER=fd77::2
    run "rping_ipv6_rxe_server" rxe "rping -s -a fd77::2 -v" rping -c -V -v -d -C 10 -a
    run "rping_ipv6_jrdma_server" jrdma "rping -c -v -V -C 10 -a fd77::1" rping -s -v -d -a fd77::1
    RPING=0 PEER=
    continue
  fi
  case $t in
    rc) size=4001; g="-s $size -m 1024" ;;
    uc) size=4096; g="-s $size -m 1024" ;;
    ud) size=1000; g="-s $size" ;;
  esac
  cmd="ibv_${t}_pingpong -d rxe0 -g $g6 -n $iters $g"
  j=(pingpong -d lab6 --transport "$t" -n "$iters" -s "$size" -m 1024 --timeout-ms 30000)
  run "pingpong_ipv6_${t}_rxe_server" rxe "$cmd" "${j[@]}"
  run "pingpong_ipv6_${t}_jrdma_server" jrdma "$cmd 10.77.0.1" "${j[@]}"
done
summary
