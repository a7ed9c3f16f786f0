// The README's first command on a fresh clone: a copy of the working tree without node_modules,
// where `npm start` is the first thing run (regression: it failed with ERR_MODULE_NOT_FOUND:
// puppeteer-core until `npm test` had installed the packages). Runs a small scenario; the output
// must be the compact table with the hardware named, and the files it promises must exist.
import { describe, expect, it } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');

/** Tracked and untracked-but-not-ignored files: what `git clone` of this working tree would hold. */
function copyWorkingTree(to: string): void {
  const files = execFileSync(
    'git',
    ['ls-files', '-z', '--cached', '--others', '--exclude-standard'],
    { cwd: ROOT, encoding: 'utf8' },
  )
    .split('\0')
    .filter((f) => f && existsSync(path.join(ROOT, f)));
  for (const f of files) {
    mkdirSync(path.dirname(path.join(to, f)), { recursive: true });
    copyFileSync(path.join(ROOT, f), path.join(to, f));
  }
}

describe('a fresh clone', () => {
  it(
    'runs `npm start` first: installs the packages itself, prints the table, writes results and screenshots',
    { timeout: 600_000 },
    () => {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'ignis-fresh-'));
      try {
        copyWorkingTree(dir);
        expect(existsSync(path.join(dir, 'node_modules'))).toBe(false);
        // a newcomer's shell: no npm_* variables inherited from the `npm test` running this
        const env = Object.fromEntries(
          Object.entries(process.env).filter(([k]) => !k.toLowerCase().startsWith('npm_')),
        );
        const args = [
          'start',
          '--',
          '--counts',
          '1000',
          '--frames',
          '3',
          '--warmup',
          '1',
          '--preroll',
          '3',
          '--size',
          '320x180',
          '--frame-counts',
          '1000',
          '--out',
          'out',
        ];
        const r = spawnSync('npm', args, { cwd: dir, env, encoding: 'utf8', timeout: 540_000 });
        const output = `${r.stdout}\n${r.stderr}`;
        expect(r.status, output).toBe(0);
        expect(output).not.toMatch(/ERR_MODULE_NOT_FOUND/);
        expect(output).toMatch(/ignis setup: installing npm packages/);
        expect(output).toMatch(
          /path\s+backend\s+draw\s+count\s+frame ms\s+GPU update ms\s+GPU draw ms\s+CPU ms/,
        );
        for (const p of ['compute', 'pingpong', 'cpu'])
          expect(output).toMatch(new RegExp(`^${p}\\s+webg`, 'm'));
        expect(output).toMatch(/software GPU/);
        // the post-processed frame on each backend
        expect(output).toMatch(
          /\| 1,000 particles \+ post \| compute\+compute@webgpu \| 320x180 \| \d/,
        );
        expect(output).toMatch(
          /\| 1,000 particles \+ post \| pingpong\+fragment@webgl2 \| 320x180 \| \d/,
        );
        for (const f of ['latest.md', 'latest.json', 'chart.svg'])
          expect(existsSync(path.join(dir, 'out', f)), `${f}\n${output}`).toBe(true);
        // the particle rows run through the scene kit: a screenshot per path in out/particles/
        const pngs = (d: string): string[] => readdirSync(d).filter((f) => f.endsWith('.png'));
        // the run's output with each: a missing screenshot says why in it
        expect(pngs(path.join(dir, 'out', 'particles')), output).toHaveLength(3);
        const shots = pngs(path.join(dir, 'out'));
        expect(shots, output).toHaveLength(2);
        expect(
          shots.filter((f) => f.startsWith('frame_')),
          output,
        ).toHaveLength(2);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});
