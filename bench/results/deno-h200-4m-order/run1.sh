#!/bin/bash
# the 4M order experiment: is auto's splat slower because it is auto, or because it comes second?
set -x
cd /tmp && python3 -c "import lzma,shutil;shutil.copyfileobj(lzma.open('$OLDPWD/.gpu-tools/deno.xz'),open('/tmp/deno','wb'))" && chmod +x /tmp/deno
cd "$OLDPWD"
dpkg -x .gpu-tools/libvulkan1_*.deb / && ldconfig
echo '{"file_format_version":"1.0.1","ICD":{"library_path":"/usr/local/nvidia/lib64/libEGL_nvidia.so.0","api_version":"1.4.312"}}' > /tmp/egl_icd.json
export VK_DRIVER_FILES=/tmp/egl_icd.json DENO_WEBGPU_BACKEND=vulkan
nvidia-smi --query-gpu=name --format=csv
for order in auto,splat splat,auto splat,splat auto,auto; do
  for rep in 1 2; do
    timeout 140 /tmp/deno run -A bench/deno/particles.ts --out $OUT/$order-$rep --counts 4e6 --draw $order --frames 30 --sizes '' --cpu-counts '' --reference-counts '' --splat-counts '' > $OUT/$order-$rep.log 2>&1
    echo "$order $rep rc=$?"
    grep -i "splat\|auto" $OUT/$order-$rep.log | head -20
  done
done
