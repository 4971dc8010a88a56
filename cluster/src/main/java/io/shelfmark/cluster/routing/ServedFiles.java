package io.shelfmark.cluster.routing;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * What one server reports it serves of a table's assignment: written by the server once the files'
 * segments are open and their deletes read, as an ephemeral node ({@code
 * assignments/<table>/served/<member id>}), so a server that dies takes its report with it.
 *
 * @param version the assignment version served
 * @param snapshotId that assignment's snapshot
 * @param files the data files served, by path
 */
public record ServedFiles(long version, long snapshotId, List<String> files) {
  public ServedFiles {
    files = List.copyOf(requireNonNull(files, "files is null"));
  }
}
