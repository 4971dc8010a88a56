package io.shelfmark.config.table;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One dimension of a star-tree ({@code star-trees[i].dimensions}): a plain column ({@code metric}),
 * an extracted map key ({@code dimensions['service']}) or a time bucket of a timestamp column
 * ({@code dateTrunc('minute', logical_timestamp)}). {@link #text()} is the canonical form, which
 * segments store and servers match against a query's expressions.
 */
public sealed interface StarTreeDimensionConfig {
  /** The time units a bucket may have: fixed widths, so that a range maps to whole buckets. */
  enum TimeUnit {
    SECOND,
    MINUTE,
    HOUR,
    DAY;

    public String configName() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** The column the dimension reads. */
  String column();

  /** The canonical form, as the config writes it. */
  String text();

  record Column(String column) implements StarTreeDimensionConfig {
    public Column {
      requireNonNull(column, "column is null");
    }

    @Override
    public String text() {
      return column;
    }
  }

  record MapKey(String column, String key) implements StarTreeDimensionConfig {
    public MapKey {
      requireNonNull(column, "column is null");
      requireNonNull(key, "key is null");
      checkArgument(key.indexOf('\'') < 0, "Cannot use map key %s: it contains a quote", key);
    }

    @Override
    public String text() {
      return column + "['" + key + "']";
    }
  }

  record TimeBucket(TimeUnit unit, String column) implements StarTreeDimensionConfig {
    public TimeBucket {
      requireNonNull(unit, "unit is null");
      requireNonNull(column, "column is null");
    }

    @Override
    public String text() {
      return "dateTrunc('" + unit.configName() + "', " + column + ")";
    }
  }

  Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
  Pattern MAP_KEY = Pattern.compile("([A-Za-z_][A-Za-z0-9_]*)\\s*\\[\\s*'([^']+)'\\s*]");
  Pattern TIME_BUCKET =
      Pattern.compile(
          "(?i:date_?trunc)\\s*\\(\\s*'([A-Za-z]+)'\\s*,\\s*([A-Za-z_][A-Za-z0-9_]*)\\s*\\)");

  /**
   * Parses the text of a dimension; empty when it is none of the three forms. A time bucket of an
   * unsupported unit parses to empty too: the caller names the allowed units.
   */
  static Optional<StarTreeDimensionConfig> parse(String text) {
    String trimmed = text.strip();
    if (NAME.matcher(trimmed).matches()) {
      return Optional.of(new Column(trimmed));
    }
    Matcher map = MAP_KEY.matcher(trimmed);
    if (map.matches()) {
      return Optional.of(new MapKey(map.group(1), map.group(2)));
    }
    Matcher time = TIME_BUCKET.matcher(trimmed);
    if (time.matches()) {
      for (TimeUnit unit : TimeUnit.values()) {
        if (unit.configName().equalsIgnoreCase(time.group(1))) {
          return Optional.of(new TimeBucket(unit, time.group(2)));
        }
      }
    }
    return Optional.empty();
  }
}
