#!/usr/bin/env bash
# The data path's CPU cost, old build against new, side by side: DataPathProbe (soft's test
# classes) in each checkout, order alternating, REPS pairs per mode. OLD and NEW are checkouts
# built with `./mvnw -DskipTests test-compile -pl jrdma-soft -am`; a checkout from before the
# package split (98ff51c) needs the probe copied in with its ThreadingMode import and its
# FreshDevices.hca(x) calls adjusted (org.jrdma.soft.ThreadingMode, ((SoftContext) x).hca()).
set -u
J=${JAVA:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}
modes=${MODES:-"send_lat@8 send_lat@4096 send_bw@4096 send_bw@1048576 write_bw@65536"}
run() {
  local d=$1; shift
  "$J" --enable-native-access=ALL-UNNAMED \
    -cp "$d/jrdma-soft/target/classes:$d/jrdma-soft/target/test-classes:$d/jrdma-verbs/target/classes" \
    org.jrdma.soft.probe.DataPathProbe "$@" | tail -1
}
i=0
for rep in $(seq 1 "${REPS:-3}"); do
  for m in $modes; do
    i=$((i + 1))
    if [ $((i % 2)) -eq 0 ]; then order="old new"; else order="new old"; fi
    for who in $order; do
      d=${NEW:?}; [ "$who" = old ] && d=${OLD:?}
      echo "$rep $who $(run "$d" "${m%@*}" "${m#*@}" "${SECONDS_PER_RUN:-4}")"
    done
  done
done
