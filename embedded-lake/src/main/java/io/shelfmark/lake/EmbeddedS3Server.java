package io.shelfmark.lake;

import static java.util.Objects.requireNonNull;

import java.io.Closeable;
import java.io.IOException;
import java.net.BindException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.regex.Pattern;
import org.gaul.s3proxy.S3Proxy;
import org.gaul.s3proxy.auth.AuthenticationType;
import org.gaul.s3proxy.nio2blob.FilesystemNio2BlobStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An S3-compatible HTTP server inside this JVM, serving a local directory: S3Proxy over its
 * filesystem blob store, so an object {@code s3://bucket/key} is the plain file {@code
 * <baseDirectory>/bucket/key}. Used by {@code shelfmark quickstart} and by tests that need real S3
 * requests without the network.
 *
 * <p>It listens on {@code 127.0.0.1} only, at a given port or a free one ({@link #port()} reports
 * the real port after {@link #start()}), and checks AWS Signature V4 with one access key and
 * secret. Clients must use path-style addressing ({@code http://127.0.0.1:port/bucket/key}), as
 * there is no virtual-host DNS for buckets.
 *
 * <p>Lifecycle: {@link #builder()} → {@link #start()} once → requests → {@link #close()}
 * (idempotent; a closed server cannot be restarted). {@link #createBucket} works before or after
 * start.
 *
 * <p>Logging: S3Proxy and its (shaded) Jetty log every request at DEBUG, which is logback's level
 * when no configuration file is present. Unless {@link Builder#quietLogging(boolean)} is turned
 * off, {@link #start()} lowers those loggers to WARN when logback is the SLF4J backend and the
 * logging configuration has not set a level for them itself; with another backend, its own
 * configuration decides (set {@code org.gaul} and {@code org.eclipse.jetty} to WARN there).
 *
 * <p>Thread safety: all methods may be called from any thread.
 */
public final class EmbeddedS3Server implements Closeable {
  /**
   * The access key used when the builder is given none: fine for a laptop, never for production.
   */
  public static final String DEFAULT_ACCESS_KEY = "shelfmark";

  /** The secret key used when the builder is given none. */
  public static final String DEFAULT_SECRET_KEY = "shelfmark-secret";

  /** The region clients should sign for; the server accepts any, this one is conventional. */
  public static final String REGION = "us-east-1";

  /** The address the server binds: loopback only, it has no TLS and one shared credential. */
  public static final String HOST = "127.0.0.1";

  // S3Proxy waits 30 s by default for requests in flight when stopped; a test or quickstart
  // shutting down should not hang that long on a client that was abandoned mid-request.
  private static final long STOP_TIMEOUT_MILLIS = 2_000;

  // S3's bucket naming rules (3-63 characters, lowercase letters, digits, dots and hyphens,
  // starting and ending with a letter or digit): a name S3 would refuse is refused here too.
  private static final Pattern BUCKET_NAME = Pattern.compile("[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]");

  private static final Logger log = LoggerFactory.getLogger(EmbeddedS3Server.class);

  private enum State {
    NEW,
    STARTED,
    CLOSED
  }

  private final Path baseDirectory;
  private final int requestedPort;
  private final String accessKey;
  private final String secretKey;
  private final boolean quietLogging;

  // Guarded by this.
  private State state = State.NEW;
  private FilesystemNio2BlobStore blobStore;
  private S3Proxy proxy;
  private int port = -1;

  private EmbeddedS3Server(Builder builder) {
    this.baseDirectory = requireNonNull(builder.baseDirectory, "baseDirectory is null");
    this.requestedPort = builder.port == null ? 0 : builder.port;
    this.accessKey = builder.accessKey == null ? DEFAULT_ACCESS_KEY : builder.accessKey;
    this.secretKey = builder.secretKey == null ? DEFAULT_SECRET_KEY : builder.secretKey;
    this.quietLogging = builder.quietLogging == null || builder.quietLogging;
  }

  public static Builder builder() {
    return new Builder();
  }

  /**
   * Creates the base directory if needed, binds the port and starts serving; returns once the
   * server accepts connections.
   *
   * @throws IOException naming the address when the port is taken or the directory is unusable
   * @throws IllegalStateException when already started or closed
   */
  public synchronized void start() throws IOException {
    if (state != State.NEW) {
      throw new IllegalStateException(
          "Cannot start embedded S3 server: it is "
              + state.name().toLowerCase(Locale.ROOT)
              + " (create a new one)");
    }
    if (quietLogging) {
      ServerLogLevels.quietUnlessConfigured();
    }
    FilesystemNio2BlobStore store = blobStore();
    S3Proxy server =
        S3Proxy.builder()
            .blobStore(store)
            .endpoint(URI.create("http://" + HOST + ":" + requestedPort))
            .awsAuthentication(AuthenticationType.AWS_V4, accessKey, secretKey)
            .stopTimeout(STOP_TIMEOUT_MILLIS)
            .build();
    try {
      server.start();
    } catch (Exception e) {
      stopQuietly(server, e);
      if (hasCause(e, BindException.class)) {
        throw new IOException(
            "Cannot start embedded S3 server on "
                + HOST
                + ":"
                + requestedPort
                + ": the port is in use (choose another port, or 0 for a free one)",
            e);
      }
      throw new IOException(
          "Cannot start embedded S3 server on " + HOST + ":" + requestedPort + ": " + e, e);
    }
    proxy = server;
    port = server.getPort();
    state = State.STARTED;
    log.info("Embedded S3 server at {} serving {}", endpoint(), baseDirectory);
  }

  /** The server's base URI, {@code http://127.0.0.1:<port>}; only after {@link #start()}. */
  public synchronized URI endpoint() {
    return URI.create("http://" + HOST + ":" + port());
  }

  /** The port the server listens on (the real one when it was asked for port 0). */
  public synchronized int port() {
    if (state != State.STARTED) {
      throw new IllegalStateException(
          "Cannot get the port of embedded S3 server: it is "
              + state.name().toLowerCase(Locale.ROOT)
              + " (call start() first)");
    }
    return port;
  }

  public Path baseDirectory() {
    return baseDirectory;
  }

  public String accessKey() {
    return accessKey;
  }

  public String secretKey() {
    return secretKey;
  }

  /**
   * Creates a bucket unless it exists; returns true when it was created. The bucket is the
   * directory {@code <baseDirectory>/<name>}.
   *
   * @throws IllegalArgumentException when the name breaks S3's bucket naming rules
   */
  public synchronized boolean createBucket(String name) throws IOException {
    requireNonNull(name, "name is null");
    if (!BUCKET_NAME.matcher(name).matches() || name.contains("..")) {
      throw new IllegalArgumentException(
          "Cannot create bucket: "
              + name
              + " is not a valid S3 bucket name (3-63 lowercase letters, digits, dots, hyphens;"
              + " starting and ending with a letter or digit)");
    }
    if (state == State.CLOSED) {
      throw new IllegalStateException(
          "Cannot create bucket " + name + ": the embedded S3 server is closed");
    }
    FilesystemNio2BlobStore store = blobStore();
    if (store.containerExists(name)) {
      return false;
    }
    try {
      store.createContainer(name);
    } catch (RuntimeException e) {
      throw new IOException(
          "Cannot create bucket "
              + name
              + " in "
              + baseDirectory
              + ": "
              + e.getMessage()
              + " (check that the directory is writable)",
          e);
    }
    return true;
  }

  /** Stops serving; safe to call more than once. */
  @Override
  public synchronized void close() throws IOException {
    if (state == State.CLOSED) {
      return;
    }
    state = State.CLOSED;
    S3Proxy server = proxy;
    proxy = null;
    if (server != null) {
      try {
        server.stop();
      } catch (Exception e) {
        throw new IOException("Cannot stop embedded S3 server at port " + port + ": " + e, e);
      }
    }
  }

  @Override
  public synchronized String toString() {
    return "EmbeddedS3Server{"
        + (state == State.STARTED ? "http://" + HOST + ":" + port : state)
        + ", "
        + baseDirectory
        + "}";
  }

  private FilesystemNio2BlobStore blobStore() throws IOException {
    if (blobStore == null) {
      try {
        Files.createDirectories(baseDirectory);
      } catch (IOException e) {
        throw new IOException(
            "Cannot create the embedded S3 server's directory "
                + baseDirectory
                + ": "
                + e.getMessage()
                + " (choose a writable directory)",
            e);
      }
      blobStore = new FilesystemNio2BlobStore(baseDirectory.toAbsolutePath().toString());
    }
    return blobStore;
  }

  private static void stopQuietly(S3Proxy server, Exception failure) {
    try {
      server.stop();
    } catch (Exception e) {
      // The start failure is what the caller needs; keep this one attached to it.
      failure.addSuppressed(e);
    }
  }

  private static boolean hasCause(Throwable t, Class<? extends Throwable> type) {
    for (Throwable c = t; c != null; c = c.getCause()) {
      if (type.isInstance(c)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Builds an {@link EmbeddedS3Server}. Each setting may be given once; the base directory is
   * required.
   */
  public static final class Builder {
    private Path baseDirectory;
    private Integer port;
    private String accessKey;
    private String secretKey;
    private Boolean quietLogging;

    private Builder() {}

    /** The directory holding one subdirectory per bucket; created when missing. */
    public Builder baseDirectory(Path baseDirectory) {
      requireNonNull(baseDirectory, "baseDirectory is null");
      checkUnset("baseDirectory", this.baseDirectory);
      this.baseDirectory = baseDirectory;
      return this;
    }

    /** The port to listen on; 0 (the default) picks a free one. */
    public Builder port(int port) {
      checkUnset("port", this.port);
      if (port < 0 || port > 65535) {
        throw new IllegalArgumentException(
            "Cannot set port: " + port + " (use 0 for a free port, or 1-65535)");
      }
      this.port = port;
      return this;
    }

    /** The access key and secret clients must sign with (AWS Signature V4). */
    public Builder credentials(String accessKey, String secretKey) {
      requireNonNull(accessKey, "accessKey is null");
      requireNonNull(secretKey, "secretKey is null");
      checkUnset("credentials", this.accessKey);
      if (accessKey.isEmpty() || secretKey.isEmpty()) {
        throw new IllegalArgumentException(
            "Cannot set credentials: the access key and the secret key must not be empty");
      }
      this.accessKey = accessKey;
      this.secretKey = secretKey;
      return this;
    }

    /** Whether {@link #start()} lowers S3Proxy's and Jetty's loggers to WARN (default true). */
    public Builder quietLogging(boolean quietLogging) {
      checkUnset("quietLogging", this.quietLogging);
      this.quietLogging = quietLogging;
      return this;
    }

    public EmbeddedS3Server build() {
      if (baseDirectory == null) {
        throw new IllegalStateException(
            "Cannot build embedded S3 server: no base directory (call baseDirectory(path))");
      }
      return new EmbeddedS3Server(this);
    }

    private static void checkUnset(String name, Object current) {
      if (current != null) {
        throw new IllegalStateException("Cannot set " + name + ": it is already set to " + current);
      }
    }
  }
}
