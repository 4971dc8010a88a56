package io.shelfmark.config.table;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Which keys of a MAP column become virtual columns ({@code map-keys.<column>}): either a fixed
 * list ({@code keys: [node, service]}) or every key found in at least a share of rows while a
 * segment is built ({@code auto: true, min-share: 0.2}).
 */
public sealed interface MapKeySelection {
  /** The default {@code min-share} for automatic selection. */
  double DEFAULT_MIN_SHARE = 0.2;

  /**
   * The keys named in the config.
   *
   * @param keys the map keys to extract, in config order, distinct and never empty
   */
  record Listed(List<String> keys) implements MapKeySelection {
    public Listed {
      keys = ImmutableList.copyOf(requireNonNull(keys, "keys is null"));
      checkArgument(!keys.isEmpty(), "Cannot use map keys: empty list (name at least one key)");
      Set<String> seen = new HashSet<>();
      for (String key : keys) {
        checkArgument(seen.add(key), "Cannot use map keys: %s (key %s repeated)", keys, key);
      }
    }
  }

  /**
   * Every key present in at least {@code minShare} of a data file's rows, decided per segment.
   *
   * @param minShare the share of rows, in (0, 1]
   */
  record Auto(double minShare) implements MapKeySelection {
    public Auto {
      checkArgument(
          minShare > 0 && minShare <= 1,
          "Cannot use min-share: %s (expected a number above 0 and at most 1)",
          minShare);
    }
  }
}
