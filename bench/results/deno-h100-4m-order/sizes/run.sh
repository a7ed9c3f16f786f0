#!/bin/bash
# splat.splat at sizes around 4M: is the slow state the exact 64 MiB buffers?
cd /tmp && python3 -c "import lzma,shutil;shutil.copyfileobj(lzma.open('$OLDPWD/.gpu-tools/deno.xz'),open('/tmp/deno','wb'))" && chmod +x /tmp/deno
cd "$OLDPWD"
dpkg -x .gpu-tools/libvulkan1_*.deb / && ldconfig
echo '{"file_format_version":"1.0.1","ICD":{"library_path":"/usr/local/nvidia/lib64/libEGL_nvidia.so.0","api_version":"1.4.312"}}' > /tmp/egl_icd.json
export VK_DRIVER_FILES=/tmp/egl_icd.json DENO_WEBGPU_BACKEND=vulkan
nvidia-smi --query-gpu=name,clocks.sm --format=csv,noheader
for order in splat.splat:4e6 splat.splat:3.9e6 splat.splat:4.1e6; do
  count=4e6; case $order in *:*) count=${order#*:}; order=${order%:*};; esac
  for rep in 1; do
    name=$order-$count-$rep-$SECONDS
    timeout 65 /tmp/deno run -A bench/deno/particles.ts --out /tmp/o-$name --counts $count --draw ${order/./,} --frames 30 --sizes '' --cpu-counts '' --reference-counts '' --splat-counts '' > /tmp/o-$name.log 2>&1
    echo "== $order $count $rep rc=$?"
    grep -i "^| *[0-9]" /tmp/o-$name.log | head -8
  done
done > $OUT/order.txt 2>&1
tar czf $OUT/logs.tgz -C /tmp $(cd /tmp && ls o-*.log) 2>/dev/null
cat $OUT/order.txt
