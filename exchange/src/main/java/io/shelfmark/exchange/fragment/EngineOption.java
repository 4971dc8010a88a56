package io.shelfmark.exchange.fragment;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The engine's switches a query can set by name, to compare one execution path with another: in the
 * SQL text ({@code SET useStarTree = false;}, {@code OPTION(useStarTree=false)}), in an HTTP
 * request's {@code queryOptions}, or as Flight SQL session options and call headers. The broker
 * checks their values before any server works (a value that is none of {@link #accepted()} is
 * refused naming the option, never taken for the default) and sends them to the servers in {@link
 * PlanFragment#options()}; the servers read them with {@link #value(Map)}.
 *
 * <p>Names are matched exactly, as Pinot matches its query options; a name that is none of these is
 * no engine switch (Shelfmark ignores options it does not know, as Pinot does). Values are read
 * without regard to case or surrounding blanks.
 */
public enum EngineOption {
  /** Whether files may be answered from their segments' star-trees (Pinot's name). */
  USE_STAR_TREE("useStarTree", List.of("true", "false")),
  /** Whether MIN/MAX may take the Parquet page statistics of pages whose rows all match. */
  USE_PAGE_STATISTICS("usePageStatistics", List.of("true", "false")),
  /**
   * How partly selected column chunks are fetched: by the reader's cost model, page by page, or
   * whole.
   */
  CHUNK_READS("chunkReads", List.of("cost", "pages", "whole"));

  private final String optionName;
  private final List<String> accepted;

  EngineOption(String optionName, List<String> accepted) {
    this.optionName = optionName;
    this.accepted = accepted;
  }

  /** The name a query sets it by, such as {@code useStarTree}. */
  public String optionName() {
    return optionName;
  }

  /** The values it takes, lower case; the first is the default. */
  public List<String> accepted() {
    return accepted;
  }

  /** The accepted values in prose, for messages: {@code "true or false"}. */
  public String expected() {
    return String.join(", ", accepted.subList(0, accepted.size() - 1))
        + " or "
        + accepted.getLast();
  }

  /** The switch called {@code name} exactly; empty when the name is none of the engine's. */
  public static Optional<EngineOption> named(String name) {
    requireNonNull(name, "name is null");
    for (EngineOption option : values()) {
      if (option.optionName.equals(name)) {
        return Optional.of(option);
      }
    }
    return Optional.empty();
  }

  /**
   * The accepted value {@code value} stands for (lower case, without blanks).
   *
   * @throws IllegalArgumentException naming the option and the values it takes when {@code value}
   *     is none of them
   */
  public String parse(String value) {
    requireNonNull(value, "value is null");
    String normalized = value.trim().toLowerCase(Locale.ROOT);
    if (!accepted.contains(normalized)) {
      throw new IllegalArgumentException(
          "Cannot use query option %s=%s: it must be %s".formatted(optionName, value, expected()));
    }
    return normalized;
  }

  /**
   * The value {@code options} (by name, as a fragment carries them) set for this switch, or its
   * default when they set none.
   *
   * @throws IllegalArgumentException as {@link #parse} for a value it does not take
   */
  public String value(Map<String, String> options) {
    String value = options.get(optionName);
    return value == null ? accepted.getFirst() : parse(value);
  }
}
