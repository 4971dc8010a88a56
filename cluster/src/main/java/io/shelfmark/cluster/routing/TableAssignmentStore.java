package io.shelfmark.cluster.routing;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.shelfmark.cluster.state.VersionedJson;
import io.shelfmark.cluster.state.ZooKeeperFailure;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.Function;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.curator.framework.recipes.cache.ChildData;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tables' assignments and routings ({@link TableAssignment}) in ZooKeeper, of any size. A record
 * whose JSON fits {@link Limits#wholeBytes} is one node, as every record was before (a small
 * table's format does not change). A larger one — ZooKeeper refuses a node over about 1 MB ({@code
 * jute.maxbuffer}), some 3,000 files — is split: its files go into immutable <em>parts</em> written
 * first, then the <em>head</em> node, which readers and watches know, is set by compare-and-set to
 * name them:
 *
 * <pre>
 * routing/&lt;table&gt;                              head: the record without "files", and "parts"
 * routing/&lt;table&gt;/parts/&lt;directory&gt;/0 … n-1     gzip'd JSON of consecutive runs of files
 * </pre>
 *
 * <p>Why readers never see a mix of two versions: a parts directory is written whole before any
 * head names it (in the same ZooKeeper transaction as the head when they fit in one, before it
 * otherwise), is never changed afterwards, and has a name no other write uses (the head version it
 * was written for and a random id). A reader reads the head, then the parts it names; if one is
 * gone (deleted after two newer versions), it reads the head again. So what a reader assembles is
 * exactly what one write put there.
 *
 * <p>Why writers lose no change: {@link #update} is {@link VersionedJson#update}'s compare-and-set
 * on the head's ZooKeeper version; a writer that loses the race deletes the parts it wrote, reads
 * again and recomputes its change. The previous version's parts stay until the next version is
 * written (readers still reading them finish); older ones, and those of writers that lost a race or
 * died before setting the head, are deleted by each successful write. A directory is deleted only
 * when its name's head version is at most the one just written, so the directory of a writer that
 * read the new head and is writing now is never touched.
 *
 * <p>Watches: a follower watching the heads' parent is woken by parts too; {@link #isPart} tells
 * those events apart, so a new version wakes it once, by its head.
 *
 * <p>Thread safe; errors from ZooKeeper come out as {@link IOException}s naming the node.
 */
public final class TableAssignmentStore {
  private static final Logger log = LoggerFactory.getLogger(TableAssignmentStore.class);

  /** The child of a head that holds its parts' directories. */
  public static final String PARTS = "parts";

  private static final ObjectMapper JSON =
      JsonMapper.builder().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).build();

  /**
   * Sizes in bytes. ZooKeeper refuses a request over {@code jute.maxbuffer} (1 MB less a byte by
   * default), a node's value and a whole transaction alike; these stay well under it.
   *
   * @param wholeBytes the largest record kept as one node (its JSON)
   * @param partBytes the most JSON, before compression, one part holds (one file's more than this
   *     gets a part of its own)
   * @param transactionBytes the most parts' bytes written in one ZooKeeper transaction
   */
  public record Limits(int wholeBytes, int partBytes, int transactionBytes) {
    /** 512 KiB records and parts, 768 KiB transactions: under the default 1 MB with room. */
    public static final Limits DEFAULT = new Limits(512 << 10, 512 << 10, 768 << 10);

    public Limits {
      checkArgument(
          wholeBytes > 0 && partBytes > 64 && transactionBytes > 0,
          "Cannot use limits of %s, %s and %s bytes",
          wholeBytes,
          partBytes,
          transactionBytes);
    }
  }

  private final CuratorFramework client;
  private final Limits limits;

  public TableAssignmentStore(CuratorFramework client) {
    this(client, Limits.DEFAULT);
  }

  public TableAssignmentStore(CuratorFramework client, Limits limits) {
    this.client = requireNonNull(client, "client is null");
    this.limits = requireNonNull(limits, "limits is null");
  }

  /** The record at {@code path}, whole or assembled from its parts; empty when there is none. */
  public Optional<TableAssignment> read(String path) throws IOException {
    return Optional.ofNullable(readCurrent(path).value());
  }

  /**
   * The heads of every record below {@code parent} (the assignments or the routings), by child
   * name, sorted, without reading their parts: enough to list the tables and their versions.
   */
  public Map<String, AssignmentHead> heads(String parent) throws IOException {
    Map<String, AssignmentHead> heads = new TreeMap<>();
    for (String name : new VersionedJson(client).childNames(parent)) {
      String path = parent + "/" + name;
      byte[] bytes = data(path, null);
      if (bytes != null && bytes.length > 0) {
        heads.put(name, decodeHead(path, bytes));
      }
    }
    return heads;
  }

  /** Every record below {@code parent}, read whole, by child name, sorted. */
  public Map<String, TableAssignment> children(String parent) throws IOException {
    Map<String, TableAssignment> records = new TreeMap<>();
    for (String name : heads(parent).keySet()) {
      read(parent + "/" + name).ifPresent(record -> records.put(name, record));
    }
    return records;
  }

  /**
   * Sets the record at {@code path} to {@code change(current)} by compare-and-set on its head, as
   * {@link VersionedJson#update} does for one node: when another writer changed the head between
   * the read and the write, {@code change} is called again on the newer record (so it must be free
   * of side effects); returning the current record skips the write.
   *
   * @return the record written (or kept)
   */
  public TableAssignment update(
      String path, Function<Optional<TableAssignment>, TableAssignment> change) throws IOException {
    requireNonNull(change, "change is null");
    for (int attempt = 0; attempt < VersionedJson.MAX_ATTEMPTS; attempt++) {
      Current current = readCurrent(path);
      Optional<TableAssignment> value = Optional.ofNullable(current.value());
      TableAssignment next = requireNonNull(change.apply(value), "change gave null");
      if (value.isPresent() && next.equals(value.get())) {
        return next;
      }
      byte[] whole = encode(path, AssignmentHead.whole(next));
      Written written;
      try {
        if (whole.length <= limits.wholeBytes()) {
          written = new Written(writeHead(path, current, whole, List.of()), null);
        } else if (current.version() < 0) {
          // The parts need their parent; an empty head reads as no record, and the next round
          // sets it by compare-and-set on the version it was created with.
          createEmpty(path);
          continue;
        } else {
          written = writeSplit(path, current, next);
        }
      } catch (KeeperException.BadVersionException
          | KeeperException.NodeExistsException
          | KeeperException.NoNodeException raced) {
        continue; // another writer changed, created or deleted the head since our read
      } catch (Exception e) {
        throw ZooKeeperFailure.of("write", path, e);
      }
      sweep(path, written, current.head());
      return next;
    }
    throw new IOException(
        "Cannot update %s: it changed under every one of %d attempts (too many writers at once?)"
            .formatted(path, VersionedJson.MAX_ATTEMPTS));
  }

  /** Deletes the record at {@code path} with its parts (and whatever else is below it). */
  public boolean delete(String path) throws IOException {
    return new VersionedJson(client).delete(path);
  }

  /**
   * Whether a watch event's node (of a cache on {@code parent}, the assignments or the routings) is
   * a record's part or parts directory rather than its head or a report beside it: a follower
   * ignores those, the head's change that follows them is the event that matters.
   */
  public static boolean isPart(String parent, String path) {
    if (!path.startsWith(parent + "/")) {
      return false;
    }
    String[] below = path.substring(parent.length() + 1).split("/", 3);
    return below.length >= 2 && below[1].equals(PARTS);
  }

  /** {@link #isPart} for the nodes of a cache event, either of which may be null. */
  public static boolean isPart(String parent, ChildData before, ChildData after) {
    ChildData node = after != null ? after : before;
    return node != null && isPart(parent, node.getPath());
  }

  /** A head written: its new ZooKeeper version and its parts' directory (null: whole). */
  private record Written(int version, String directory) {}

  /** The head as read, its ZooKeeper version (-1: no node) and the record (null: none). */
  private record Current(int version, AssignmentHead head, TableAssignment value) {}

  private Current readCurrent(String path) throws IOException {
    for (int attempt = 0; attempt < VersionedJson.MAX_ATTEMPTS; attempt++) {
      Stat stat = new Stat();
      byte[] bytes = data(path, stat);
      if (bytes == null) {
        return new Current(-1, null, null);
      }
      if (bytes.length == 0) {
        return new Current(stat.getVersion(), null, null);
      }
      AssignmentHead head = decodeHead(path, bytes);
      if (head.files() != null) {
        return new Current(stat.getVersion(), head, head.with(head.files()));
      }
      Map<String, FileReplicas> files = readParts(path, head.parts());
      if (files != null) {
        return new Current(stat.getVersion(), head, head.with(files));
      }
      log.debug("Reading {} again: a part of version {} was deleted", path, head.version());
    }
    throw new IOException(
        "Cannot read %s: its parts were replaced under each of %d reads (is a controller writing it in a loop?)"
            .formatted(path, VersionedJson.MAX_ATTEMPTS));
  }

  /** The files of {@code parts}, in order; null when one is gone (a newer version replaced it). */
  private Map<String, FileReplicas> readParts(String path, AssignmentHead.Parts parts)
      throws IOException {
    String directory = path + "/" + PARTS + "/" + parts.directory();
    Map<String, FileReplicas> files = new LinkedHashMap<>();
    for (int i = 0; i < parts.count(); i++) {
      String part = directory + "/" + i;
      byte[] bytes = data(part, null);
      if (bytes == null) {
        return null;
      }
      files.putAll(AssignmentParts.decode(part, bytes));
    }
    if (files.size() != parts.files()) {
      throw new IOException(
          "Cannot read %s: its head says %d files in %d parts but the parts hold %d (delete the node: the leading controller writes it again)"
              .formatted(path, parts.files(), parts.count(), files.size()));
    }
    return files;
  }

  /**
   * Writes the parts of {@code next} into a new directory, then its head by compare-and-set: in one
   * transaction when they fit, else the parts in transactions first and the head with the last.
   *
   * @return the head's new ZooKeeper version and the parts' directory
   */
  private Written writeSplit(String path, Current current, TableAssignment next) throws Exception {
    List<byte[]> parts = AssignmentParts.encode(next.files(), limits.partBytes());
    int version = current.version() + 1;
    String name = "%010d-%s".formatted(version, UUID.randomUUID().toString().replace("-", ""));
    byte[] head =
        encode(
            path,
            AssignmentHead.split(
                next, new AssignmentHead.Parts(name, parts.size(), next.files().size())));
    createEmpty(path + "/" + PARTS);
    String directory = path + "/" + PARTS + "/" + name;
    List<CuratorOp> batch = new ArrayList<>();
    batch.add(
        client
            .transactionOp()
            .create()
            .withMode(CreateMode.PERSISTENT)
            .forPath(directory, new byte[0]));
    long batchBytes = 0;
    try {
      for (int i = 0; i < parts.size(); i++) {
        byte[] part = parts.get(i);
        if (batchBytes > 0 && batchBytes + part.length > limits.transactionBytes()) {
          client.transaction().forOperations(batch);
          batch = new ArrayList<>();
          batchBytes = 0;
        }
        batch.add(
            client
                .transactionOp()
                .create()
                .withMode(CreateMode.PERSISTENT)
                .forPath(directory + "/" + i, part));
        batchBytes += part.length;
      }
      if (batchBytes + head.length > limits.transactionBytes()) {
        client.transaction().forOperations(batch);
        batch = new ArrayList<>();
      }
      return new Written(writeHead(path, current, head, batch), name);
    } catch (Exception e) {
      deleteQuietly(directory); // never named by a head: nobody reads it
      throw e;
    }
  }

  /**
   * Sets the head to {@code bytes} if it is still at {@code current}'s version (creates it when
   * there was none), in one transaction with {@code before}.
   *
   * @return the head's new ZooKeeper version
   */
  private int writeHead(String path, Current current, byte[] bytes, List<CuratorOp> before)
      throws Exception {
    List<CuratorOp> ops = new ArrayList<>(before);
    if (current.version() < 0 && ops.isEmpty()) {
      client
          .create()
          .creatingParentContainersIfNeeded()
          .withMode(CreateMode.PERSISTENT)
          .forPath(path, bytes);
      return 0;
    }
    ops.add(client.transactionOp().setData().withVersion(current.version()).forPath(path, bytes));
    client.transaction().forOperations(ops);
    return current.version() + 1;
  }

  /**
   * Deletes the parts directories below {@code path} that no head can name any more: all but the
   * one just written and the one the replaced head named (readers may still be reading it), among
   * those written for a head version up to the one just written (a later one belongs to a writer
   * that read the new head and is writing now). A failure here leaves garbage for the next write to
   * delete, never a wrong record, so it is logged, not thrown.
   */
  private void sweep(String path, Written written, AssignmentHead replaced) {
    String parent = path + "/" + PARTS;
    Set<String> keep = new HashSet<>();
    if (written.directory() != null) {
      keep.add(written.directory());
    }
    if (replaced != null && replaced.parts() != null) {
      keep.add(replaced.parts().directory());
    }
    try {
      for (String name : client.getChildren().forPath(parent)) {
        if (!keep.contains(name) && writtenFor(name) <= written.version()) {
          deleteQuietly(parent + "/" + name);
        }
      }
    } catch (KeeperException.NoNodeException e) {
      // never split: nothing to delete
    } catch (Exception e) {
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      log.warn(
          "Cannot delete the old parts of {} (the next write retries): {}", path, e.toString());
    }
  }

  /** The head version a parts directory was written for; MAX_VALUE for a name not ours. */
  private static int writtenFor(String directory) {
    int dash = directory.indexOf('-');
    try {
      return Integer.parseInt(dash < 0 ? directory : directory.substring(0, dash));
    } catch (NumberFormatException e) {
      return Integer.MAX_VALUE;
    }
  }

  private void createEmpty(String path) throws Exception {
    try {
      // With no bytes given, Curator would write the client's address into the node.
      client
          .create()
          .creatingParentsIfNeeded()
          .withMode(CreateMode.PERSISTENT)
          .forPath(path, new byte[0]);
    } catch (KeeperException.NodeExistsException e) {
      // already there: all we need
    }
  }

  private void deleteQuietly(String path) {
    try {
      client.delete().deletingChildrenIfNeeded().forPath(path);
    } catch (KeeperException.NoNodeException e) {
      // gone already
    } catch (Exception e) {
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      log.warn("Cannot delete {} (the next write retries): {}", path, e.toString());
    }
  }

  /** The node's bytes (its stat into {@code stat} when given); null when there is no such node. */
  private byte[] data(String path, Stat stat) throws IOException {
    try {
      byte[] bytes =
          stat == null
              ? client.getData().forPath(path)
              : client.getData().storingStatIn(stat).forPath(path);
      return bytes == null ? new byte[0] : bytes;
    } catch (KeeperException.NoNodeException e) {
      return null;
    } catch (Exception e) {
      throw ZooKeeperFailure.of("read", path, e);
    }
  }

  private static AssignmentHead decodeHead(String path, byte[] bytes) throws IOException {
    try {
      return JSON.readValue(bytes, AssignmentHead.class);
    } catch (IOException | IllegalArgumentException e) {
      throw new IOException(
          "Cannot read %s: its value is not an assignment or routing (%s; delete the node: the leading controller writes it again)"
              .formatted(path, e.getMessage()),
          e);
    }
  }

  private static byte[] encode(String path, AssignmentHead head) throws IOException {
    try {
      return JSON.writeValueAsBytes(head);
    } catch (IOException e) {
      throw new IOException("Cannot write the value of " + path + " as JSON: " + e.getMessage(), e);
    }
  }
}
