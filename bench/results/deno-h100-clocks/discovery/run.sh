#!/bin/bash
cd /tmp && python3 -c "import lzma,shutil;shutil.copyfileobj(lzma.open('$OLDPWD/.gpu-tools/deno.xz'),open('/tmp/deno','wb'))" && chmod +x /tmp/deno
cd "$OLDPWD"
dpkg -x .gpu-tools/libvulkan1_*.deb / && ldconfig
echo '{"file_format_version":"1.0.1","ICD":{"library_path":"/usr/local/nvidia/lib64/libEGL_nvidia.so.0","api_version":"1.4.312"}}' > /tmp/egl_icd.json
export VK_DRIVER_FILES=/tmp/egl_icd.json DENO_WEBGPU_BACKEND=vulkan
nvidia-smi -q -d PERFORMANCE,CLOCK | head -60 > $OUT/smi-q.txt
sample() { nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,utilization.gpu,power.draw,clocks_event_reasons.active --format=csv,noheader -lms 50 > $OUT/clocks-$1.txt & echo $! > /tmp/smi.pid; }
stop() { kill $(cat /tmp/smi.pid); }
sample ignis
timeout 90 /tmp/deno run -A bench/deno/particles.ts --out /tmp/o-1 --counts 4e6 --draw splat,splat --frames 30 --sizes '' --cpu-counts '' --reference-counts '' --splat-counts '' > $OUT/ignis.txt 2>&1
stop
sample band
timeout 60 /tmp/deno run -A bench/deno/memory-band.ts --count 4e6 --frames 200 > $OUT/band.txt 2>&1
stop
sample ignis12
timeout 90 /tmp/deno run -A bench/deno/particles.ts --out /tmp/o-2 --counts 12e6 --draw splat,splat --frames 30 --sizes '' --cpu-counts '' --reference-counts '' --splat-counts '' > $OUT/ignis12.txt 2>&1
stop
grep "^| *[0-9]" $OUT/ignis.txt $OUT/ignis12.txt; tail -1 $OUT/band.txt
for f in ignis band ignis12; do echo "== $f"; awk -F', ' '{print $2}' $OUT/clocks-$f.txt | sort | uniq -c | sort -rn | head -5; done
