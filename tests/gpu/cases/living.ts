// Draws of the living only (options.compact): the list the GPU makes after each update holds the
// living slots in slot order, its count is the state's, and a draw of the list gives the pixels of
// a draw of every slot in each draw mode (instanced, pulled, splat, sorted) on each path that keeps
// the state in storage buffers. WebGL2 culls in the vertex stage; compact: true there is an error.
import {
  ParticleOptionError,
  ValidationError,
  createParticleSystem,
  type Device,
  type ParticleOptionsInput,
  type ParticleSystem,
} from '../../../src/all.js';
import { defineCases } from '../page/case.js';
import { assert, assertEqual, assertThrows } from '../page/assert.js';
import { CAMERA, drawImage, imageDiff, stepped } from '../page/particle-helpers.js';

/** Short lives at a steady rate: about a third of the slots alive, scattered over the ring. */
const SPARSE: ParticleOptionsInput = {
  count: 600,
  seed: 11,
  emitRate: 120,
  lifeMin: 0.3,
  lifeMax: 2.5,
  emitter: { shape: 'sphere', position: [0, -2, 0], radius: 1.5, angle: 0 },
  speedMin: 0.5,
  speedMax: 2,
  spread: 1,
  gravity: [0, -1, 0],
  size: 0.35,
};

/** The paths of `device` whose state is in storage buffers (where a system can compact). */
function bufferPaths(device: Device): Array<'compute' | 'cpu'> {
  return device.caps.features.compute ? ['compute', 'cpu'] : [];
}

/** The living slots of `ps`'s state by the draw's rule (life > 0), read back in full. */
async function livingOf(ps: ParticleSystem): Promise<number[]> {
  const { velocity } = await ps.read();
  const slots: number[] = [];
  for (let i = 0; i < ps.count; i++) if ((velocity[4 * i + 3] as number) > 0) slots.push(i);
  return slots;
}

