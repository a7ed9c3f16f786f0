#!/bin/bash
# The post-processing benchmark (bench/deno/postfx.ts) after its guard was fixed (a warm-up before
# every round of 5 frames, not once before a measurement's 23), guarded (the unguarded run is in
# postfx-first/: the guard's change does not touch it); nvidia-smi's SM clock sampled beside it.
# Device tool: carry .gpu-tools (deno.xz, the libvulkan1 .deb) and dist (npm run build first).
cd /tmp && python3 -c "import lzma,shutil;shutil.copyfileobj(lzma.open('$OLDPWD/.gpu-tools/deno.xz'),open('/tmp/deno','wb'))" && chmod +x /tmp/deno
cd "$OLDPWD"
dpkg -x .gpu-tools/libvulkan1_*.deb / && ldconfig
echo '{"file_format_version":"1.0.1","ICD":{"library_path":"/usr/local/nvidia/lib64/libEGL_nvidia.so.0","api_version":"1.4.312"}}' > /tmp/egl_icd.json
export VK_DRIVER_FILES=/tmp/egl_icd.json DENO_WEBGPU_BACKEND=vulkan
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm,clocks.mem --format=csv,noheader > $OUT/hardware.txt
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
