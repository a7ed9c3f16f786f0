#!/bin/bash
# The two speeds without Ignis: bench/deno/memory-band.ts (plain WebGPU, Ignis's buffers in
# Ignis's order) in one process per line, then Ignis's own two splat systems at 4M beside it.
# Device tool: carry .gpu-tools (deno.xz, the libvulkan1 .deb) and dist (npm run build first).
cd /tmp && python3 -c "import lzma,shutil;shutil.copyfileobj(lzma.open('$OLDPWD/.gpu-tools/deno.xz'),open('/tmp/deno','wb'))" && chmod +x /tmp/deno
cd "$OLDPWD"
dpkg -x .gpu-tools/libvulkan1_*.deb / && ldconfig
echo '{"file_format_version":"1.0.1","ICD":{"library_path":"/usr/local/nvidia/lib64/libEGL_nvidia.so.0","api_version":"1.4.312"}}' > /tmp/egl_icd.json
export VK_DRIVER_FILES=/tmp/egl_icd.json DENO_WEBGPU_BACKEND=vulkan
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv,noheader
band() { timeout 60 /tmp/deno run -A bench/deno/memory-band.ts "$@" 2>&1 | tail -1; }
{
  for rep in 1 2 3 4; do
    band --count 4e6
    band --count 4e6 --pad 2097152
  done
  for rep in 1 2 3; do
    band --count 4e6 --systems 1
    band --count 4e6 --accum 0
  done
  for rep in 1 2; do band --count 4e6 --clear 1; done
  for count in 1e6 2e6 3e6 6e6 8e6 12e6 16e6; do band --count $count; done
  for rep in 1 2; do
    timeout 90 /tmp/deno run -A bench/deno/particles.ts --out /tmp/o-$rep --counts 4e6 --draw splat,splat --frames 30 --sizes '' --cpu-counts '' --reference-counts '' --splat-counts '' 2>&1 | grep "^| *4,000,000"
  done
} > $OUT/band.txt 2>&1
cat $OUT/band.txt
