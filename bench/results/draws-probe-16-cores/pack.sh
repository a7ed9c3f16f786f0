#!/bin/bash
# Packs this machine's Chromium, the libraries it needs, Node and the npm packages the draws probe
# and the suite import into three parts under .chr/ (ignored: add /.chr/ to .git/info/exclude), each
# small enough to carry in one device call beside the working tree. Carry .chr/p0, then .chr/p1, then
# .chr/p2 with run.sh to one warm machine (each call copies its part to /root/p).
set -e
cd "$(git rev-parse --show-toplevel)"
W=/tmp/chr && rm -rf $W && mkdir -p $W/rest/bin $W/rest/lib .chr
tar -C /usr/lib -cf - chromium --exclude=chromium/libVkLayer_khronos_validation.so \
  --exclude='chromium/locales/[a-df-z]*' | xz -T0 -6 > $W/chromium.tar.xz
# the shared libraries ldd names (glibc's own left to the machine), NSS's modules with them
for b in /usr/lib/chromium/chromium /usr/lib/chromium/libvk_swiftshader.so \
  /usr/lib/chromium/chrome_crashpad_handler /usr/lib/x86_64-linux-gnu/libsoftokn3.so \
  /usr/lib/x86_64-linux-gnu/libfreeblpriv3.so /usr/lib/x86_64-linux-gnu/libnssckbi.so; do
  ldd $b | awk '/=> \//{print $3}'; echo $b
done | sort -u | grep -v -E "/(libc|libm|libdl|libpthread|librt|ld-linux-x86-64|libresolv|libutil)\.so" \
  | grep -v /usr/lib/chromium/ | xargs -I{} cp -L {} $W/rest/lib/
cp "$(command -v node)" $W/rest/bin/
# the packages' dependency closure (three.js: its build only)
node --input-type=module -e '
import { readFileSync, existsSync } from "node:fs"; import path from "node:path";
const root = process.cwd(), seen = new Set();
const find = (n, from) => { for (let d = from; d.startsWith(root); d = path.dirname(d)) {
  const p = path.join(d, "node_modules", n); if (existsSync(path.join(p, "package.json"))) return p; } return null; };
const walk = (p) => { if (!p || seen.has(p)) return; seen.add(p);
  const j = JSON.parse(readFileSync(path.join(p, "package.json"), "utf8"));
  for (const d of Object.keys({ ...j.dependencies, ...j.optionalDependencies, ...j.peerDependencies })) walk(find(d, p)); };
for (const n of ["puppeteer-core", "vite", "three", "wgpu-matrix", "wgsl_reflect", "fast-png", "pngjs",
  "ajv", "@gltf-transform/core", "es-module-lexer", "typescript"]) walk(find(n, root));
for (const p of [...seen].sort()) console.log(path.relative(root, p) === "node_modules/three"
  ? "node_modules/three/package.json\nnode_modules/three/build" : path.relative(root, p));
' > $W/modules.txt
tar -cf - -T $W/modules.txt | tar -C $W/rest -xf -
tar -C $W -cf - rest | xz -T0 -6 > $W/rest.tar.xz
tar -cf - -T /dev/null | xz > $W/extra.tar.xz # (run.sh unpacks it: the first pack carried the later modules apart)
tar -C $W -cf $W/bundle.tar chromium.tar.xz rest.tar.xz extra.tar.xz
rm -f .chr/p? && split -n 3 -d -a 1 $W/bundle.tar .chr/p && ls -la .chr
