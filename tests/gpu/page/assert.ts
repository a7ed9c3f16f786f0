// Small assertions for code that runs in the page; failures throw with the values in the message.
export class AssertionError extends Error {
  artifacts?: Record<string, string>;
  constructor(message: string) {
    super(message);
    this.name = 'AssertionError';
  }
}

export function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new AssertionError(message);
}

export function assertEqual<T>(actual: T, expected: T, what: string): void {
  if (actual !== expected)
    throw new AssertionError(`${what}: expected ${String(expected)}, got ${String(actual)}`);
}

export function assertArrayEqual(
  actual: ArrayLike<number>,
  expected: ArrayLike<number>,
  what: string,
): void {
  if (actual.length !== expected.length)
    throw new AssertionError(`${what}: length ${actual.length}, expected ${expected.length}`);
  for (let i = 0; i < actual.length; i++) {
    if (actual[i] !== expected[i])
      throw new AssertionError(`${what}: element ${i} is ${actual[i]}, expected ${expected[i]}`);
  }
}

export function assertClose(
  actual: number,
  expected: number,
  tolerance: number,
  what: string,
): void {
  if (!(Math.abs(actual - expected) <= tolerance))
    throw new AssertionError(`${what}: ${actual} is not within ${tolerance} of ${expected}`);
}

/** Runs `fn`, expects it to throw an instance of `type` whose message matches `pattern`. */
export async function assertThrows(
  fn: () => unknown,
  type: abstract new (...args: never[]) => Error,
  pattern: RegExp,
  what: string,
): Promise<Error> {
  try {
    await fn();
  } catch (e) {
    if (!(e instanceof type))
      throw new AssertionError(
        `${what}: threw ${(e as Error).name}: ${(e as Error).message}, expected ${type.name}`,
      );
    if (!pattern.test(e.message))
      throw new AssertionError(`${what}: message "${e.message}" does not match ${pattern}`);
    return e;
  }
  throw new AssertionError(`${what}: did not throw (expected ${type.name})`);
}
