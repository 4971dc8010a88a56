package io.shelfmark.cluster.state;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;

/**
 * Where each piece of cluster state lives in ZooKeeper, below the client's namespace ({@code
 * /shelfmark}) and the cluster's name. Every value is a JSON document (see docs/cluster-state.md
 * for the fields); every durable one is updated by a version-checked write ({@link VersionedJson}).
 *
 * <pre>
 * /shelfmark/&lt;cluster-name&gt;/
 *   tables/&lt;table&gt;                          table record: the table config (persistent)
 *   tables/&lt;table&gt;/segments/&lt;file key&gt;      segment record of one data file (persistent)
 *   members/&lt;member id&gt;                    a live process: roles, host, ports (ephemeral)
 *   controller/leader/                     the controller leader latch (Curator LeaderLatch)
 *   assignments/&lt;table&gt;                     which servers should serve each data file (persistent)
 *   assignments/&lt;table&gt;/parts/&lt;dir&gt;/&lt;n&gt;     its files, when too many for one node
 *   assignments/&lt;table&gt;/served/&lt;member id&gt;  what one server serves of it (ephemeral)
 *   routing/&lt;table&gt;                         which servers brokers send each file to (persistent)
 *   routing/&lt;table&gt;/parts/&lt;dir&gt;/&lt;n&gt;         its files, when too many for one node
 *   drains/&lt;member id&gt;                     a server being drained: placed on no file (persistent)
 *   build-tasks/                           reserved: build tasks with leases (not written yet)
 * </pre>
 *
 * {@code <table>} is the table's qualified name ({@code obs.metrics}), URL-encoded so that no
 * character can make a path of it; {@code <file key>} names a data file as the segment store does,
 * {@code <sha-256 of the path, 32 hex>-<size>}. Assignments and routings are read and written
 * through {@code TableAssignmentStore}, which splits a large one into parts. Immutable and thread
 * safe.
 */
public final class ZNodes {
  private static final Pattern NODE_NAME = Pattern.compile("[A-Za-z0-9._%+:-]{1,255}");

  private final String root;

  /**
   * @param clusterName the cluster's name ({@code cluster-name}), so that several clusters can
   *     share one ensemble
   */
  public ZNodes(String clusterName) {
    requireNonNull(clusterName, "clusterName is null");
    checkArgument(
        NODE_NAME.matcher(clusterName).matches() && !clusterName.startsWith("."),
        "Cannot use cluster name \"%s\" in ZooKeeper paths (letters, digits, '.', '_' and '-')",
        clusterName);
    this.root = "/" + clusterName;
  }

  /** {@code /<cluster>}. */
  public String root() {
    return root;
  }

  /** The parent of every table record. */
  public String tables() {
    return root + "/tables";
  }

  /** One table's record. */
  public String table(String qualifiedName) {
    return tables() + "/" + name(qualifiedName);
  }

  /** The parent of one table's segment records. */
  public String segments(String qualifiedName) {
    return table(qualifiedName) + "/segments";
  }

  /** The segment record of one data file of a table. */
  public String segment(String qualifiedName, String fileKey) {
    checkArgument(NODE_NAME.matcher(fileKey).matches(), "Cannot use \"%s\" as a file key", fileKey);
    return segments(qualifiedName) + "/" + fileKey;
  }

  /** The parent of live members' ephemeral nodes. */
  public String members() {
    return root + "/members";
  }

  /** One live member's node. */
  public String member(String memberId) {
    return members() + "/" + name(memberId);
  }

  /** The controller leader latch's path. */
  public String controllerLeader() {
    return root + "/controller/leader";
  }

  /** The parent of every table's assignment. */
  public String assignments() {
    return root + "/assignments";
  }

  /** Which servers should serve each data file of a table ({@code TableAssignment}). */
  public String assignment(String qualifiedName) {
    return assignments() + "/" + name(qualifiedName);
  }

  /** The parent of the servers' reports on a table's assignment. */
  public String servedReports(String qualifiedName) {
    return assignment(qualifiedName) + "/served";
  }

  /** What one server reports it serves of a table's assignment ({@code ServedFiles}). */
  public String served(String qualifiedName, String memberId) {
    return servedReports(qualifiedName) + "/" + name(memberId);
  }

  /** The parent of every table's routing. */
  public String routings() {
    return root + "/routing";
  }

  /** Which servers brokers send each data file of a table to ({@code TableAssignment}). */
  public String routing(String qualifiedName) {
    return routings() + "/" + name(qualifiedName);
  }

  /** The parent of the servers being drained. */
  public String drains() {
    return root + "/drains";
  }

  /** The drain mark of one server: while it exists, the server is given no file. */
  public String drain(String memberId) {
    return drains() + "/" + name(memberId);
  }

  /** Reserved for build tasks handed to workers with leases; nothing writes it yet. */
  public String buildTasks() {
    return root + "/build-tasks";
  }

  /** The table name of a child of {@link #tables()}: the inverse of the encoding. */
  public static String tableName(String nodeName) {
    return java.net.URLDecoder.decode(nodeName, StandardCharsets.UTF_8);
  }

  private static String name(String text) {
    requireNonNull(text, "text is null");
    checkArgument(!text.isEmpty(), "Cannot name a ZooKeeper node after an empty string");
    String encoded = URLEncoder.encode(text, StandardCharsets.UTF_8);
    // "." and ".." are not valid node names.
    return encoded.equals(".") || encoded.equals("..") ? encoded.replace(".", "%2E") : encoded;
  }

  @Override
  public String toString() {
    return "ZNodes[" + root + "]";
  }
}
