#!/bin/bash
# the 4M follow-up: GPU clocks while one splat system and two run
cd /tmp && python3 -c "import lzma,shutil;shutil.copyfileobj(lzma.open('$OLDPWD/.gpu-tools/deno.xz'),open('/tmp/deno','wb'))" && chmod +x /tmp/deno
cd "$OLDPWD"
dpkg -x .gpu-tools/libvulkan1_*.deb / && ldconfig
echo '{"file_format_version":"1.0.1","ICD":{"library_path":"/usr/local/nvidia/lib64/libEGL_nvidia.so.0","api_version":"1.4.312"}}' > /tmp/egl_icd.json
export VK_DRIVER_FILES=/tmp/egl_icd.json DENO_WEBGPU_BACKEND=vulkan
for order in splat splat,splat splat,auto auto,splat splat,splat; do
  name=${order//,/_}
  nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,utilization.gpu,memory.used --format=csv,noheader -lms 250 > $OUT/$name.smi 2>&1 &
  smi=$!
  timeout 140 /tmp/deno run -A bench/deno/particles.ts --out /tmp/o-$name --counts 4e6 --draw $order --frames 30 --sizes '' --cpu-counts '' --reference-counts '' --splat-counts '' > $OUT/$name.log 2>&1
  kill $smi
  echo "== $order"
  grep "^particles/" $OUT/$name.log | sed 's/ → splat: measured.*/ → splat/; s/particles\/compute@webgpu-deno\///'
  # the clocks over the run: SM MHz min/median/max, memory used max
  awk -F', ' '{gsub(/ MHz/,"",$2); gsub(/ MiB/,"",$6); print $2, $6}' $OUT/$name.smi | sort -n | awk '{a[NR]=$1; if($2>m)m=$2} END{print "SM MHz min", a[1], "median", a[int(NR/2)+1], "max", a[NR], "samples", NR, "mem MiB max", m}'
done
