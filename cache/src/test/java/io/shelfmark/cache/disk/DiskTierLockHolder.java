package io.shelfmark.cache.disk;

import io.shelfmark.cache.stats.StatsCounter;
import java.io.IOException;
import java.nio.file.Path;

/**
 * Run in a child JVM by {@link TestDiskTier}: opens a disk tier, says "locked" on stdout, holds the
 * directory until its stdin closes, then closes the tier.
 */
public final class DiskTierLockHolder {
  private DiskTierLockHolder() {}

  public static void main(String[] args) throws IOException {
    try (DiskTier tier =
        DiskTier.open(Path.of(args[0]), 1 << 20, Runnable::run, StatsCounter.disabled())) {
      System.out.println("locked " + tier.directory());
      System.out.flush();
      while (System.in.read() >= 0) {
        // Hold the lock until the parent closes our stdin.
      }
    }
  }
}
