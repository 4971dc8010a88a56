package io.shelfmark.cluster.state;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.zip.GZIPInputStream;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;

/**
 * JSON values in ZooKeeper nodes, changed only by compare-and-set: {@link #update} reads a node
 * with its version, computes the new value from it, and writes it with {@code
 * setData().withVersion} (or creates the node when there was none). When another writer changed the
 * node in between, ZooKeeper refuses the write ({@code BadVersion}, or {@code NodeExists} for two
 * creates) and the update starts again from a fresh read — so two controllers never overwrite each
 * other's change, and no change is lost.
 *
 * <p>Values are read whether written as JSON or as gzip'd JSON (told apart by gzip's magic).
 *
 * <p>Thread safe; every method is one or a few ZooKeeper round trips. Errors from ZooKeeper (a lost
 * connection after Curator's retries, an unreadable value) come out as {@link IOException}s naming
 * the path.
 */
public final class VersionedJson {
  /** How many times an update starts again after losing a race before giving up. */
  public static final int MAX_ATTEMPTS = 100;

  private static final ObjectMapper JSON =
      JsonMapper.builder().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).build();

  private final CuratorFramework client;

  public VersionedJson(CuratorFramework client) {
    this.client = requireNonNull(client, "client is null");
  }

  /** A value with the node version it was read at. */
  public record Versioned<T>(T value, int version) {
    public Versioned {
      requireNonNull(value, "value is null");
    }
  }

  /**
   * The value at {@code path}, with its version; empty when there is no such node, or when the node
   * holds no bytes (a parent created on the way to a child, before its own value was written).
   */
  public <T> Optional<Versioned<T>> read(String path, Class<T> type) throws IOException {
    Raw raw = readRaw(path);
    if (raw == null || raw.bytes().length == 0) {
      return Optional.empty();
    }
    return Optional.of(new Versioned<>(decode(path, raw.bytes(), type), raw.version()));
  }

  /** A node's bytes and version. */
  private record Raw(byte[] bytes, int version) {}

  /** The node's bytes and version; null when there is no such node. */
  private Raw readRaw(String path) throws IOException {
    Stat stat = new Stat();
    try {
      byte[] bytes = client.getData().storingStatIn(stat).forPath(path);
      return new Raw(bytes == null ? new byte[0] : bytes, stat.getVersion());
    } catch (KeeperException.NoNodeException e) {
      return null;
    } catch (Exception e) {
      throw ZooKeeperFailure.of("read", path, e);
    }
  }

  /**
   * The values of every child of {@code parent}, by child name, sorted; empty when {@code parent}
   * does not exist. A child deleted between the listing and its read is left out.
   */
  public <T> Map<String, T> children(String parent, Class<T> type) throws IOException {
    Map<String, T> values = new TreeMap<>();
    for (String name : childNames(parent)) {
      read(parent + "/" + name, type).ifPresent(value -> values.put(name, value.value()));
    }
    return values;
  }

  /** The names of the children of {@code parent}; empty when {@code parent} does not exist. */
  public List<String> childNames(String parent) throws IOException {
    try {
      return client.getChildren().forPath(parent);
    } catch (KeeperException.NoNodeException e) {
      return List.of();
    } catch (Exception e) {
      throw ZooKeeperFailure.of("list", parent, e);
    }
  }

  /**
   * Sets the value at {@code path} to {@code change(current)}, creating the node (and its parents)
   * when there is none, by compare-and-set: when the node changed between the read and the write,
   * {@code change} is called again on the newer value. {@code change} must therefore be free of
   * side effects; returning its argument's value unchanged skips the write.
   *
   * @return the value written (or kept)
   * @throws IOException when ZooKeeper cannot be reached, a value cannot be read, or the update
   *     lost {@value #MAX_ATTEMPTS} races in a row
   */
  public <T> T update(String path, Class<T> type, Function<Optional<T>, T> change)
      throws IOException {
    requireNonNull(change, "change is null");
    for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      Raw raw = readRaw(path);
      Optional<T> current =
          raw == null || raw.bytes().length == 0
              ? Optional.empty()
              : Optional.of(decode(path, raw.bytes(), type));
      T next = requireNonNull(change.apply(current), "change gave null");
      if (current.isPresent() && next.equals(current.get())) {
        return next;
      }
      byte[] bytes = encode(path, next);
      try {
        if (raw == null) {
          client
              .create()
              .creatingParentContainersIfNeeded()
              .withMode(CreateMode.PERSISTENT)
              .forPath(path, bytes);
        } else {
          client.setData().withVersion(raw.version()).forPath(path, bytes);
        }
        return next;
      } catch (KeeperException.BadVersionException
          | KeeperException.NodeExistsException
          | KeeperException.NoNodeException raced) {
        // Another writer changed, created or deleted the node since our read: read it again.
      } catch (Exception e) {
        throw ZooKeeperFailure.of("write", path, e);
      }
    }
    throw new IOException(
        "Cannot update %s: it changed under every one of %d attempts (too many writers at once?)"
            .formatted(path, MAX_ATTEMPTS));
  }

  /** Writes {@code value} whatever the node holds: for rebuilding state from its sources only. */
  public <T> void overwrite(String path, Class<T> type, T value) throws IOException {
    requireNonNull(value, "value is null");
    update(path, type, current -> value);
  }

  /** Deletes the node at {@code path} and everything below it; false when there was none. */
  public boolean delete(String path) throws IOException {
    try {
      client.delete().guaranteed().deletingChildrenIfNeeded().forPath(path);
      return true;
    } catch (KeeperException.NoNodeException e) {
      return false;
    } catch (Exception e) {
      throw ZooKeeperFailure.of("delete", path, e);
    }
  }

  /** The mapper values are written with, for callers that show a value as JSON. */
  public static String toJson(Object value) {
    try {
      return JSON.writeValueAsString(value);
    } catch (IOException e) {
      throw new IllegalArgumentException("Cannot write " + value + " as JSON", e);
    }
  }

  private static byte[] encode(String path, Object value) throws IOException {
    try {
      return JSON.writeValueAsBytes(value);
    } catch (IOException e) {
      throw new IOException("Cannot write the value of " + path + " as JSON: " + e.getMessage(), e);
    }
  }

  private static <T> T decode(String path, byte[] bytes, Class<T> type) throws IOException {
    try {
      if (bytes.length >= 2 && bytes[0] == (byte) 0x1f && bytes[1] == (byte) 0x8b) {
        // gzip's magic, which no JSON text starts with: a large value written compressed (a
        // server's report of many files, ServedFiles.encode)
        try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(bytes))) {
          return JSON.readValue(in, type);
        }
      }
      return JSON.readValue(bytes, type);
    } catch (IOException e) {
      throw new IOException(
          "Cannot read %s: its value is not a %s (%s; repair it with `bin/shelfmark cluster recover`)"
              .formatted(path, type.getSimpleName(), e.getMessage()),
          e);
    }
  }
}
