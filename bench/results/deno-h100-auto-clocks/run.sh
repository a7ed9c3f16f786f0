#!/bin/bash
# `auto` against every fixed mode on an H100 with the clock guard on (bench/deno/clocks.ts), the
# command of ../deno-h100-auto/ (which ran before the guard existed), twice; nvidia-smi's SM clock
# sampled beside each run. Device tool: carry .gpu-tools (deno.xz, the libvulkan1 .deb) and dist.
cd /tmp && python3 -c "import lzma,shutil;shutil.copyfileobj(lzma.open('$OLDPWD/.gpu-tools/deno.xz'),open('/tmp/deno','wb'))" && chmod +x /tmp/deno
cd "$OLDPWD"
dpkg -x .gpu-tools/libvulkan1_*.deb / && ldconfig
echo '{"file_format_version":"1.0.1","ICD":{"library_path":"/usr/local/nvidia/lib64/libEGL_nvidia.so.0","api_version":"1.4.312"}}' > /tmp/egl_icd.json
export VK_DRIVER_FILES=/tmp/egl_icd.json DENO_WEBGPU_BACKEND=vulkan
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader
for run in 1 2; do
  nvidia-smi --query-gpu=timestamp,clocks.sm,utilization.gpu --format=csv,noheader -lms 100 > /tmp/clocks-$run.txt &
  smi=$!
  start=$SECONDS
  timeout 280 /tmp/deno run -A bench/deno/particles.ts --out /tmp/o$run --counts 1e5,1e6,4e6 \
    --draw instanced,pulled,splat,auto --frames 30 --sizes '' --cpu-counts '' \
    --reference-counts '' --splat-counts '' > /tmp/log$run.txt 2>&1
  echo "run $run: rc=$? in $((SECONDS - start)) s"
  kill $smi
  cp /tmp/o$run/latest.md $OUT/run$run.md; cp /tmp/o$run/latest.json $OUT/run$run.json
  echo "SM clock samples (MHz: count): $(awk -F', ' '{print $2}' /tmp/clocks-$run.txt | sort | uniq -c | sort -rn | head -5 | awk '{printf "%s: %s, ", $2, $1}')"
  grep "^| *[0-9]" $OUT/run$run.md | head -12
done > $OUT/summary.txt 2>&1
cat $OUT/summary.txt
