#!/bin/bash
# A short version of run.sh (the device time left allowed no more): the particle benchmark on an
# H100 with the clock guard of check/clock-probe.ts (Ignis's compute), fewer counts and sections;
# nvidia-smi's SM clock sampled beside it.
# Device tool: carry .gpu-tools (deno.xz, the libvulkan1 .deb) and dist (npm run build first).
cd /tmp && python3 -c "import lzma,shutil;shutil.copyfileobj(lzma.open('$OLDPWD/.gpu-tools/deno.xz'),open('/tmp/deno','wb'))" && chmod +x /tmp/deno
cd "$OLDPWD"
dpkg -x .gpu-tools/libvulkan1_*.deb / && ldconfig
echo '{"file_format_version":"1.0.1","ICD":{"library_path":"/usr/local/nvidia/lib64/libEGL_nvidia.so.0","api_version":"1.4.312"}}' > /tmp/egl_icd.json
export VK_DRIVER_FILES=/tmp/egl_icd.json DENO_WEBGPU_BACKEND=vulkan
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm,clocks.mem --format=csv,noheader > $OUT/hardware.txt
nvidia-smi --query-gpu=timestamp,clocks.sm,utilization.gpu --format=csv,noheader -lms 250 > $OUT/clocks.txt &
smi=$!
start=$SECONDS
timeout 200 /tmp/deno run -A bench/deno/particles.ts --out /tmp/o --counts 1000000,4000000 --sizes "" \
  --frames 30 --rounds 3 --size 1280x720 --cpu-counts 1000000 \
  --reference-counts 100000 --reference-looks disc --splat-counts 4000000 > $OUT/log.txt 2>&1
echo "rc=$? in $((SECONDS - start)) s" >> $OUT/log.txt
kill $smi
cp /tmp/o/latest.md /tmp/o/latest.json $OUT/
echo "SM clock samples (MHz: count): $(awk -F', ' '{print $2}' $OUT/clocks.txt | sort | uniq -c | sort -rn | head -6 | awk '{printf "%s: %s, ", $2, $1}')" >> $OUT/log.txt
tail -3 $OUT/log.txt; cat $OUT/latest.md | head -80
