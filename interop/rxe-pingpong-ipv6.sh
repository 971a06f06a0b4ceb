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
for t in ${@:-rc uc ud rping}; do
  case $t in
    rping) rping_cases rping_ipv6 fd77::2 fd77::1 ;; # the CM's MADs on QP1 as IPv6 RoCEv2
    *) pingpong_cases pingpong_ipv6 lab6 "$g6" "${ITERS:-20}" "$t" ;;
  esac
done
summary
