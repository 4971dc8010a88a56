package io.shelfmark.storage.s3;

import static java.util.Objects.requireNonNull;

import io.shelfmark.storage.spi.StorageStats;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttribute;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;

/**
 * Counts the SDK's retries: {@code beforeTransmission} runs once per attempt of one call, so every
 * attempt after the first is a retry. The SDK's retry strategy does the retrying; this only makes
 * it visible in {@link StorageStats}.
 */
final class RetryCounter implements ExecutionInterceptor {
  private static final ExecutionAttribute<Boolean> ATTEMPTED =
      new ExecutionAttribute<>("shelfmark.storage.attempted");

  private final StorageStats stats;

  RetryCounter(StorageStats stats) {
    this.stats = requireNonNull(stats, "stats is null");
  }

  @Override
  public void beforeTransmission(
      Context.BeforeTransmission context, ExecutionAttributes executionAttributes) {
    if (executionAttributes.getAttribute(ATTEMPTED) != null) {
      stats.recordRetry();
      // The synchronous client retries on the caller's thread: the query reading is told too.
      StorageStats.recordRetryOfCurrentCalls();
    } else {
      executionAttributes.putAttribute(ATTEMPTED, Boolean.TRUE);
    }
  }
}
