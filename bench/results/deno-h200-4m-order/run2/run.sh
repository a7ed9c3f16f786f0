#!/bin/bash
# the 4M follow-up: which systems draw a splat at 2× the time (two fixed splats did, both)
cd /tmp && python3 -c "import lzma,shutil;shutil.copyfileobj(lzma.open('$OLDPWD/.gpu-tools/deno.xz'),open('/tmp/deno','wb'))" && chmod +x /tmp/deno
cd "$OLDPWD"
dpkg -x .gpu-tools/libvulkan1_*.deb / && ldconfig
echo '{"file_format_version":"1.0.1","ICD":{"library_path":"/usr/local/nvidia/lib64/libEGL_nvidia.so.0","api_version":"1.4.312"}}' > /tmp/egl_icd.json
export VK_DRIVER_FILES=/tmp/egl_icd.json DENO_WEBGPU_BACKEND=vulkan
nvidia-smi --query-gpu=name --format=csv,noheader
for order in splat splat,splat auto,splat splat,splat,splat instanced,splat splat,instanced auto,auto,auto splat,splat; do
  name=${order//,/_}
  timeout 140 /tmp/deno run -A bench/deno/particles.ts --out $OUT/$name --counts 4e6 --draw $order --frames 30 --sizes '' --cpu-counts '' --reference-counts '' --splat-counts '' > $OUT/$name.log 2>&1
  echo "== $order rc=$?"
  grep "^particles/" $OUT/$name.log | sed 's/ → splat: measured.*/ → splat/; s/particles\/compute@webgpu-deno\///'
done
