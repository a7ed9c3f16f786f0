#!/bin/bash
# Chromium's draws probe on the device machine's CPUs (SwiftShader; the GPU is not used).
REPO=$PWD
exec > >(tee $OUT/log.txt) 2>&1
mkdir -p /root/p && [ -f .chr/p2 ] && cp .chr/p2 /root/p/
ls -la /root/p; cat /root/p/p0 /root/p/p1 /root/p/p2 | md5sum
( nproc; lscpu | grep -E "Model name|^CPU\(s\)|MHz"; cat /etc/os-release | head -2; ldd --version | head -1; df -h /dev/shm; free -g; uname -a ) > $OUT/env.txt 2>&1
cat $OUT/env.txt
unxz_() { if command -v xz >/dev/null; then xz -dc "$1"; else python3 -c 'import lzma,sys,shutil; shutil.copyfileobj(lzma.open(sys.argv[1]), sys.stdout.buffer)' "$1"; fi; }
mkdir -p /root/x && cd /root/x && cat /root/p/p0 /root/p/p1 /root/p/p2 | tar -xf - || exit 1
unxz_ chromium.tar.xz | tar -xf - && unxz_ rest.tar.xz | tar -xf - && rm -rf $REPO/node_modules && mv rest/node_modules $REPO/ && unxz_ /root/x/extra.tar.xz | tar -C $REPO -xf - || exit 1
cd $REPO && touch node_modules/.package-lock.json && mkdir -p node_modules/vitest
export PATH=/root/x/rest/bin:$PATH LD_LIBRARY_PATH=/root/x/rest/lib CHROME_PATH=/root/x/chromium/chromium
ldd $CHROME_PATH | grep "not found"; node --version
timeout 60 $CHROME_PATH --headless --no-sandbox --disable-gpu --dump-dom 'data:text/html,<p>ok</p>' 2>&1 | tail -5
date; timeout 330 node bench/cpu-probe-draws.mjs --backend webgl2 --draws 1000,10000 --rounds 15 --repeat 2 --aa --split 2>&1 | tee $OUT/probe-webgl2.txt
date; timeout 200 node bench/main.mjs --suites draws --draw-counts 1000,10000 --repeat 1 --out /root/suite 2>&1 | tail -30
cp /root/suite/latest.md $OUT/suite-latest.md; cp /root/suite/latest.json $OUT/suite-latest.json; date
