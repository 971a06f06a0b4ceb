# Shared by rxe-perf.sh and rxe-pingpong-ucud.sh (sourced, not run): one lab guest with rxe0,
# jrdma in the lab namespace as 10.77.0.1, a capture per run with the lab's ICRC check, the
# guest's rxe hw_counters before/after, and a summary table. See interop/README.md.
here=$(cd "$(dirname "$0")/.." && pwd)
lab=${LAB_DIR:-$here/../shared/lab}
caps=/var/tmp/jrdma-lab/captures
out=${OUT:-/tmp/jrdma-interop}
mkdir -p "$out"
results=()
fail=0

lab_up() {
  cd "$lab"
  ./build-guest.sh
  if [ ! -f /var/tmp/jrdma-lab/run/g1/gidx ] || ! timeout 20 ./run-lab.sh exec 1 true >/dev/null 2>&1; then
    ./run-lab.sh up 1
    ./run-lab.sh setup
  fi
  gidx=$(cat /var/tmp/jrdma-lab/run/g1/gidx)
  # build the jar now, not inside the first timed run
  "$here/jrdma" --version >/dev/null
}

# jrdma in the namespace, as 10.77.0.1 (its soft device "lab")
# (lab_ipv6_up adds "lab6=fd77::1")
devices_ns="lab=10.77.0.1"
jrdma_ns() { ip netns exec rxe-lab env JRDMA_SOFT_DEVICES="$devices_ns" "$here/jrdma" "$@"; }

# IPv6 on the lab link, which the lab keeps off: fd77::1 on the namespace's br0, fd77::2 on the
# guest's eth0 (no DAD), a soft device lab6 on fd77::1, and g6 = rxe0's GID index for fd77::2.
# The TCP exchanges stay on IPv4 (the rdma-core tools listen on 0.0.0.0); RoCEv2 goes over IPv6.
lab_ipv6_up() {
  local i
  ip netns exec rxe-lab sysctl -qw net.ipv6.conf.all.disable_ipv6=0 net.ipv6.conf.default.disable_ipv6=0 \
    net.ipv6.conf.br0.disable_ipv6=0
  ip netns exec rxe-lab ip -6 addr replace fd77::1/64 dev br0 nodad
  ./run-lab.sh exec 1 'sysctl -qw net.ipv6.conf.all.disable_ipv6=0 net.ipv6.conf.eth0.disable_ipv6=0; ip -6 addr replace fd77::2/64 dev eth0 nodad' >/dev/null
  g6=""
  for i in $(seq 1 50); do
    g6=$(./run-lab.sh exec 1 'for f in /sys/class/infiniband/rxe0/ports/1/gids/*; do [ "$(cat $f)" = "fd77:0000:0000:0000:0000:0000:0000:0002" ] && basename $f; done; true' | tr -d '\r' | grep -E '^[0-9]+$' | head -1 || true)
    [ -n "$g6" ] && break
    sleep 0.2
  done
  [ -n "$g6" ] || { echo "rxe0 has no GID for fd77::2"; return 1; }
  echo "rxe0 GID index $g6 = fd77::2"
  devices_ns="lab=10.77.0.1,lab6=fd77::1"
}

# waits until the jrdma server is ready, at most $2 s: something in the namespace listens on
# TCP $1 (pingpong, perf); with READY set (rping, perf -R: no TCP at all), until the server's
# output holds that text ($name is run's local, visible here by bash's dynamic scoping)
wait_listen() {
  local t
  for t in $(seq 1 $(( ${2:-60} * 5 ))); do
    if [ -n "${READY:-}" ]; then
      grep -q "$READY" "$out/$name.jrdma.txt" 2>/dev/null && return 0
    else
      ip netns exec rxe-lab ss -ltnH "sport = :$1" | grep -q . && return 0
    fi
    sleep 0.2
  done
  return 1
}

