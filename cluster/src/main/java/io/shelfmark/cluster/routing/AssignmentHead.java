package io.shelfmark.cluster.routing;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Map;

/**
 * What the node {@code assignments/<table>} or {@code routing/<table>} holds: either the whole
 * {@link TableAssignment} (its {@code files} inline, as every record was before records were split;
 * small tables still are), or the same fields without {@code files} and a reference to the
 * immutable parts that hold them ({@code parts}). Exactly one of the two is present.
 *
 * <pre>
 * {"table": "obs.metrics", "catalog": "shelfmark", "namespace": "obs", "name": "metrics",
 *  "snapshotId": 6113807771568454558, "version": 7,
 *  "parts": {"directory": "0000000012-5b0e…", "count": 23, "files": 50000}}
 * </pre>
 *
 * @param files the files, when the record is whole; null when split
 * @param parts where the files are, when split; null when whole
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record AssignmentHead(
    String table,
    String catalog,
    String namespace,
    String name,
    long snapshotId,
    long version,
    Map<String, FileReplicas> files,
    Parts parts) {
  public AssignmentHead {
    requireNonNull(table, "table is null");
    checkArgument(
        (files == null) != (parts == null),
        "Cannot describe the assignment of %s: it needs either its files or its parts",
        table);
  }

  /**
   * The parts of a split record: {@code <head>/parts/<directory>/0 … <count - 1>}, each a gzip'd
   * JSON object {@code {"files": {path: replicas, …}}}, in the record's file order.
   *
   * @param directory the name of the parts' parent: the head's ZooKeeper version it was written
   *     for, zero-padded, then a random id (so that two writers racing never share one)
   * @param count how many parts
   * @param files how many files the parts hold in all (checked when read)
   */
  public record Parts(String directory, int count, int files) {
    public Parts {
      requireNonNull(directory, "directory is null");
      checkArgument(count > 0, "Cannot describe parts in %s: count %s", directory, count);
    }
  }

  /** The head of a whole record. */
  static AssignmentHead whole(TableAssignment assignment) {
    return of(assignment, assignment.files(), null);
  }

  /** The head of a record whose files are in {@code parts}. */
  static AssignmentHead split(TableAssignment assignment, Parts parts) {
    return of(assignment, null, requireNonNull(parts, "parts is null"));
  }

  private static AssignmentHead of(
      TableAssignment assignment, Map<String, FileReplicas> files, Parts parts) {
    return new AssignmentHead(
        assignment.table(),
        assignment.catalog(),
        assignment.namespace(),
        assignment.name(),
        assignment.snapshotId(),
        assignment.version(),
        files,
        parts);
  }

  /** The record with {@code files} (its own when whole, those read from its parts when split). */
  TableAssignment with(Map<String, FileReplicas> all) {
    return new TableAssignment(table, catalog, namespace, name, snapshotId, version, all);
  }
}
