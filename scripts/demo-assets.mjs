// Writes the glTF binary the spinning-mesh demo loads (demos/spinning-mesh/torus.glb) from the torus
// the shipped effects use (effects/meshes/torus.json), with glTF-Transform — the same library the
// demo reads it with. Run after changing the torus: `node scripts/demo-assets.mjs`; the .glb is
// committed.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Document, NodeIO } from '@gltf-transform/core';
import { ROOT } from './setup.mjs';

const torus = JSON.parse(readFileSync(path.join(ROOT, 'effects/meshes/torus.json'), 'utf8'));
const doc = new Document();
const buffer = doc.createBuffer();
const position = doc
  .createAccessor('POSITION')
  .setType('VEC3')
  .setArray(new Float32Array(torus.positions))
  .setBuffer(buffer);
const indices = doc
  .createAccessor('indices')
  .setType('SCALAR')
  .setArray(new Uint16Array(torus.indices))
  .setBuffer(buffer);
const primitive = doc.createPrimitive().setAttribute('POSITION', position).setIndices(indices);
const mesh = doc.createMesh('torus').addPrimitive(primitive);
const node = doc.createNode('torus').setMesh(mesh);
doc.createScene('scene').addChild(node);
const out = path.join(ROOT, 'demos/spinning-mesh/torus.glb');
await new NodeIO().write(out, doc);
console.log(`wrote ${path.relative(ROOT, out)}`);
