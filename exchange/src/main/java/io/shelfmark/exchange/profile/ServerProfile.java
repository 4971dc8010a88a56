package io.shelfmark.exchange.profile;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * One server's part of an explained query: its files' profiles and how long it took.
 *
 * @param server the server's name ({@code local} in the all-in-one node, the Flight endpoint in a
 *     cluster)
 * @param nanos the server's execution time as the broker saw it (dispatch to partial result)
 * @param files the profiles of the files it ran, in the order it was given them
 */
public record ServerProfile(String server, long nanos, List<FileProfile> files) {
  public ServerProfile {
    requireNonNull(server, "server is null");
    files = List.copyOf(requireNonNull(files, "files is null"));
  }
}
