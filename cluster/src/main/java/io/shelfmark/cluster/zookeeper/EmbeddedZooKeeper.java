package io.shelfmark.cluster.zookeeper;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Properties;
import org.apache.zookeeper.server.embedded.ExitHandler;
import org.apache.zookeeper.server.embedded.ZooKeeperServerEmbedded;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A standalone ZooKeeper server inside this process, for one machine ({@code zookeeper.connect:
 * embedded}): listening on 127.0.0.1 only, its snapshots and transaction log in a directory of the
 * node's data directory, so a restarted node finds the state it left. The standalone server of a
 * deployed coordinator ({@code shelfmark zookeeper --host}) listens on the coordinator's address
 * instead, for the other nodes. Its admin server (a Jetty 9 HTTP console) stays off: nothing here
 * needs it, and the project's Jetty is another major version.
 *
 * <p>Lifecycle: {@link #start} returns a serving server; {@link #close} stops it. Thread safe.
 */
public final class EmbeddedZooKeeper implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(EmbeddedZooKeeper.class);

  /** The base time unit of the server; session timeouts may range from 2 to 20 ticks... */
  private static final int TICK_MILLIS = 500;

  /** ...unless widened: up to the longest {@code zookeeper.session-timeout} the config allows. */
  private static final long MAX_SESSION_MILLIS = Duration.ofMinutes(10).toMillis();

  private static final Duration START_TIMEOUT = Duration.ofSeconds(30);

  /** Where the server listens unless told otherwise: this machine only. */
  public static final String LOOPBACK = "127.0.0.1";

  private final ZooKeeperServerEmbedded server;
  private final Path directory;
  private final String host;
  private final int port;
  private final FileChannel lock;

  private EmbeddedZooKeeper(
      ZooKeeperServerEmbedded server, Path directory, String host, int port, FileChannel lock) {
    this.server = server;
    this.directory = directory;
    this.host = host;
    this.port = port;
    this.lock = lock;
  }

  /**
   * Starts a server keeping its data in {@code directory} (created if missing).
   *
   * @param port the client port on 127.0.0.1; 0 picks a free one
   * @throws IOException when the directory cannot be made or the server does not start
   */
  public static EmbeddedZooKeeper start(Path directory, int port) throws IOException {
    return start(directory, LOOPBACK, port);
  }

  /**
   * Starts a server listening on {@code host} (an address of this machine) and keeping its data in
   * {@code directory}.
   *
   * @param port the client port; 0 picks a free one
   * @throws IOException when the directory cannot be made or the server does not start
   */
  public static EmbeddedZooKeeper start(Path directory, String host, int port) throws IOException {
    requireNonNull(directory, "directory is null");
    requireNonNull(host, "host is null");
    Path base = Files.createDirectories(directory.toAbsolutePath());
    FileChannel lock = lock(base);
    try {
      return start(base, host, port, lock);
    } catch (IOException | RuntimeException e) {
      lock.close();
      throw e;
    }
  }

  private static EmbeddedZooKeeper start(Path base, String host, int port, FileChannel lock)
      throws IOException {
    InetAddress address = InetAddress.getByName(host);
    int clientPort = port == 0 ? freePort(address) : port;
    if (port != 0) {
      checkFree(address, port, base);
    }
    Properties properties = new Properties();
    properties.setProperty("clientPort", Integer.toString(clientPort));
    properties.setProperty("clientPortAddress", host);
    properties.setProperty("dataDir", base.resolve("data").toString());
    properties.setProperty("tickTime", Integer.toString(TICK_MILLIS));
    properties.setProperty("maxSessionTimeout", Long.toString(MAX_SESSION_MILLIS));
    properties.setProperty("initLimit", "10");
    properties.setProperty("syncLimit", "5");
    properties.setProperty("admin.enableServer", "false");
    // The state is small (table configs, one record per data file); keep few old snapshots.
    properties.setProperty("autopurge.snapRetainCount", "3");
    properties.setProperty("autopurge.purgeInterval", "1");
    ZooKeeperServerEmbedded server;
    try {
      server =
          ZooKeeperServerEmbedded.builder()
              .baseDir(base)
              .configuration(properties)
              .exitHandler(ExitHandler.LOG_ONLY)
              .build();
      server.start(START_TIMEOUT.toMillis());
    } catch (Exception e) {
      throw new IOException(
          "Cannot start the embedded ZooKeeper server on %s:%d with its data in %s: %s (is the port taken? set zookeeper.port, or 0 for a free one)"
              .formatted(host, clientPort, base, e.getMessage()),
          e);
    }
    log.info("Embedded ZooKeeper serving on {}:{}, data in {}", host, clientPort, base);
    return new EmbeddedZooKeeper(server, base, host, clientPort, lock);
  }

  /** {@code <host>:<port>} ({@code 127.0.0.1:<port>} unless started on another address). */
  public String connectString() {
    return host + ":" + port;
  }

  public int port() {
    return port;
  }

  /** Where the server keeps its data. */
  public Path directory() {
    return directory;
  }

  @Override
  public void close() {
    try {
      server.close();
    } finally {
      try {
        lock.close(); // releases the lock
      } catch (IOException e) {
        log.warn("Cannot release the lock of {}: {}", directory, e.getMessage());
      }
    }
  }

  /**
   * Locks the directory for this process: two servers on one data directory (a node and {@code
   * cluster recover}, or two nodes with the same {@code data-dir}) would corrupt each other's log.
   */
  private static FileChannel lock(Path base) throws IOException {
    FileChannel channel =
        FileChannel.open(
            base.resolve(".lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
    FileLock held;
    try {
      held = channel.tryLock();
    } catch (OverlappingFileLockException e) {
      held = null; // locked by this JVM
    }
    if (held == null) {
      channel.close();
      throw new IOException(
          "Cannot start the embedded ZooKeeper server in %s: another process (or node) uses it (stop the node using this data-dir first)"
              .formatted(base));
    }
    return channel;
  }

  @Override
  public String toString() {
    return "EmbeddedZooKeeper[" + connectString() + ", " + directory + "]";
  }

  /**
   * Fails at once on a taken port: the server itself only notices on its own thread, and {@code
   * start} then waits its whole timeout.
   */
  private static void checkFree(InetAddress address, int port, Path base) throws IOException {
    try (ServerSocket probe = new ServerSocket(port, 1, address)) {
      probe.setReuseAddress(true);
    } catch (IOException e) {
      throw new IOException(
          "Cannot start the embedded ZooKeeper server on %s:%d with its data in %s: the port is taken (set zookeeper.port to a free port, or 0 for any)"
              .formatted(address.getHostAddress(), port, base),
          e);
    }
  }

  private static int freePort(InetAddress address) throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, address)) {
      return socket.getLocalPort();
    }
  }
}