# The lab's capture leaves IPv6 out ('not ip6'); with CAP6=1 a run also captures IPv6 RoCEv2
# on br0 into $caps/NAME.v6.pcap and judges that one with roce_report.py (IPv6 ICRC).
cap6_start() {
  local i
  ip netns exec rxe-lab tcpdump -Z root -i br0 -s 0 -U -n -w "$caps/$1.v6.pcap" 'ip6 and udp port 4791' \
    > "$out/$1.tcpdump6.log" 2>&1 &
  cap6_pid=$!
  for i in $(seq 1 50); do grep -q 'listening on' "$out/$1.tcpdump6.log" 2>/dev/null && break; sleep 0.2; done
}
cap6_stop() {
  sleep 1 # the last frames
  kill -INT "$cap6_pid" 2>/dev/null || true
  wait "$cap6_pid" 2>/dev/null || true
  python3 "$here/interop/roce_report.py" "$caps/$1.v6.pcap" "$1" > "$caps/$1.v6.txt" || true
}

counters() { # the guest's rxe0 hw_counters as "name value" lines
  ./run-lab.sh exec 1 'cd /sys/class/infiniband/rxe0/ports/1/hw_counters && for f in *; do echo "$f $(cat $f)"; done' 2>/dev/null
}
counter_diff() { # before-file after-file: the counters that moved, except the packet totals
  join "$1" "$2" | awk '$3 != $2 && $1 !~ /^(rcvd_pkts|sent_pkts|rdma_sends|rdma_recvs|lifespan)$/ { printf "%s+%d ", $1, $3 - $2 }'
}

