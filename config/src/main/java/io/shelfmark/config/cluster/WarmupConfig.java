package io.shelfmark.config.cluster;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import java.time.Duration;

/**
 * How a node warms itself up before it reports its first table ready ({@code server.warmup.*}): it
 * runs queries shaped after that table's indexes, a few rounds, so classes are loaded and the JIT
 * has compiled the query path before users' first queries; then it empties the caches those queries
 * filled, so the first user query still finds empty caches.
 *
 * @param rounds how many times the warm-up queries run; 0 turns warm-up off ({@code
 *     server.warmup.rounds})
 * @param maxDuration the longest warm-up; it stops after the round that passes it ({@code
 *     server.warmup.max-duration})
 */
public record WarmupConfig(int rounds, Duration maxDuration) {
  public static final int DEFAULT_ROUNDS = 20;
  public static final int MAX_ROUNDS = 1000;
  public static final Duration DEFAULT_MAX_DURATION = Duration.ofSeconds(30);
  public static final Duration MIN_MAX_DURATION = Duration.ofSeconds(1);

  public WarmupConfig {
    requireNonNull(maxDuration, "maxDuration is null");
    checkArgument(
        rounds >= 0 && rounds <= MAX_ROUNDS,
        "Cannot use server.warmup.rounds: %s (expected 0 to %s; 0 turns warm-up off)",
        rounds,
        MAX_ROUNDS);
    checkArgument(
        maxDuration.compareTo(MIN_MAX_DURATION) >= 0,
        "Cannot use server.warmup.max-duration: %s (expected at least 1s)",
        maxDuration);
  }

  /** The defaults: {@value #DEFAULT_ROUNDS} rounds, at most 30 seconds. */
  public static WarmupConfig defaults() {
    return new WarmupConfig(DEFAULT_ROUNDS, DEFAULT_MAX_DURATION);
  }

  /** No warm-up: the node reports tables ready as soon as their segments are. */
  public static WarmupConfig off() {
    return new WarmupConfig(0, DEFAULT_MAX_DURATION);
  }

  /** Whether the node warms up at all. */
  public boolean enabled() {
    return rounds > 0;
  }
}
