package io.shelfmark.exchange.result;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongConsumer;

/**
 * What a server returns for its files: for an aggregated query the partial groups (key values and
 * mergeable aggregate states), for a selection the rows it kept (each the output values followed by
 * the ORDER BY values, at most offset + limit of them per server), plus execution statistics. Plain
 * data: {@link #serialize()} and {@link #deserialize} carry it over the network; {@link #merge}
 * combines two servers' (or files') partials; {@code ResultFinisher} turns the merged partial into
 * the final table. Immutable.
 *
 * @param aggregated whether this is a partial aggregation (groups) or a selection (rows)
 * @param groups the groups, each key once (aggregated only)
 * @param rows the selected rows (selection only), in no particular order
 * @param statistics what producing this partial did
 */
public record PartialResult(
    boolean aggregated,
    List<Group> groups,
    List<List<Object>> rows,
    ExecutionStatistics statistics) {
  public PartialResult {
    requireNonNull(groups, "groups is null");
    // Columns are immutable: copying them would box every group (GroupColumns).
    groups = groups instanceof GroupColumns ? groups : List.copyOf(groups);
    requireNonNull(rows, "rows is null");
    List<List<Object>> copy = new ArrayList<>(rows.size());
    for (List<Object> row : rows) {
      copy.add(Collections.unmodifiableList(new ArrayList<>(row)));
    }
    rows = Collections.unmodifiableList(copy);
    requireNonNull(statistics, "statistics is null");
    if (aggregated ? !rows.isEmpty() : !groups.isEmpty()) {
      throw new IllegalArgumentException(
          "Cannot build a %s partial result with %d groups and %d rows"
              .formatted(aggregated ? "aggregated" : "selection", groups.size(), rows.size()));
    }
  }

  public static PartialResult ofGroups(List<Group> groups, ExecutionStatistics statistics) {
    return new PartialResult(true, groups, List.of(), statistics);
  }

  public static PartialResult ofRows(List<List<Object>> rows, ExecutionStatistics statistics) {
    return new PartialResult(false, List.of(), rows, statistics);
  }

  /**
   * Both partials together: groups with equal keys merge their states; rows are concatenated
   * (trimming to offset + limit is the caller's, who knows the ORDER BY).
   */
  public PartialResult merge(PartialResult other) {
    requireNonNull(other, "other is null");
    if (aggregated != other.aggregated) {
      throw new IllegalArgumentException(
          "Cannot merge an aggregated partial result with a selection");
    }
    ExecutionStatistics sum = statistics.plus(other.statistics);
    if (!aggregated) {
      List<List<Object>> all = new ArrayList<>(rows.size() + other.rows.size());
      all.addAll(rows);
      all.addAll(other.rows);
      return ofRows(all, sum);
    }
    // A side without groups adds nothing to merge: the usual case of the first file's partial
    // merged into the empty start, or of one server's answer, costs no rehashing of its keys.
    if (other.groups.isEmpty()) {
      return new PartialResult(true, groups, List.of(), sum);
    }
    if (groups.isEmpty()) {
      return new PartialResult(true, other.groups, List.of(), sum);
    }
    Map<List<Object>, Group> byKey = new LinkedHashMap<>();
    for (Group group : groups) {
      byKey.put(group.key(), group);
    }
    for (Group group : other.groups) {
      byKey.merge(group.key(), group, Group::merge);
    }
    return ofGroups(new ArrayList<>(byKey.values()), sum);
  }

  /**
   * Bounds a merge checks as it grows: {@code groups} gets the merged group count, {@code
   * distinctValues} the size of each merged COUNT(DISTINCT) set; each throws to refuse the query.
   */
  public record MergeLimits(LongConsumer groups, LongConsumer distinctValues) {
    public static final MergeLimits NONE = new MergeLimits(count -> {}, count -> {});

    public MergeLimits {
      requireNonNull(groups, "groups is null");
      requireNonNull(distinctValues, "distinctValues is null");
    }
  }

  /**
   * Every aggregated partial together, as merging them in turn gives (groups in order of first
   * appearance, equal keys merged), in one pass: each group's states are merged once, all at a
   * time. Merging in turn rebuilt the map of every group seen so far, and copied each
   * COUNT(DISTINCT) set, at every partial: quadratic in the partials.
   *
   * @param check called between partials and every 4,096 groups: the deadline
   * @param limits checked as the merged groups grow
   */
  public static PartialResult mergeAll(
      List<PartialResult> partials, Runnable check, MergeLimits limits) {
    requireNonNull(partials, "partials is null");
    ExecutionStatistics sum = ExecutionStatistics.EMPTY;
    Map<List<Object>, Object> byKey;
    PartialResult only = null;
    int withGroups = 0;
    for (PartialResult partial : partials) {
      if (!partial.aggregated) {
        throw new IllegalArgumentException("Cannot merge a selection's rows as groups");
      }
      check.run();
      sum = sum.plus(partial.statistics);
      if (!partial.groups.isEmpty()) {
        withGroups++;
        only = partial;
      }
    }
    if (withGroups <= 1) {
      // Nothing to merge: one side's groups stand as they are (no rehashing of their keys).
      List<Group> groups = only == null ? List.of() : only.groups;
      limits.groups().accept(groups.size());
      return new PartialResult(true, groups, List.of(), sum);
    }
    Optional<GroupColumns> columns = GroupColumnsMerge.merge(partials, check, limits);
    if (columns.isPresent()) {
      return ofGroups(columns.get(), sum);
    }
    // Sized for every group being distinct, at most a million: rehashing a growing map of
    // list keys was a tenth of a 200,000-group query's time.
    long total = 0;
    for (PartialResult partial : partials) {
      total += partial.groups.size();
    }
    byKey = LinkedHashMap.newLinkedHashMap((int) Math.min(total, 1 << 20));
    int seen = 0;
    for (PartialResult partial : partials) {
      for (Group group : partial.groups) {
        // A key seen once maps to its group, a key seen again to the list of its groups: most
        // keys of a many-group query are in one partial, and a list per key was a third of the
        // merge's garbage.
        byKey.merge(group.key(), group, PartialResult::sameKey);
        if ((++seen & 4095) == 0) {
          check.run();
          limits.groups().accept(byKey.size());
        }
      }
    }
    limits.groups().accept(byKey.size());
    List<Group> merged = new ArrayList<>(byKey.size());
    int done = 0;
    for (Object same : byKey.values()) {
      @SuppressWarnings("unchecked")
      Group group = same instanceof Group one ? one : Group.mergeAll((List<Group>) same);
      for (AggregateState state : group.states()) {
        if (state instanceof AggregateState.Distinct distinct) {
          limits.distinctValues().accept(distinct.values().size());
        }
      }
      merged.add(group);
      if ((++done & 4095) == 0) {
        check.run();
      }
    }
    return ofGroups(merged, sum);
  }

  /** {@code byKey}'s merge: a group, or a list of groups, with one more group of the same key. */
  @SuppressWarnings("unchecked")
  private static Object sameKey(Object seen, Object group) {
    if (seen instanceof Group first) {
      List<Group> groups = new ArrayList<>(2);
      groups.add(first);
      groups.add((Group) group);
      return groups;
    }
    ((List<Group>) seen).add((Group) group);
    return seen;
  }

  /** The bytes of this partial ({@link PartialResultCodec}). */
  public byte[] serialize() {
    return PartialResultCodec.encode(this);
  }

  /** A partial from {@link #serialize()}'s bytes. */
  public static PartialResult deserialize(byte[] bytes) {
    return PartialResultCodec.decode(bytes);
  }

  @Override
  public String toString() {
    return aggregated
        ? "PartialResult[" + groups.size() + " groups, " + statistics + "]"
        : "PartialResult[" + rows.size() + " rows, " + statistics + "]";
  }
}
