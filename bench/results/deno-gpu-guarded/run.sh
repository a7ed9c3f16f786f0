#!/bin/bash
# One device call: the whole particle benchmark with the clock guard (the command of ../deno-h200/,
# as ../deno-h100-guarded/run.sh), then the post-processing benchmark guarded and, in the time
# left, unguarded; nvidia-smi's SM clock sampled beside each. Device tool: carry .gpu-tools
# and dist (bench/deno/device-setup.sh).
source bench/deno/device-setup.sh
cat $OUT/hardware.txt
all=$SECONDS
sample() { nvidia-smi --query-gpu=timestamp,clocks.sm,utilization.gpu --format=csv,noheader -lms 250 > $OUT/clocks-$1.txt & smi=$!; }
summary() { echo "SM clock samples (MHz: count): $(awk -F', ' '{print $2}' $OUT/clocks-$1.txt | sort | uniq -c | sort -rn | head -6 | awk '{printf "%s: %s, ", $2, $1}')"; }
sample particles; start=$SECONDS
timeout 330 /tmp/deno run -A bench/deno/particles.ts --out /tmp/o --counts 100000,1000000,4000000,16000000 \
  --frames 30 --rounds 3 --size 1280x720 --cpu-counts 1000000,10000000 \
  --reference-counts 100000,1000000 --splat-counts 100000,1000000,4000000,16000000 > $OUT/log-particles.txt 2>&1
echo "rc=$? in $((SECONDS - start)) s" >> $OUT/log-particles.txt
kill $smi; summary particles >> $OUT/log-particles.txt
cp /tmp/o/latest.md /tmp/o/latest.json $OUT/ 2>/dev/null
tail -2 $OUT/log-particles.txt
for mode in on off; do
  left=$((565 - (SECONDS - all)))
  [ $left -lt 40 ] && { echo "postfx --clocks $mode: no time left"; continue; }
  sample postfx-$mode; start=$SECONDS
  timeout $left /tmp/deno run -A bench/deno/postfx.ts /tmp/p-$mode 20 --clocks $mode > $OUT/log-postfx-$mode.txt 2>&1
  echo "rc=$? in $((SECONDS - start)) s" >> $OUT/log-postfx-$mode.txt
  kill $smi; summary postfx-$mode >> $OUT/log-postfx-$mode.txt
  cp /tmp/p-$mode/postfx-deno.md $OUT/postfx-$mode.md 2>/dev/null; cp /tmp/p-$mode/postfx-deno.json $OUT/postfx-$mode.json 2>/dev/null
  tail -2 $OUT/log-postfx-$mode.txt
done