# run NAME SERVER_SIDE GUEST_CMD JRDMA_ARGS...
#   SERVER_SIDE=rxe:   GUEST_CMD is the server in g1; jrdma JRDMA_ARGS $PEER is the client
#                      (PEER=10.77.0.2 unless set: fd77::2 for rping over IPv6)
#   SERVER_SIDE=jrdma: jrdma JRDMA_ARGS is the server; GUEST_CMD (which must end with the
#                      server address 10.77.0.1) is the client in g1, started once jrdma listens
# Passes when both ends exit 0, every RoCEv2 frame of the capture has a valid ICRC, and the rxe
# tool did not report bad data (ibv_*_pingpong -c's server prints "invalid data in page N" and
# still exits 0).
run() {
  local name=$1 side=$2 gcmd=$3; shift 3
  local job="${name}-$$-$RANDOM" jrc grc jpid
  echo
  echo "== $name: $([ "$side" = rxe ] && echo "rxe server (g1) <- jrdma client" || echo "jrdma server <- rxe client (g1)")"
  echo "   guest: $gcmd"
  echo "   jrdma: $* $([ "$side" = rxe ] && echo "${PEER:-10.77.0.2}")"
  counters > "$out/$name.cnt0"
  ./run-lab.sh cap-start "$name" >/dev/null 2>&1
  [ "${CAP6:-0}" = 1 ] && cap6_start "$name"
  if [ "$side" = rxe ]; then
    ./run-lab.sh submit 1 "$job" "timeout ${GUEST_TIMEOUT:-240} $gcmd"
    jrdma_ns "$@" "${PEER:-10.77.0.2}" > "$out/$name.jrdma.txt" 2>&1 && jrc=0 || jrc=$?
    ./run-lab.sh wait 1 "$job" $(( ${GUEST_TIMEOUT:-240} + 30 )) > "$out/$name.rxe.txt" 2>&1 && grc=0 || grc=$?
  else
    jrdma_ns "$@" > "$out/$name.jrdma.txt" 2>&1 &
    jpid=$!
    wait_listen "${PORT:-18515}" 60 || echo "   (jrdma server not listening after 60 s)"
    ./run-lab.sh submit 1 "$job" "timeout ${GUEST_TIMEOUT:-240} $gcmd"
    ./run-lab.sh wait 1 "$job" $(( ${GUEST_TIMEOUT:-240} + 30 )) > "$out/$name.rxe.txt" 2>&1 && grc=0 || grc=$?
    wait "$jpid" && jrc=0 || jrc=$?
  fi
  ./run-lab.sh cap-stop "$name" >/dev/null 2>&1
  local rep=$caps/$name.opcodes.txt pcap=$caps/$name.pcap
  if [ "${CAP6:-0}" = 1 ]; then cap6_stop "$name"; rep=$caps/$name.v6.txt; pcap=$caps/$name.v6.pcap; fi
  counters > "$out/$name.cnt1"
  local ops frames retx bad moved verdict
  ops=$(awk '/^ +[0-9]+ +0x[0-9a-f]+ /{printf "%s%s x%s", sep, $3, $1; sep=", "}' "$rep")
  frames=$(sed -n 's/.*: \([0-9]*\) RoCEv2 frames with valid ICRC, \([0-9]*\) invalid.*/\1/p' "$rep")
  bad=$(sed -n 's/.*: \([0-9]*\) RoCEv2 frames with valid ICRC, \([0-9]*\) invalid.*/\2/p' "$rep")
  retx=$(awk '/^# retransmitted/{getline; print $1}' "$rep")
  moved=$(counter_diff "$out/$name.cnt0" "$out/$name.cnt1")
  verdict=PASS
  if [ "$jrc" != 0 ] || [ "$grc" != 0 ] || [ "${bad:-1}" != 0 ] || [ "${frames:-0}" = 0 ] \
     || grep -q 'invalid data in page' "$out/$name.rxe.txt"; then verdict=FAIL; fail=1; fi
  echo "   jrdma exit $jrc, rxe tool exit $grc; RoCEv2 frames: $ops; ${frames:-0} valid ICRC, ${bad:-?} invalid; retransmitted ${retx:-?}"
  [ -n "$moved" ] && echo "   rxe counters moved: $moved"
  if [ "$verdict" = FAIL ] || [ "${VERBOSE:-0}" = 1 ]; then
    echo "   --- jrdma ($out/$name.jrdma.txt)"; tail -n "${TAIL:-6}" "$out/$name.jrdma.txt" | sed 's/^/   | /'
    echo "   --- rxe tool ($out/$name.rxe.txt)"; tail -n "${TAIL:-6}" "$out/$name.rxe.txt" | sed 's/^/   | /'
  else # the result row of each side
    grep -hE '^ +[0-9]+ +[0-9]+ +[0-9.]+|iters in' "$out/$name.jrdma.txt" | head -2 | sed 's/^/   jrdma: /' || true
    grep -hE '^ +[0-9]+ +[0-9]+ +[0-9.]+|iters in' "$out/$name.rxe.txt" | head -2 | sed 's/^/   rxe:   /' || true
  fi
  echo "   $verdict ($pcap)"
  results+=("$(printf '%-28s %-5s jrdma=%-3s rxe=%-3s frames=%-5s badICRC=%-2s retx=%-4s %s' "$name" "$verdict" "$jrc" "$grc" "${frames:-0}" "${bad:-?}" "${retx:-?}" "$moved")")
}

# pingpong_cases PREFIX DEVICE GIDX ITERS TRANSPORT...: jrdma pingpong on soft device DEVICE
# against ibv_<t>_pingpong -g GIDX in g1, both roles, per transport (rc, uc, ud). rc: 4001 B at
# MTU 1024 (FIRST, MIDDLE x2, LAST with pad 3); uc: 4096 B; ud: 1000 B, one packet a message
# (ibv_ud_pingpong has no -m: it takes the port's active MTU). SIZE overrides the size; PP_FLAGS
# go to both sides (e.g. -c: the rxe server checks its page starts, jrdma every message).
pingpong_cases() {
  local prefix=$1 dev=$2 g=$3 n=$4 t size opts cmd
  shift 4
  for t in "$@"; do
    case $t in
      rc) size=${SIZE:-4001}; opts="-s $size -m 1024" ;;
      uc) size=${SIZE:-4096}; opts="-s $size -m 1024" ;;
      ud) size=${SIZE:-1000}; opts="-s $size" ;;
      *) echo "pingpong_cases: no transport $t"; return 1 ;;
    esac
    cmd="ibv_${t}_pingpong -d rxe0 -g $g -n $n $opts${PP_FLAGS:+ $PP_FLAGS}"
    local j=(pingpong -d "$dev" --transport "$t" -n "$n" -s "$size" -m 1024 --timeout-ms 30000 ${PP_FLAGS:-})
    run "${prefix}_${t}_rxe_server" rxe "$cmd" "${j[@]}"
    # a guest client reaches the jrdma server's TCP exchange at 10.77.0.1 (IPv4 for lab6 too)
    run "${prefix}_${t}_jrdma_server" jrdma "$cmd 10.77.0.1" "${j[@]}"
  done
}

