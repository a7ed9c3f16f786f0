#!/bin/bash
# The post-processing benchmark (bench/deno/postfx.ts) after its guard was fixed (a warm-up before
# every round of 5 frames, not once before a measurement's 23), guarded (the unguarded run is in
# postfx-first/: the guard's change does not touch it); nvidia-smi's SM clock sampled beside it.
# Device tool: carry .gpu-tools and dist (bench/deno/device-setup.sh).
source bench/deno/device-setup.sh
for mode in on; do
  nvidia-smi --query-gpu=timestamp,clocks.sm,utilization.gpu --format=csv,noheader -lms 250 > $OUT/clocks-$mode.txt &
  smi=$!
  start=$SECONDS
  timeout 150 /tmp/deno run -A bench/deno/postfx.ts /tmp/p-$mode 20 --clocks $mode > $OUT/log-$mode.txt 2>&1
  echo "rc=$? in $((SECONDS - start)) s" >> $OUT/log-$mode.txt
  kill $smi
  cp /tmp/p-$mode/postfx-deno.md $OUT/postfx-$mode.md
  echo "SM clock samples (MHz: count): $(awk -F', ' '{print $2}' $OUT/clocks-$mode.txt | sort | uniq -c | sort -rn | head -6 | awk '{printf "%s: %s, ", $2, $1}')" >> $OUT/log-$mode.txt
  tail -2 $OUT/log-$mode.txt
done
cp /tmp/p-on/postfx-deno.json $OUT/postfx-on.json
cat $OUT/hardware.txt $OUT/postfx-on.md
