import { Tiktoken } from 'js-tiktoken/lite';
import cl100k from 'js-tiktoken/ranks/cl100k_base';

/**
 * Token counts for budgets. Anthropic's tokenizer is not public; cl100k_base is a close, stable stand-in
 * (within ~10% on code), and a budget only needs to be consistent, not exact. Loaded once, offline: the
 * ranks ship inside js-tiktoken.
 */
let enc: Tiktoken | undefined;

export function countTokens(text: string): number {
  enc ??= new Tiktoken(cl100k);
  // The encoder's cost grows with very long unbroken runs; long texts are counted in slices.
  if (text.length <= 100_000) return enc.encode(text).length;
  let n = 0;
  for (let i = 0; i < text.length; i += 100_000) n += enc.encode(text.slice(i, i + 100_000)).length;
  return n;
}
