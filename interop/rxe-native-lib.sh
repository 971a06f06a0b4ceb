# Shared by rxe-native.sh, rxe-native-cm.sh and rxe-native-tools.sh (sourced, not run): the JUnit
# launcher staged for a guest, a server/client pair of jobs in two lab guests, and the pass/fail
# rows. pair() needs $lab as the cwd (run-lab.sh), $stage (the logs) and $INTEROP_WORK.

# Copies the JUnit Platform's jars from the local Maven repository into $1/lib and compiles the
# launcher main (rxe-native/ConformanceMain.java) into $1/classes: what a guest without Maven
# needs to run the compiled tests. The versions are the build's (pom.xml).
stage_junit() {
  local m2=${M2_REPO:-$HOME/.m2/repository} j
  mkdir -p "$1/lib" "$1/classes"
  for j in org/junit/jupiter/junit-jupiter-api/6.1.3/junit-jupiter-api-6.1.3.jar \
      org/junit/jupiter/junit-jupiter-engine/6.1.3/junit-jupiter-engine-6.1.3.jar \
      org/junit/jupiter/junit-jupiter-params/6.1.3/junit-jupiter-params-6.1.3.jar \
      org/junit/platform/junit-platform-commons/6.1.3/junit-platform-commons-6.1.3.jar \
      org/junit/platform/junit-platform-engine/6.1.3/junit-platform-engine-6.1.3.jar \
      org/junit/platform/junit-platform-launcher/6.1.3/junit-platform-launcher-6.1.3.jar \
      org/opentest4j/opentest4j/1.3.0/opentest4j-1.3.0.jar \
      org/apiguardian/apiguardian-api/1.1.2/apiguardian-api-1.1.2.jar \
      org/jspecify/jspecify/1.0.0/jspecify-1.0.0.jar \
      org/assertj/assertj-core/3.27.7/assertj-core-3.27.7.jar \
      net/bytebuddy/byte-buddy/1.18.3/byte-buddy-1.18.3.jar; do
    cp "$m2/$j" "$1/lib/"
  done
  "$JAVA_HOME/bin/javac" -d "$1/classes" -cp "$1/lib/*" "$here/interop/rxe-native/ConformanceMain.java"
}
results=()
out() { echo "$INTEROP_WORK/run/g$1/ctl/out/$2"; }
logbase() { echo "$stage/${1//[^A-Za-z0-9_.-]/_}"; } # pair's logs: $(logbase NAME).client.log, .server.log
record() { results+=("$(printf '%-52s %s' "$1" "$2")"); echo "${0##*/}: $1: $2"; }

# Waits until job $2 on guest $1 printed $3 (a server listening), at most $4 s; fails if it ended.
# $3 = tcp:PORT: until something in guest $1 listens on TCP PORT (servers that print nothing).
ready() {
  local f; f=$(out "$1" "$2"); local n=$(( $4 * 5 ))
  while [ $n -gt 0 ]; do
    if [[ $3 == tcp:* ]]; then
      ./run-lab.sh exec "$1" "ss -ltnH 'sport = :${3#tcp:}'" 2>/dev/null | grep -q LISTEN && return 0
      n=$((n - 4))
    else
      grep -q -- "$3" "$f.log" 2>/dev/null && return 0
    fi
    [ -f "$f.rc" ] && return 1
    sleep 0.2; n=$((n - 1))
  done
  return 1
}

# Ends what the job $2 on guest $1 still runs (the children of its shell, by PID).
stop() {
  ./run-lab.sh exec "$1" "p=\$(cat /tmp/$2.pid 2>/dev/null) && pkill -P \$p; true" >/dev/null 2>&1 || true
}

# One server/client pair: server on guest $1 (job text $3, ready when its log shows $4), client
# on guest $2 (job text $5); passes when both exit 0, the client's or server's log matches $6 and
# neither log matches $8 (if given: bad data an rdma-core tool reports but still exits 0 for).
pair() {
  local name=$7 sg=$1 cg=$2 job="cm-$$-$RANDOM" bad=${8:-} f log
  f=$(logbase "$7"); log=${f#"${here:-}"/}
  # the job's shell writes its PID, so that a server left waiting is ended by PID (its children)
  ./run-lab.sh submit "$sg" "$job-s" "echo \$\$ > /tmp/$job-s.pid; $3"
  if ! ready "$sg" "$job-s" "$4" 180; then
    stop "$sg" "$job-s"
    record "$name" "FAIL (server never listened; $log.server.log)"
    cp "$(out "$sg" "$job-s").log" "$f.server.log" 2>/dev/null || true
    tail -n 20 "$f.server.log" 2>/dev/null || true
    return
  fi
  local crc=0 src=0
  ./run-lab.sh submit "$cg" "$job-c" "$5"
  ./run-lab.sh wait "$cg" "$job-c" 300 > "$f.client.log" 2>&1 || crc=$?
  ./run-lab.sh wait "$sg" "$job-s" 120 > "$f.server.log" 2>&1 || { src=$?; stop "$sg" "$job-s"; }
  if [ $crc -eq 0 ] && [ $src -eq 0 ] && grep -Eq -- "$6" "$f.client.log" "$f.server.log" \
     && { [ -z "$bad" ] || ! grep -Eq -- "$bad" "$f.client.log" "$f.server.log"; }; then
    record "$name" "pass"
  else
    record "$name" "FAIL (client rc $crc, server rc $src; $log.*.log)"
    tail -n 15 "$f.server.log" "$f.client.log"
  fi
}

# One job on guest $1 (job text $2) that is its own peer (demo: both sides in one process); passes
# when it exits 0, its log matches $3, and does not match $5 (if given). $4 names the row.
solo() {
  local f log job="solo-$$-$RANDOM" rc=0
  f=$(logbase "$4"); log=${f#"${here:-}"/}
  ./run-lab.sh submit "$1" "$job" "$2"
  ./run-lab.sh wait "$1" "$job" 300 > "$f.log" 2>&1 || rc=$?
  if [ $rc -eq 0 ] && grep -Eq -- "$3" "$f.log" && { [ -z "${5:-}" ] || ! grep -Eq -- "$5" "$f.log"; }; then
    record "$4" "pass"
  else
    record "$4" "FAIL (rc $rc; $log.log)"
    tail -n 15 "$f.log"
  fi
}
