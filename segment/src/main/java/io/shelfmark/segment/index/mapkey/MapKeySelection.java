package io.shelfmark.segment.index.mapkey;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Which keys of a MAP column become virtual columns: a fixed list, or every key present in at least
 * a share of a segment's rows. Mirrors the table config's {@code map-keys.<column>} (the index
 * builder translates one into the other), so this module needs no config dependency.
 */
public sealed interface MapKeySelection {
  /** The keys listed in the config, extracted in every segment even when absent (all null). */
  record Listed(List<String> keys) implements MapKeySelection {
    public Listed {
      keys = ImmutableList.copyOf(requireNonNull(keys, "keys is null"));
      if (keys.isEmpty()) {
        throw new IllegalArgumentException(
            "Cannot extract an empty list of map keys (name at least one key)");
      }
      Set<String> seen = new HashSet<>();
      for (String key : keys) {
        if (!seen.add(key)) {
          throw new IllegalArgumentException(
              "Cannot extract map keys " + keys + ": key " + key + " repeated");
        }
      }
    }
  }

  /**
   * Every key present in at least {@code minShare} of the segment's rows.
   *
   * @param minShare in (0, 1]
   */
  record Auto(double minShare) implements MapKeySelection {
    public Auto {
      if (!(minShare > 0 && minShare <= 1)) {
        throw new IllegalArgumentException(
            "Cannot select map keys by min share "
                + minShare
                + " (expected above 0 and at most 1)");
      }
    }
  }

  static Listed listed(String... keys) {
    return new Listed(List.of(keys));
  }

  static Auto auto(double minShare) {
    return new Auto(minShare);
  }
}
