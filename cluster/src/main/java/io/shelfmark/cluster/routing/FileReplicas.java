package io.shelfmark.cluster.routing;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import java.util.Optional;

/**
 * One data file of a snapshot and the servers that serve it.
 *
 * @param segment the location of its ready segment in the segment store; null when the file has
 *     none (not built yet, or failed) and is read directly from Parquet
 * @param segmentBytes the segment's size; 0 without one
 * @param servers the member ids of the servers that serve it, the least loaded first in an
 *     assignment (and only those that reported it served in a routing)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record FileReplicas(String segment, long segmentBytes, List<String> servers) {
  public FileReplicas {
    servers = List.copyOf(requireNonNull(servers, "servers is null"));
  }

  /** The ready segment's location, when the file has one. */
  public Optional<String> segmentLocation() {
    return Optional.ofNullable(segment);
  }

  /** The same file on other servers. */
  public FileReplicas withServers(List<String> others) {
    return new FileReplicas(segment, segmentBytes, others);
  }
}
