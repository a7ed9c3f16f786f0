// Global setup of the GPU tier: one headless Chromium and one Vite server for every test file.
import type { TestProject } from 'vitest/node';
// @ts-expect-error plain ESM script without types
import { launchBrowser, startServer } from '../../scripts/browser.mjs';

declare module 'vitest' {
  export interface ProvidedContext {
    wsEndpoint: string;
    baseUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const { browser } = await launchBrowser();
  const { server, url } = await startServer();
  project.provide('wsEndpoint', browser.wsEndpoint());
  project.provide('baseUrl', url);
  return async () => {
    await browser.close();
    await server.close();
  };
}
