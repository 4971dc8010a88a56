package io.shelfmark.catalog.io;

import static java.util.Objects.requireNonNull;

import io.shelfmark.config.cluster.StaticCredentials;
import io.shelfmark.config.cluster.StorageConfig;
import io.shelfmark.config.cluster.StorageType;
import io.shelfmark.config.unit.DataSize;
import io.shelfmark.config.unit.DurationFormat;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The catalog properties {@link ObjectStoreFileIO#initialize(Map)} understands. Iceberg hands a
 * FileIO every property of its catalog, so only names starting with {@value #PREFIX} are checked;
 * an unknown one among those is refused (it is almost always a typo).
 *
 * <p>Storage properties ({@code shelfmark.storage.*}, {@code shelfmark.s3.*}, {@code
 * shelfmark.local.*}) matter only when the FileIO builds its own {@code ObjectStore}, that is when
 * Iceberg instantiates it reflectively through {@code io-impl}. Stream properties ({@code
 * shelfmark.io.*}) apply either way.
 *
 * <pre>
 * io-impl=io.shelfmark.catalog.io.ObjectStoreFileIO
 * shelfmark.storage.type=s3                  # s3 | local
 * shelfmark.s3.endpoint=http://127.0.0.1:9000 # absent: AWS itself
 * shelfmark.s3.region=us-east-1
 * shelfmark.s3.path-style-access=true
 * shelfmark.s3.access-key-id=...             # absent (with the secret): AWS default chain
 * shelfmark.s3.secret-access-key=...
 * shelfmark.s3.max-connections=64
 * shelfmark.s3.request-timeout=30s
 * shelfmark.s3.max-retries=5
 * shelfmark.local.root=/data/lake            # for type local
 * shelfmark.io.read-buffer-size=1MiB         # bytes fetched per ranged GET by streams
 * shelfmark.io.temp-dir=/tmp                 # where output files are staged before upload
 * shelfmark.io.shared-store=store-…          # set by Shelfmark: a store of SharedObjectStores
 * </pre>
 */
public final class FileIOProperties {
  public static final String PREFIX = "shelfmark.";
  public static final String STORAGE_TYPE = "shelfmark.storage.type";
  public static final String S3_ENDPOINT = "shelfmark.s3.endpoint";
  public static final String S3_REGION = "shelfmark.s3.region";
  public static final String S3_PATH_STYLE_ACCESS = "shelfmark.s3.path-style-access";
  public static final String S3_ACCESS_KEY_ID = "shelfmark.s3.access-key-id";
  public static final String S3_SECRET_ACCESS_KEY = "shelfmark.s3.secret-access-key";
  public static final String S3_MAX_CONNECTIONS = "shelfmark.s3.max-connections";
  public static final String S3_REQUEST_TIMEOUT = "shelfmark.s3.request-timeout";
  public static final String S3_MAX_RETRIES = "shelfmark.s3.max-retries";
  public static final String LOCAL_ROOT = "shelfmark.local.root";
  public static final String READ_BUFFER_SIZE = "shelfmark.io.read-buffer-size";
  public static final String TEMP_DIR = "shelfmark.io.temp-dir";

  /**
   * The name under which {@link SharedObjectStores} holds the store to use: set by the catalog
   * openers whose catalog builds FileIOs reflectively (Glue), never by users.
   */
  public static final String SHARED_STORE = "shelfmark.io.shared-store";

  /**
   * One ranged GET per MiB read sequentially: manifests and metadata files (tens of KiB to a few
   * MiB) take one or a few requests, and a seek wastes at most this much transfer.
   */
  public static final DataSize DEFAULT_READ_BUFFER_SIZE = DataSize.ofBytes(1 << 20);

  // Ranged GETs below 4 KiB cost a request for almost no bytes; above 64 MiB one buffer per open
  // stream makes memory use surprising.
  static final long MIN_READ_BUFFER_SIZE = 4 << 10;
  static final long MAX_READ_BUFFER_SIZE = 64 << 20;

  private static final List<String> KNOWN =
      List.of(
          STORAGE_TYPE,
          S3_ENDPOINT,
          S3_REGION,
          S3_PATH_STYLE_ACCESS,
          S3_ACCESS_KEY_ID,
          S3_SECRET_ACCESS_KEY,
          S3_MAX_CONNECTIONS,
          S3_REQUEST_TIMEOUT,
          S3_MAX_RETRIES,
          LOCAL_ROOT,
          READ_BUFFER_SIZE,
          TEMP_DIR,
          SHARED_STORE);

  private FileIOProperties() {}

  /**
   * Refuses a {@code shelfmark.*} property this class does not know.
   *
   * @throws IllegalArgumentException naming the property and listing the known ones
   */
  static void checkKnown(Map<String, String> properties) {
    for (String name : properties.keySet()) {
      if (name.startsWith(PREFIX) && !KNOWN.contains(name)) {
        throw new IllegalArgumentException(
            "Cannot use FileIO property %s: unknown (known: %s)"
                .formatted(name, String.join(", ", KNOWN)));
      }
    }
  }

  /** The stream settings: read buffer size and staging directory. */
  static StreamSettings streamSettings(Map<String, String> properties) {
    long bufferSize = DEFAULT_READ_BUFFER_SIZE.bytes();
    String bufferText = properties.get(READ_BUFFER_SIZE);
    if (bufferText != null) {
      bufferSize = parse(READ_BUFFER_SIZE, bufferText, DataSize::parse, "e.g. 1MiB").bytes();
    }
    if (bufferSize < MIN_READ_BUFFER_SIZE || bufferSize > MAX_READ_BUFFER_SIZE) {
      throw new IllegalArgumentException(
          "Cannot use FileIO property %s: %s (expected %s to %s)"
              .formatted(
                  READ_BUFFER_SIZE,
                  bufferText,
                  DataSize.ofBytes(MIN_READ_BUFFER_SIZE),
                  DataSize.ofBytes(MAX_READ_BUFFER_SIZE)));
    }
    String tempDir = properties.get(TEMP_DIR);
    return new StreamSettings(
        (int) bufferSize,
        tempDir == null ? Optional.empty() : Optional.of(Path.of(tempDir).toAbsolutePath()));
  }

  /**
   * The storage described by the {@code shelfmark.storage.*}, {@code shelfmark.s3.*} and {@code
   * shelfmark.local.*} properties.
   *
   * @throws IllegalArgumentException naming the first property that is missing or malformed
   */
  static StorageConfig storageConfig(Map<String, String> properties) {
    String typeText = properties.get(STORAGE_TYPE);
    if (typeText == null) {
      throw new IllegalArgumentException(
          "Cannot initialize ObjectStoreFileIO: property %s is not set and no ObjectStore was given"
                  .formatted(STORAGE_TYPE)
              + " (set it to s3 or local, or construct the FileIO with an ObjectStore)");
    }
    StorageType type = storageType(typeText);
    StorageConfig.Builder builder = StorageConfig.builder().type(type);
    if (type == StorageType.LOCAL) {
      String root = properties.get(LOCAL_ROOT);
      if (root == null) {
        throw new IllegalArgumentException(
            "Cannot initialize ObjectStoreFileIO: %s is local but %s is not set (set it to the data directory)"
                .formatted(STORAGE_TYPE, LOCAL_ROOT));
      }
      return builder.root(Path.of(root).toAbsolutePath()).build();
    }
    ifPresent(
        properties,
        S3_ENDPOINT,
        text -> builder.endpoint(parse(S3_ENDPOINT, text, URI::create, "a URL")));
    ifPresent(properties, S3_REGION, builder::region);
    ifPresent(
        properties,
        S3_PATH_STYLE_ACCESS,
        text -> builder.pathStyleAccess(bool(S3_PATH_STYLE_ACCESS, text)));
    ifPresent(
        properties,
        S3_MAX_CONNECTIONS,
        text ->
            builder.maxConnections(
                parse(S3_MAX_CONNECTIONS, text, Integer::parseInt, "a whole number")));
    ifPresent(
        properties,
        S3_MAX_RETRIES,
        text ->
            builder.maxRetries(parse(S3_MAX_RETRIES, text, Integer::parseInt, "a whole number")));
    ifPresent(
        properties,
        S3_REQUEST_TIMEOUT,
        text ->
            builder.requestTimeout(
                parse(
                    S3_REQUEST_TIMEOUT,
                    text,
                    DurationFormat::parse,
                    "a duration such as 500ms, 30s or 2m")));
    String keyId = properties.get(S3_ACCESS_KEY_ID);
    String secret = properties.get(S3_SECRET_ACCESS_KEY);
    if ((keyId == null) != (secret == null)) {
      throw new IllegalArgumentException(
          "Cannot initialize ObjectStoreFileIO: %s and %s must be set together (set both, or neither for the AWS default credentials)"
              .formatted(S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY));
    }
    if (keyId != null) {
      builder.credentials(new StaticCredentials(keyId, secret));
    }
    return builder.build();
  }

  private static StorageType storageType(String text) {
    for (StorageType type : StorageType.values()) {
      if (type.configName().equals(text.trim().toLowerCase(Locale.ROOT))) {
        return type;
      }
    }
    throw new IllegalArgumentException(
        "Cannot use FileIO property %s: %s (expected s3 or local)".formatted(STORAGE_TYPE, text));
  }

  private static boolean bool(String name, String text) {
    return switch (text.trim().toLowerCase(Locale.ROOT)) {
      case "true" -> true;
      case "false" -> false;
      default ->
          throw new IllegalArgumentException(
              "Cannot use FileIO property %s: %s (expected true or false)".formatted(name, text));
    };
  }

  private static <T> T parse(
      String name, String text, Function<String, T> parser, String expected) {
    try {
      return parser.apply(text.trim());
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(
          "Cannot use FileIO property %s: %s (expected %s)".formatted(name, text, expected), e);
    }
  }

  private static void ifPresent(
      Map<String, String> properties, String name, Consumer<String> action) {
    String value = properties.get(name);
    if (value != null) {
      action.accept(value);
    }
  }

  /**
   * How streams of one FileIO behave.
   *
   * @param readBufferSize bytes fetched per ranged GET when reading sequentially
   * @param tempDirectory where output files are staged before upload; empty means the JVM's
   *     temporary directory
   */
  record StreamSettings(int readBufferSize, Optional<Path> tempDirectory) {
    static final StreamSettings DEFAULT =
        new StreamSettings((int) DEFAULT_READ_BUFFER_SIZE.bytes(), Optional.empty());

    StreamSettings {
      requireNonNull(tempDirectory, "tempDirectory is null");
      if (readBufferSize <= 0) {
        throw new IllegalArgumentException("readBufferSize is not positive: " + readBufferSize);
      }
    }
  }
}
