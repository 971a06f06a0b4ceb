#!/usr/bin/env bash
# side by side: each shape runs with the old jar and the new jar back to back (the order
mkdir -p "${OUT:-/tmp/jrdma-bench-il}"
# alternating), 3 reps; one bench invocation per (rep, shape, jar), the same runner
set -u
cd "$(dirname "$0")/../.."
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
shapes="write_bw@64 write_bw@4096 write_bw@65536 write_bw@1048576 send_bw@64 send_bw@4096 send_bw@65536 send_bw@1048576 read_bw@64 read_bw@4096 read_bw@65536 read_bw@1048576 send_lat@8 send_lat@4096 write_lat@8 write_lat@4096"
i=0
for rep in 1 2 3; do
  for s in $shapes; do
    i=$((i+1))
    if [ $((i % 2)) -eq 0 ]; then order="old new"; else order="new old"; fi
    for who in $order; do
      jar=${NEW_JAR:?}; [ $who = old ] && jar=${OLD_JAR:?}
      $J -jar jrdma-bench/target/jrdma-bench.jar --jrdma $jar --reps 1 --only $s --markdown ${OUT:-/tmp/jrdma-bench-il}/r$rep-$s-$who.md > ${OUT:-/tmp/jrdma-bench-il}/r$rep-$s-$who.log 2>&1 || echo "fail $rep $s $who" >> ${OUT:-/tmp/jrdma-bench-il}/status
    done
  done
done
echo done >> ${OUT:-/tmp/jrdma-bench-il}/status
