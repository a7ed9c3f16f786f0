#!/bin/bash
# The setup every device-tool recipe under bench/results/ begins with (source it from the
# repository root): Deno unpacked to /tmp/deno, Debian's Vulkan loader installed, the EGL ICD file
# that works in that container (docs/benchmarks.md, "On a real GPU"), and the GPU's name, driver
# and clocks written to $OUT/hardware.txt. The call must carry .gpu-tools (deno.xz, the libvulkan1
# .deb) and dist (npm run build first).
python3 -c "import lzma,shutil;shutil.copyfileobj(lzma.open('.gpu-tools/deno.xz'),open('/tmp/deno','wb'))" && chmod +x /tmp/deno
dpkg -x .gpu-tools/libvulkan1_*.deb / && ldconfig
echo '{"file_format_version":"1.0.1","ICD":{"library_path":"/usr/local/nvidia/lib64/libEGL_nvidia.so.0","api_version":"1.4.312"}}' > /tmp/egl_icd.json
export VK_DRIVER_FILES=/tmp/egl_icd.json DENO_WEBGPU_BACKEND=vulkan
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm,clocks.mem --format=csv,noheader > $OUT/hardware.txt
