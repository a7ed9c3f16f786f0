#!/bin/bash
# the 4M order experiment on an H100: is auto's splat 1.07x the fixed splat because it is auto, or because it is the second system?
cd /tmp && python3 -c "import lzma,shutil;shutil.copyfileobj(lzma.open('$OLDPWD/.gpu-tools/deno.xz'),open('/tmp/deno','wb'))" && chmod +x /tmp/deno
cd "$OLDPWD"
dpkg -x .gpu-tools/libvulkan1_*.deb / && ldconfig
echo '{"file_format_version":"1.0.1","ICD":{"library_path":"/usr/local/nvidia/lib64/libEGL_nvidia.so.0","api_version":"1.4.312"}}' > /tmp/egl_icd.json
export VK_DRIVER_FILES=/tmp/egl_icd.json DENO_WEBGPU_BACKEND=vulkan
nvidia-smi --query-gpu=name,clocks.sm --format=csv,noheader
for order in splat,auto auto,splat splat,splat auto,auto; do
  for rep in 1 2; do
    timeout 65 /tmp/deno run -A bench/deno/particles.ts --out /tmp/o-$order-$rep --counts 4e6 --draw $order --frames 30 --sizes '' --cpu-counts '' --reference-counts '' --splat-counts '' > /tmp/o-$order-$rep.log 2>&1
    echo "== $order $rep rc=$?"
    grep -i "^| *4" /tmp/o-$order-$rep.log | head -8
  done
done > $OUT/order.txt 2>&1
cp /tmp/o-*.log $OUT/ 2>/dev/null | true
tar czf $OUT/logs.tgz -C /tmp $(cd /tmp && ls o-*.log) 2>/dev/null
cat $OUT/order.txt
