#!/bin/bash
# The two speeds were the GPU's clock: the plain-WebGPU buffers of memory-band.ts timed at once,
# after 6 s idle, and after 6 s idle then warmed (clocks.ts); Ignis's two splat systems at 4M with
# the clock guard off and on; nvidia-smi's SM clock sampled beside each (clocks-<name>.txt).
# Device tool: carry .gpu-tools (deno.xz, the libvulkan1 .deb) and dist (npm run build first).
cd /tmp && python3 -c "import lzma,shutil;shutil.copyfileobj(lzma.open('$OLDPWD/.gpu-tools/deno.xz'),open('/tmp/deno','wb'))" && chmod +x /tmp/deno
cd "$OLDPWD"
dpkg -x .gpu-tools/libvulkan1_*.deb / && ldconfig
echo '{"file_format_version":"1.0.1","ICD":{"library_path":"/usr/local/nvidia/lib64/libEGL_nvidia.so.0","api_version":"1.4.312"}}' > /tmp/egl_icd.json
export VK_DRIVER_FILES=/tmp/egl_icd.json DENO_WEBGPU_BACKEND=vulkan
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,clocks.max.sm --format=csv,noheader
# sample <name> <command…>: the command's last lines, with the SM clock every 50 ms beside it
sample() {
  name=$1; shift
  nvidia-smi --query-gpu=timestamp,clocks.sm,utilization.gpu,power.draw --format=csv,noheader -lms 50 > $OUT/clocks-$name.txt &
  smi=$!
  "$@" > $OUT/$name.txt 2>&1
  kill $smi
  echo "== $name: SM clock samples (MHz: count) $(awk -F', ' '{print $2}' $OUT/clocks-$name.txt | sort | uniq -c | sort -rn | head -4 | awk '{printf "%s: %s, ", $2, $1}')"
  grep -E "GB/s|^\| *[0-9]" $OUT/$name.txt | head -6
}
band() { timeout 60 /tmp/deno run -A bench/deno/memory-band.ts "$@"; }
ignis() { timeout 180 /tmp/deno run -A bench/deno/particles.ts --out /tmp/o-$RANDOM --draw splat,splat --frames 30 --sizes '' --cpu-counts '' --reference-counts '' --splat-counts '' "$@"; }
# first call: the minimal script at once, idle and idle then warmed; Ignis off and on (run 1)
# second call, after clocks.ts's warm-up was fixed (it had settled at the idle clock): run 2
run=${1:-2}
{
  if [ "$run" = 1 ]; then
    for rep in 1 2; do
      sample band-now-$rep band --count 4e6
      sample band-idle-$rep band --count 4e6 --idle 6
      sample band-idle-warm-$rep band --count 4e6 --idle 6 --warm 1
    done
    for rep in 1 2; do
      sample ignis-off-$rep ignis --clocks off --counts 4e6
      sample ignis-on-$rep ignis --clocks on --counts 4e6
    done
  else
    for rep in 1 2; do
      sample band-idle-warm-$rep band --count 4e6 --idle 6 --warm 1
      sample ignis-on-$rep ignis --clocks on --counts 4e6,6e6
    done
  fi
} > $OUT/summary.txt 2>&1
cat $OUT/summary.txt
