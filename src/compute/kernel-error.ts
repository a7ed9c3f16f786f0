/** A kernel that cannot be translated or run: named by the kernel's label. */
export class KernelError extends Error {
  constructor(label: string, message: string) {
    super(`[${label}] ${message}`);
    this.name = 'KernelError';
  }
}
