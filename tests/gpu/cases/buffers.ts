import { BufferUsage, DestroyedResourceError, UsageError } from '../../../src/all.js';
import { defineCases } from '../page/case.js';
import { assertArrayEqual, assertEqual, assertThrows } from '../page/assert.js';

function pattern(n: number, seed: number): Uint8Array {
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = (i * 31 + seed * 7) & 0xff;
  return out;
}

export const cases = defineCases({
  'buffer round trip through writeBuffer is byte-exact': {
    async run({ device }) {
      const data = pattern(4096, 1);
      const buffer = device.createBuffer({
        label: 'rt',
        size: data.byteLength,
        usage: BufferUsage.COPY_DST | BufferUsage.COPY_SRC,
      });
      device.queue.writeBuffer(buffer, 0, data);
      assertArrayEqual(new Uint8Array(await buffer.read()), data, 'whole buffer');
      device.queue.writeBuffer(buffer, 1024, pattern(256, 9));
      const part = new Uint8Array(await buffer.read(1024, 256));
      assertArrayEqual(part, pattern(256, 9), 'range read after partial write');
    },
  },
  'buffer round trip through mappedAtCreation is byte-exact': {
    async run({ device }) {
      const data = pattern(1024, 3);
      const buffer = device.createBuffer({
        label: 'mapped',
        size: 1024,
        usage: BufferUsage.COPY_SRC | BufferUsage.VERTEX,
        mappedAtCreation: true,
      });
      new Uint8Array(buffer.getMappedRange()).set(data);
      buffer.unmap();
      assertEqual(buffer.mapState, 'unmapped', 'mapState after unmap');
      assertArrayEqual(new Uint8Array(await buffer.read()), data, 'contents');
    },
  },
  'copyBufferToBuffer moves the exact range': {
    async run({ device }) {
      const a = device.createBuffer({
        label: 'a',
        size: 512,
        usage: BufferUsage.COPY_DST | BufferUsage.COPY_SRC,
      });
      const b = device.createBuffer({
        label: 'b',
        size: 512,
        usage: BufferUsage.COPY_DST | BufferUsage.COPY_SRC,
      });
      device.queue.writeBuffer(a, 0, pattern(512, 5));
      device.queue.writeBuffer(b, 0, new Uint8Array(512));
      const enc = device.createCommandEncoder({ label: 'copy' });
      enc.copyBufferToBuffer(a, 64, b, 128, 256);
      device.queue.submit([enc.finish()]);
      const out = new Uint8Array(await b.read());
      assertArrayEqual(out.subarray(128, 384), pattern(512, 5).subarray(64, 320), 'copied range');
      assertArrayEqual(out.subarray(0, 128), new Uint8Array(128), 'bytes before untouched');
      assertArrayEqual(out.subarray(384), new Uint8Array(128), 'bytes after untouched');
    },
  },
  'reading a buffer every frame never stalls and returns that frame’s value': {
    async run({ device }) {
      const buffer = device.createBuffer({
        label: 'frame',
        size: 16,
        usage: BufferUsage.COPY_DST | BufferUsage.COPY_SRC,
      });
      const reads: Promise<ArrayBuffer>[] = [];
      for (let frame = 0; frame < 30; frame++) {
        device.queue.writeBuffer(buffer, 0, new Uint32Array([frame, frame * 2, frame * 3, 7]));
        reads.push(buffer.read()); // issued without awaiting: the loop never waits on the GPU
      }
      const values = await Promise.all(reads);
      values.forEach((v, frame) =>
        assertArrayEqual(new Uint32Array(v), [frame, frame * 2, frame * 3, 7], `frame ${frame}`),
      );
    },
  },
  'a destroyed buffer and a buffer without COPY_SRC cannot be read': {
    async run({ device }) {
      const vertexOnly = device.createBuffer({
        label: 'vertex-only',
        size: 16,
        usage: BufferUsage.VERTEX,
      });
      await assertThrows(
        () => vertexOnly.read(),
        UsageError,
        /COPY_SRC.*VERTEX/,
        'read without COPY_SRC',
      );
      const gone = device.createBuffer({ label: 'gone', size: 16, usage: BufferUsage.COPY_SRC });
      gone.destroy();
      await assertThrows(
        () => gone.read(),
        DestroyedResourceError,
        /\[gone\] buffer used in read after destroy/,
        'read after destroy',
      );
    },
  },
  'resource counts return to baseline after destroy': {
    async run({ device }) {
      const before = device.stats();
      const buffers = [1024, 2048].map((size, i) =>
        device.createBuffer({
          label: `b${i}`,
          size,
          usage: BufferUsage.UNIFORM | BufferUsage.COPY_DST,
        }),
      );
      const texture = device.createTexture({
        label: 't',
        size: { width: 16, height: 8 },
        format: 'rgba8unorm',
        usage: 4,
      });
      const mid = device.stats();
      assertEqual(mid.buffer.count, before.buffer.count + 2, 'buffer count');
      assertEqual(mid.buffer.bytes, before.buffer.bytes + 3072, 'buffer bytes');
      assertEqual(mid.texture.bytes, before.texture.bytes + 16 * 8 * 4, 'texture bytes');
      buffers.forEach((b) => b.destroy());
      texture.destroy();
      texture.destroy(); // idempotent
      const after = device.stats();
      assertEqual(after.total.count, before.total.count, 'total count');
      assertEqual(after.total.bytes, before.total.bytes, 'total bytes');
    },
  },
});
