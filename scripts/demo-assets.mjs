// Writes the glTF binary the spinning-mesh demo loads (demos/spinning-mesh/torus.glb) from the torus
// the shipped effects use (effects/meshes/torus.json), with glTF-Transform — the same library the
// demo reads it with. The file is textured as a glTF model usually is: the ring's vertices are
// repeated along its two seams (so each has one texture coordinate), TEXCOORD_0 wraps a painted
// band texture four times around the ring, and the material's base colour texture is a PNG
// (encoded with pngjs) inside the .glb. Run after changing the torus: `node scripts/demo-assets.mjs`;
// the .glb is committed.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Document, NodeIO } from '@gltf-transform/core';
import { PNG } from 'pngjs';
import { ROOT } from './setup.mjs';

const torus = JSON.parse(readFileSync(path.join(ROOT, 'effects/meshes/torus.json'), 'utf8'));
// torus.json: vertex i · TUBE + j is step i around the ring, step j around the tube
const [AROUND, TUBE] = [32, 12];
if (torus.positions.length !== 3 * AROUND * TUBE)
  throw new Error(`effects/meshes/torus.json: expected ${AROUND} × ${TUBE} vertices`);
const positions = [];
const uvs = [];
for (let i = 0; i <= AROUND; i++)
  for (let j = 0; j <= TUBE; j++) {
    const k = (i % AROUND) * TUBE + (j % TUBE);
    positions.push(...torus.positions.slice(3 * k, 3 * k + 3));
    uvs.push((4 * i) / AROUND, j / TUBE);
  }
const indices = [];
const at = (i, j) => i * (TUBE + 1) + j;
for (let i = 0; i < AROUND; i++)
  for (let j = 0; j < TUBE; j++)
    indices.push(
      at(i, j),
      at(i + 1, j),
      at(i + 1, j + 1),
      at(i, j),
      at(i + 1, j + 1),
      at(i, j + 1),
    );

// the base colour: bands across u (white-hot and cobalt), darker towards the tube's inside
const png = new PNG({ width: 64, height: 16 });
for (let y = 0; y < 16; y++)
  for (let x = 0; x < 64; x++) {
    const hot = Math.floor(x / 16) % 2 === 0;
    const shade = 0.55 + 0.45 * Math.cos((2 * Math.PI * (y + 0.5)) / 16);
    const rgb = hot ? [255, 244, 214] : [40, 90, 255];
    const o = 4 * (y * 64 + x);
    rgb.forEach((c, ch) => (png.data[o + ch] = Math.round(c * (0.5 + 0.5 * shade))));
    png.data[o + 3] = 255;
  }

const doc = new Document();
const buffer = doc.createBuffer();
const accessor = (name, type, array) =>
  doc.createAccessor(name).setType(type).setArray(array).setBuffer(buffer);
const texture = doc
  .createTexture('bands')
  .setImage(new Uint8Array(PNG.sync.write(png)))
  .setMimeType('image/png');
const material = doc.createMaterial('painted').setBaseColorTexture(texture);
const primitive = doc
  .createPrimitive()
  .setAttribute('POSITION', accessor('POSITION', 'VEC3', new Float32Array(positions)))
  .setAttribute('TEXCOORD_0', accessor('TEXCOORD_0', 'VEC2', new Float32Array(uvs)))
  .setIndices(accessor('indices', 'SCALAR', new Uint16Array(indices)))
  .setMaterial(material);
const mesh = doc.createMesh('torus').addPrimitive(primitive);
const node = doc.createNode('torus').setMesh(mesh);
doc.createScene('scene').addChild(node);
const out = path.join(ROOT, 'demos/spinning-mesh/torus.glb');
await new NodeIO().write(out, doc);
console.log(`wrote ${path.relative(ROOT, out)}`);
