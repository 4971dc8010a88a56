package io.shelfmark.exchange.profile;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * One server's part of an explained query: its files' profiles, how long it took, and which tier of
 * its page cache answered the reads the cache answered.
 *
 * @param server the server's name ({@code local} in the all-in-one node, the Flight endpoint in a
 *     cluster)
 * @param nanos the server's execution time as the broker saw it (dispatch to partial result)
 * @param files the profiles of the files it ran, in the order it was given them
 * @param memoryHits page-cache reads its memory tier answered (or a concurrent read of the same
 *     range in flight); {@code -1} when unknown (a server of the release before)
 * @param diskHits page-cache reads its disk tier answered; {@code -1} when unknown
 */
public record ServerProfile(
    String server, long nanos, List<FileProfile> files, long memoryHits, long diskHits) {
  public ServerProfile {
    requireNonNull(server, "server is null");
    files = List.copyOf(requireNonNull(files, "files is null"));
  }

  /** A server's part without its cache's hits per tier. */
  public ServerProfile(String server, long nanos, List<FileProfile> files) {
    this(server, nanos, files, -1, -1);
  }
}
