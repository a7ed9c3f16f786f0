#!/bin/bash
# H200: the reference rows (disc and sprite) with the current dist and the build before the sprite
# varyings change (9cedc77), alternating, twice each.
set -x
cd "$(dirname "$0")/.."
python3 -c "import lzma,shutil; shutil.copyfileobj(lzma.open('.gpu-tools/deno.xz'), open('/tmp/deno','wb'))"
chmod +x /tmp/deno
dpkg -x .gpu-tools/libvulkan1_*.deb / && ldconfig
echo '{"file_format_version":"1.0.1","ICD":{"library_path":"/usr/local/nvidia/lib64/libEGL_nvidia.so.0","api_version":"1.4.312"}}' > /tmp/egl_icd.json
export VK_DRIVER_FILES=/tmp/egl_icd.json DENO_WEBGPU_BACKEND=vulkan
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/gpu.txt
git log --oneline -1 > $OUT/commit.txt 2>/dev/null
ARGS="--counts 100000 --draw instanced --frames 30 --sizes 0 --size-count 1000 --cpu-counts 1000 --splat-counts 100000 --reference-counts 100000,1000000 --reference-looks disc,sprite"
for i in 1 2; do
  for b in new base; do
    if [ $b = new ]; then D=$PWD/dist; else D=$PWD/.gpu-tools/dist-base; fi
    IGNIS_DIST=$D timeout 250 /tmp/deno run -A bench/deno/particles.ts --out $OUT/$b$i $ARGS > $OUT/$b$i.log 2>&1
    echo "$b$i rc=$?"
  done
done
