/**
 * The ranges of integer formats (`int8` to `uint64`), which generated numbers keep to.
 */
import { own } from './helpers.js';

/** The values of each integer format with a range narrower than JavaScript's exact integers (int64 is handled apart). */
export const INT_FORMATS: Record<string, [number, number]> = {
  int8: [-128, 127], uint8: [0, 255], int16: [-32768, 32767], uint16: [0, 65535],
  int32: [-(2 ** 31), 2 ** 31 - 1], uint32: [0, 2 ** 32 - 1], uint64: [0, Number.MAX_SAFE_INTEGER],
};

/** The values an integer format allows (`int32`: -2^31 to 2^31 - 1; `int64`: the exact integers), or undefined for another format. */
export function integerFormatRange(format: unknown): [number, number] | undefined {
  if (format === 'int64') return [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER];
  return typeof format === 'string' ? own(INT_FORMATS, format) : undefined;
}
