package io.shelfmark.cluster.member;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A live process of the cluster, as its ephemeral node shows it.
 *
 * @param id unique in the cluster while the process lives, such as {@code
 *     all-in-one@127.0.0.1:8099}
 * @param roles the roles it plays ({@code controller}, {@code server}, {@code broker}, ...)
 * @param host the address it advertises
 * @param ports what listens where, by name ({@code broker-http}, {@code server-rpc}, ...)
 * @param startedAtMillis when the process started, milliseconds since the epoch
 */
public record Member(
    String id, List<String> roles, String host, Map<String, Integer> ports, long startedAtMillis) {
  public Member {
    requireNonNull(id, "id is null");
    roles = List.copyOf(requireNonNull(roles, "roles is null"));
    requireNonNull(host, "host is null");
    ports = new TreeMap<>(requireNonNull(ports, "ports is null"));
  }
}
