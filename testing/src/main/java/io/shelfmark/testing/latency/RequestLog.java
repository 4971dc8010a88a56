package io.shelfmark.testing.latency;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The requests a {@link LatencyInjectingProxy} completed, in the order they completed: an immutable
 * value a test reads after running a query to see how many round trips sat on its critical path.
 *
 * <p>{@link #sequentialRounds()} is the figure the benchmark cares about: with a per-request
 * latency L, a query whose requests form k sequential rounds waits at least k × L on storage
 * however many requests each round holds.
 */
public final class RequestLog {
  private static final Comparator<RequestTiming> BY_END =
      Comparator.comparingLong(RequestTiming::endNanos)
          .thenComparingLong(RequestTiming::startNanos);

  private final List<RequestTiming> requests;

  public RequestLog(List<RequestTiming> requests) {
    this.requests = List.copyOf(requireNonNull(requests, "requests is null"));
  }

  /** The requests in completion order. */
  public List<RequestTiming> requests() {
    return requests;
  }

  public int size() {
    return requests.size();
  }

  /** Only the requests with this HTTP method (such as {@code GET}), in the same order. */
  public RequestLog withMethod(String method) {
    requireNonNull(method, "method is null");
    List<RequestTiming> kept = new ArrayList<>();
    for (RequestTiming request : requests) {
      if (request.method().equals(method)) {
        kept.add(request);
      }
    }
    return new RequestLog(kept);
  }

  /**
   * The number of sequential rounds: the size of the longest chain of requests in which each one
   * starts strictly after the previous one ended. N requests all in flight together are 1 round; N
   * requests each sent after the previous answer are N rounds; an empty log is 0.
   *
   * <p>A chain of pairwise non-overlapping intervals is exactly a set of pairwise disjoint ones, so
   * the classic earliest-end greedy finds the longest: taking the request that ends first never
   * leaves fewer choices for the rest of the chain than any other first pick would.
   */
  public int sequentialRounds() {
    List<RequestTiming> sorted = new ArrayList<>(requests);
    sorted.sort(BY_END);
    int rounds = 0;
    long lastEnd = Long.MIN_VALUE;
    boolean first = true;
    for (RequestTiming request : sorted) {
      if (first || request.startNanos() > lastEnd) {
        rounds++;
        lastEnd = request.endNanos();
        first = false;
      }
    }
    return rounds;
  }

  /** The most requests that were in flight at one instant according to this log. */
  public int maxOverlap() {
    List<long[]> events = new ArrayList<>(requests.size() * 2);
    for (RequestTiming request : requests) {
      // Starts sort before ends at the same instant, matching overlaps(): touching overlaps.
      events.add(new long[] {request.startNanos(), 0});
      events.add(new long[] {request.endNanos(), 1});
    }
    events.sort(Comparator.<long[]>comparingLong(e -> e[0]).thenComparingLong(e -> e[1]));
    int current = 0;
    int max = 0;
    for (long[] event : events) {
      current += event[1] == 0 ? 1 : -1;
      max = Math.max(max, current);
    }
    return max;
  }

  @Override
  public String toString() {
    return "RequestLog{" + requests.size() + " requests, " + sequentialRounds() + " rounds}";
  }
}
