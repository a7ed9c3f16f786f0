// Installs what `npm start`, `npm test` and `npm run bench` need, on a fresh clone of a fresh
// Debian machine: npm packages (when node_modules is missing or stale) and a Chromium (Debian's
// package via apt-get) when no browser is found. Prints the fix when it cannot.
// Run directly: `node scripts/setup.mjs [--npm-only]`; imported: `await ensureSetup()`.
import { execSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * True when these scripts run from an installed package (node_modules/ignis-rhi, for `npx
 * ignis-check`): no sources, the library is dist/, and the user's project installs the packages.
 */
export const INSTALLED = !existsSync(path.join(ROOT, 'src', 'index.ts'));

/** What the scene kit loads from the user's project when installed (optional peer dependencies). */
const KIT_PEERS = ['vite', 'puppeteer-core', 'pngjs'];

const BROWSER_CANDIDATES = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
];

let failCode = 1;

/** The exit code setup fails with (the scene kit's CLIs promise 2 for an error, 1 for a mismatch). */
export function setupFailsWith(code) {
  failCode = code;
}

function fail(message, fix) {
  console.error(`\nignis setup: ${message}\n  fix: ${fix}\n`);
  process.exit(failCode);
}

function run(cmd, args, what) {
  console.log(`ignis setup: ${what}: ${cmd} ${args.join(' ')}`);
  const r = spawnSync(cmd, args, {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, PUPPETEER_SKIP_DOWNLOAD: '1' },
  });
  return r.status === 0;
}

export function ensureNodeModules() {
  const lock = path.join(ROOT, 'package-lock.json');
  const marker = path.join(ROOT, 'node_modules', '.package-lock.json');
  const fresh =
    existsSync(marker) && existsSync(lock) && statSync(marker).mtimeMs >= statSync(lock).mtimeMs;
  if (fresh && existsSync(path.join(ROOT, 'node_modules', 'vitest'))) return;
  const [major, minor] = process.versions.node.split('.').map(Number);
  if (major < 20 || (major === 20 && minor < 19))
    fail(`Node ${process.versions.node} is too old`, 'install Node 20.19 or newer');
  const ok = existsSync(lock)
    ? run('npm', ['ci', '--no-audit', '--no-fund'], 'installing npm packages')
    : run('npm', ['install', '--no-audit', '--no-fund'], 'installing npm packages');
  if (!ok)
    fail(
      'npm could not install the packages',
      'check that the npm registry is reachable (npm ping), then run npm ci',
    );
}

export function isDebian() {
  try {
    return /debian|ubuntu/i.test(readFileSync('/etc/os-release', 'utf8'));
  } catch {
    return false;
  }
}

/** The browser to drive: $CHROME_PATH, else a system Chromium/Chrome, else Debian's chromium installed now. */
export function ensureBrowser() {
  const fromEnv = process.env.CHROME_PATH;
  if (fromEnv) {
    if (existsSync(fromEnv)) return fromEnv;
    fail(
      `CHROME_PATH=${fromEnv} does not exist`,
      'point CHROME_PATH at a Chromium or Chrome binary, or unset it',
    );
  }
  const found = BROWSER_CANDIDATES.find((p) => existsSync(p));
  if (found) return found;
  if (!isDebian())
    fail(
      'no Chromium found and this is not Debian',
      'install Chromium and set CHROME_PATH=/path/to/chromium',
    );
  if (typeof process.getuid === 'function' && process.getuid() !== 0) {
    fail(
      'no Chromium found and not running as root, so apt-get cannot install it',
      'run: sudo apt-get update && sudo apt-get install -y chromium   (or set CHROME_PATH)',
    );
  }
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  console.log(
    'ignis setup: installing Debian chromium (apt-get update && apt-get install -y chromium)',
  );
  const up = spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  const inst =
    up.status === 0 &&
    spawnSync('apt-get', ['install', '-y', '-qq', 'chromium'], { stdio: 'inherit', env }).status ===
      0;
  if (!inst)
    fail(
      'apt-get could not install chromium',
      "check that Debian's package mirrors are reachable, then run: apt-get update && apt-get install -y chromium",
    );
  const installed = BROWSER_CANDIDATES.find((p) => existsSync(p));
  if (!installed)
    fail('chromium installed but no binary found', 'set CHROME_PATH to the chromium binary');
  return installed;
}

export function browserVersion(executable) {
  try {
    return execSync(`"${executable}" --version`, { encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
}

/** `word` quoted for a POSIX shell where it holds more than a package spec's characters (a range with `||`). */
function shellWord(word) {
  return /^[\w@^~.\-/:=]+$/.test(word) ? word : `'${word}'`;
}

/** Installed mode: the kit's peer dependencies (`peers`) must resolve from the user's project. */
export function ensureKitPeers(peers = KIT_PEERS) {
  const missing = peers.filter((name) => {
    try {
      import.meta.resolve(name);
      return false;
    } catch {
      return true;
    }
  });
  if (missing.length === 0) return;
  const { peerDependencies = {} } = JSON.parse(
    readFileSync(path.join(ROOT, 'package.json'), 'utf8'),
  );
  fail(
    `the scene kit (ignis-check, ignis-bench) needs ${missing.join(', ')}, which your project does not have`,
    `npm install --save-dev ${missing.map((m) => shellWord(`${m}@${peerDependencies[m] ?? 'latest'}`)).join(' ')}`,
  );
}

/**
 * In the repository: npm packages, then (unless `npmOnly`) a browser. Installed: the kit's `peers`
 * (default: all of them), then the browser.
 */
export function ensureSetup({ npmOnly = false, peers = KIT_PEERS } = {}) {
  if (INSTALLED) ensureKitPeers(peers);
  else ensureNodeModules();
  if (npmOnly) return null;
  const browser = ensureBrowser();
  process.env.CHROME_PATH = browser;
  return browser;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const browser = ensureSetup({ npmOnly: process.argv.includes('--npm-only') });
  if (browser) console.log(`ignis setup: browser ${browser}`);
}