export const cases = defineCases({
  'the living list holds the living slots in slot order, its count the state’s, every step, past the one-group-per-thread size of the scan':
    {
      needs: ['compute', 'indirect'],
      async run({ device }) {
        for (const path of bufferPaths(device)) {
          // 300,000 slots: 4,688 chunks of 64 in 74 groups of 64 chunks, so the one workgroup
          // that scans the groups gives some of its 64 threads two groups each
          const ps = await createParticleSystem(device, {
            ...SPARSE,
            count: 300_000,
            // 100,000 a step: the ring wraps on the fourth, lives of 0.3–2.5 s leave gaps everywhere
            emitRate: 400_000,
            path,
            drawMode: 'instanced',
          });
          assertEqual(ps.compacted, true, `${path}: compact 'auto' with emission compacts`);
          let sawSome = false;
          for (let step = 0; step < 4; step++) {
            const enc = device.createCommandEncoder();
            ps.update(enc, 0.25);
            device.queue.submit([enc.finish()]);
            const expected = await livingOf(ps);
            const slots = Array.from(await ps.livingSlots());
            const count = await ps.livingCount();
            assertEqual(count, expected.length, `${path} step ${step}: livingCount`);
            assertEqual(slots.length, expected.length, `${path} step ${step}: list length`);
            const first = slots.findIndex((s, i) => s !== expected[i]);
            assert(
              first < 0,
              `${path} step ${step}: entry ${first} is slot ${slots[first]}, the state's living slot there is ${expected[first]}`,
            );
            if (expected.length > 0 && (expected.at(-1) as number) >= 64 * 64 * 64) sawSome = true;
          }
          assert(sawSome, `${path}: some steps had living slots in the groups past the 64th`);
          ps.destroy();
        }
      },
    },
  'a draw of the living list gives the pixels of a draw of every slot: instanced, pulled, splat, sorted; before the first update it draws every slot':
    {
      needs: ['compute', 'indirect'],
      async run({ device }) {
        const looks: Array<{ name: string; options: ParticleOptionsInput }> = [
          { name: 'instanced', options: { drawMode: 'instanced' } },
          { name: 'pulled', options: { drawMode: 'pulled' } },
          { name: 'splat', options: { drawMode: 'splat' } },
          {
            name: 'sorted (alpha)',
            options: { drawMode: 'pulled', blending: 'alpha', sort: true },
          },
        ];
        for (const path of bufferPaths(device))
          for (const look of looks) {
            const options = { ...SPARSE, path, ...look.options };
            const all = await stepped(device, { ...options, compact: false }, 40);
            const living = await stepped(device, { ...options, compact: true }, 40);
            assertEqual(all.compacted, false, 'compact: false draws every slot');
            assertEqual(living.compacted, true, 'compact: true');
            const n = await living.livingCount();
            assert(n > 50 && n < SPARSE.count! - 50, `${path} ${look.name}: ${n} of 600 alive`);
            const a = await drawImage(device, all);
            const b = await drawImage(device, living);
            const { differ, worst } = imageDiff(a, b, 0);
            assertEqual(
              differ,
              0,
              `${path} ${look.name}: pixels differing (worst ${worst}) between every slot and the living`,
            );
            let lit = 0;
            for (let p = 0; p < b.length; p += 4) if ((b[p] as number) > 0) lit++;
            assert(lit > 100, `${path} ${look.name}: the particles are drawn (${lit} pixels lit)`);
            all.destroy();
            living.destroy();
          }
        // before any update the list is not made yet: the first frame draws the seeded state
        const seeded: ParticleOptionsInput = {
          ...SPARSE,
          bursts: [{ time: 0, count: 200 }],
          emitRate: null,
          drawMode: 'pulled',
        };
        const fresh = await createParticleSystem(device, { ...seeded, compact: true });
        const freshAll = await createParticleSystem(device, { ...seeded, compact: false });
        const img = await drawImage(device, fresh);
        const imgAll = await drawImage(device, freshAll);
        assertEqual(imageDiff(img, imgAll, 0).differ, 0, 'before an update: every slot drawn');
        freshAll.destroy();
        await assertThrows(
          () => fresh.livingSlots(),
          ValidationError,
          /livingSlots\(\) before the first update/,
          'no list before an update',
        );
        fresh.destroy();
      },
    },
  'a sorted system sorts its living only: the order is the living back to front, stages past them skipped':
    {
      needs: ['compute', 'indirect'],
      async run({ device }) {
        // ~3,000 alive of 20,000 slots: 4,096 entries sorted of 32,768, five stages skipped
        const ps = await stepped(
          device,
          {
            ...SPARSE,
            count: 20_000,
            emitRate: 4_000,
            lifeMin: 0.5,
            lifeMax: 1,
            path: 'compute',
            drawMode: 'pulled',
            blending: 'alpha',
            sort: true,
          },
          60,
        );
        assertEqual(ps.compacted, true, 'compacted');
        await drawImage(device, ps); // prepareDraw sorts from CAMERA
        const order = await ps.sortOrder();
        const { position, velocity } = await ps.read();
        const v = CAMERA.view;
        const depth = (i: number): number =>
          Math.fround(
            Math.fround(
              Math.fround(v[2]! * position[4 * i]!) +
                Math.fround(v[6]! * position[4 * i + 1]!) +
                Math.fround(v[10]! * position[4 * i + 2]!),
            ) + v[14]!,
          );
        const living: number[] = [];
        for (let i = 0; i < ps.count; i++) if ((velocity[4 * i + 3] as number) > 0) living.push(i);
        assert(living.length > 2048, `${living.length} alive: more than one stage below the total`);
        assertEqual(order.length, ps.count, 'every slot once');
        const seen = new Set<number>(order.slice(0, living.length));
        assertEqual(seen.size, living.length, 'the first entries are distinct');
        for (const slot of living) assert(seen.has(slot), `living slot ${slot} among the first`);
        let inversions = 0;
        for (let i = 1; i < living.length; i++) {
          const a = depth(order[i - 1]!);
          const b = depth(order[i]!);
          if (a - b > 1e-5 * Math.abs(a)) inversions++;
        }
        assertEqual(inversions, 0, 'the living back to front (ascending view depth)');
        ps.destroy();
      },
    },
  'compact: the option is checked, auto compacts emitting systems only, and true where the device cannot is an error naming why':
    {
      async run({ device }) {
        await assertThrows(
          () => createParticleSystem(device, { ...SPARSE, compact: 'yes' as never }),
          ParticleOptionError,
          /compact.*must be 'auto', true or false/,
          'a bad value',
        );
        const continuous = await createParticleSystem(device, { count: 64, drawMode: 'pulled' });
        assertEqual(continuous.compacted, false, 'continuous: every slot is alive, no list');
        assertEqual(await continuous.livingCount(), 64, 'continuous: all 64 living');
        await assertThrows(
          () => continuous.livingSlots(),
          ValidationError,
          /livingSlots\(\) needs a system that compacts/,
          'no list',
        );
        continuous.destroy();
        if (device.caps.features.indirect) {
          const emitting = await createParticleSystem(device, { ...SPARSE, drawMode: 'pulled' });
          assertEqual(emitting.compacted, emitting.path !== 'pingpong', 'auto with emission');
          emitting.destroy();
          return;
        }
        await assertThrows(
          () => createParticleSystem(device, { ...SPARSE, compact: true }),
          ParticleOptionError,
          /compact.*needs indirect draws, which webgl2 lacks/,
          'compact: true on WebGL2',
        );
        const auto = await createParticleSystem(device, { ...SPARSE, drawMode: 'pulled' });
        assertEqual(auto.compacted, false, "WebGL2: 'auto' culls in the vertex stage");
        auto.destroy();
      },
    },
});
