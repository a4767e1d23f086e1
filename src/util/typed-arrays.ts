/** The typed arrays the in-process indexes grow. */
type Growable = Int32Array | Uint32Array | Uint16Array | Uint8Array | Float32Array;

/** A copy of `array` of `length` elements (the rest zero), of the same type. */
export function enlarged<T extends Growable>(array: T, length: number): T {
  const out = new (array.constructor as new (length: number) => T)(length);
  out.set(array);
  return out;
}
