// The unit tests' two checks: equal as JSON, and a call that must throw.

export function eq<T>(actual: T, expected: T, what: string): void {
  const a = JSON.stringify(actual);
  const e = JSON.stringify(expected);
  if (a !== e) throw new Error(`${what}: got ${a}, want ${e}`);
}

export function throws(f: () => unknown, what: string): void {
  try {
    f();
  } catch {
    return;
  }
  throw new Error(`${what}: did not throw`);
}