# perf_cases PREFIX DEVICE GIDX TEST...: jrdma perf TEST on DEVICE against the guest's perftest
# ib_TEST -x GIDX ("6.06"), both roles (SIDES="rxe jrdma"). ITERS (200) iterations, -F; sizes
# BW_SIZE (4096) and LAT_SIZE (64); atomics are always 8 B (perftest refuses -s for them);
# PERF_FLAGS go to both sides and name the case; with -R (rdma_cm, no TCP) the jrdma server is
# ready once it prints "Waiting for client", which it does after it listens.
perf_cases() {
  local prefix=$1 dev=$2 g=$3 t sflag flags pt sfx side
  shift 3
  for t in "$@"; do
    case $t in
      atomic_*) sflag="" ;;
      *_lat) sflag="-s ${LAT_SIZE:-64}" ;;
      *) sflag="-s ${BW_SIZE:-4096}" ;;
    esac
    flags="-n ${ITERS:-200}${sflag:+ $sflag} -F${PERF_FLAGS:+ $PERF_FLAGS}"
    pt="ib_$t -d rxe0 -x $g $flags"
    sfx=$(echo "${PERF_FLAGS:-}" | tr -c 'A-Za-z0-9' '_' | sed 's/__*/_/g; s/^_//; s/_$//')
    case " ${PERF_FLAGS:-} " in *" -R "*) READY="Waiting for client" ;; *) READY= ;; esac
    for side in ${SIDES:-rxe jrdma}; do
      if [ "$side" = rxe ]; then
        run "${prefix}_${t}${sfx:+_$sfx}_rxe_server" rxe "$pt" perf "$t" -d "$dev" $flags --timeout-ms 60000
      else
        run "${prefix}_${t}${sfx:+_$sfx}_jrdma_server" jrdma "$pt 10.77.0.1" perf "$t" -d "$dev" $flags --timeout-ms 120000
      fi
    done
  done
  READY=
}

# rping_cases PREFIX GUEST_ADDR JRDMA_ADDR: jrdma rping against librdmacm's rping in g1, both
# roles (SIDES="rxe jrdma"), -V (data verified) on both sides, COUNT (10) pings of SIZE (64)
# bytes; the connection over the CM alone (no TCP).
rping_cases() {
  local prefix=$1 guest=$2 ours=$3 side c=${COUNT:-10} sz=${SIZE:-64}
  READY="listening on" PEER=$guest # rping -d says so once it listens
  for side in ${SIDES:-rxe jrdma}; do
    if [ "$side" = rxe ]; then
      run "${prefix}_rxe_server" rxe "rping -s -a $guest -v -S $sz" rping -c -V -v -d -C "$c" -S "$sz" -a
    else
      run "${prefix}_jrdma_server" jrdma "rping -c -v -V -C $c -S $sz -a $ours" rping -s -v -d -S "$sz" -a "$ours"
    fi
  done
  READY= PEER=
}

summary() {
  echo
  echo "== summary"
  printf '%s\n' "${results[@]}"
  [ "${DOWN:-0}" = 1 ] && ./run-lab.sh down
  [ "$fail" = 0 ] && echo "interop: OK" || { echo "interop: FAILED"; exit 1; }
}
