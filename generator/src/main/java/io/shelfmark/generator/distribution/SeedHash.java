package io.shelfmark.generator.distribution;

/**
 * Derives independent 64-bit seeds from the user's seed and a few coordinates (an org, a day, a
 * time slice), so every piece of the table draws from its own random stream and the output does not
 * depend on which thread wrote which piece, or in which order.
 *
 * <p>The mixing function is SplitMix64's finalizer (Steele, Lea and Flood, "Fast splittable
 * pseudorandom number generators", 2014), applied after each coordinate is folded in; it is a
 * bijection with good avalanche, so neighbouring coordinates give unrelated streams.
 */
public final class SeedHash {
  private static final long GOLDEN_GAMMA = 0x9E3779B97F4A7C15L;

  private SeedHash() {}

  /** Mixes one value into a well-spread 64-bit hash. */
  public static long mix(long value) {
    long z = value + GOLDEN_GAMMA;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }

  /** A seed for stream {@code stream} of the user's {@code seed}. */
  public static long of(long seed, long stream) {
    return mix(mix(seed) ^ stream);
  }

  /** A seed for stream {@code stream} at coordinates {@code (a, b, c)}. */
  public static long of(long seed, long stream, long a, long b, long c) {
    long h = of(seed, stream);
    h = mix(h ^ a);
    h = mix(h ^ b);
    return mix(h ^ c);
  }
}
