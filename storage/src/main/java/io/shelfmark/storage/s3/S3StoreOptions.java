package io.shelfmark.storage.s3;

import static java.util.Objects.requireNonNull;

import io.shelfmark.config.cluster.StaticCredentials;
import io.shelfmark.config.cluster.StorageConfig;
import io.shelfmark.config.cluster.StorageType;
import java.net.URI;
import java.time.Duration;
import java.util.Optional;

/**
 * How {@link S3ObjectStore} reaches S3 or an S3-compatible server. Build with {@link #builder()}
 * (each setting once, the rest default) or derive from the cluster's {@code storage} section with
 * {@link #from(StorageConfig)}.
 *
 * @param endpoint the server, such as {@code http://127.0.0.1:9000}; absent means AWS itself
 * @param region the signing region
 * @param pathStyleAccess address buckets as {@code endpoint/bucket} (needed by most S3-compatible
 *     servers) rather than {@code bucket.endpoint}
 * @param credentials a static key pair; absent means the AWS default credentials chain
 * @param maxConnections the HTTP connection pool size: the most requests in flight at once
 * @param requestTimeout the time limit of one attempt of one request, and the socket read timeout
 * @param connectTimeout the time limit to open a connection
 * @param maxRetries how many times a request failing transiently (500, 503 SlowDown, throttling, a
 *     dropped connection) is retried; 0 = never
 * @param retryBaseDelay the first delay before a retry of a server or network error; each further
 *     retry doubles the ceiling, with full jitter
 * @param throttlingBaseDelay the first delay before a retry of a throttling answer (503 SlowDown):
 *     longer, as the server asked to slow down
 * @param retryMaxDelay the ceiling of any one delay
 * @param listPageSize keys per LIST request (S3 returns at most 1000)
 * @param multipartThreshold files larger than this are uploaded in parts
 * @param multipartPartSize the size of each part but the last (S3's minimum is 5 MiB)
 */
public record S3StoreOptions(
    Optional<URI> endpoint,
    String region,
    boolean pathStyleAccess,
    Optional<StaticCredentials> credentials,
    int maxConnections,
    Duration requestTimeout,
    Duration connectTimeout,
    int maxRetries,
    Duration retryBaseDelay,
    Duration throttlingBaseDelay,
    Duration retryMaxDelay,
    int listPageSize,
    long multipartThreshold,
    long multipartPartSize) {
  public static final String DEFAULT_REGION = StorageConfig.DEFAULT_REGION;
  public static final int DEFAULT_MAX_CONNECTIONS = StorageConfig.DEFAULT_MAX_CONNECTIONS;
  public static final Duration DEFAULT_REQUEST_TIMEOUT = StorageConfig.DEFAULT_REQUEST_TIMEOUT;
  public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(10);
  public static final int DEFAULT_MAX_RETRIES = StorageConfig.DEFAULT_MAX_RETRIES;

  /** The AWS SDK's own base delay for retries of server errors. */
  public static final Duration DEFAULT_RETRY_BASE_DELAY = Duration.ofMillis(100);

  /** The AWS SDK's own base delay for retries of throttling errors. */
  public static final Duration DEFAULT_THROTTLING_BASE_DELAY = Duration.ofSeconds(1);

  public static final Duration DEFAULT_RETRY_MAX_DELAY = Duration.ofSeconds(20);

  /** S3's largest page. */
  public static final int MAX_LIST_PAGE_SIZE = 1000;

  public static final int DEFAULT_LIST_PAGE_SIZE = MAX_LIST_PAGE_SIZE;

  /** S3's smallest part (all parts but the last). */
  public static final long MIN_PART_SIZE = 5L << 20;

  /** S3's largest part. */
  public static final long MAX_PART_SIZE = 5L << 30;

  /**
   * Default threshold for multipart: 64 MiB. Below it one PUT is simplest and a failed upload
   * repeats little; above it parts bound what a retry repeats.
   */
  public static final long DEFAULT_MULTIPART_THRESHOLD = 64L << 20;

  /** Default part size: 16 MiB, so a part attempt fits well in the request timeout. */
  public static final long DEFAULT_MULTIPART_PART_SIZE = 16L << 20;

  public S3StoreOptions {
    requireNonNull(endpoint, "endpoint is null");
    requireNonNull(region, "region is null");
    requireNonNull(credentials, "credentials is null");
    requireNonNull(requestTimeout, "requestTimeout is null");
    requireNonNull(connectTimeout, "connectTimeout is null");
    requireNonNull(retryBaseDelay, "retryBaseDelay is null");
    requireNonNull(throttlingBaseDelay, "throttlingBaseDelay is null");
    requireNonNull(retryMaxDelay, "retryMaxDelay is null");
    check(!region.isBlank(), "storage.region", region, "e.g. us-east-1");
    check(maxConnections >= 1, "storage.max-connections", maxConnections, "expected 1 or more");
    check(requestTimeout.isPositive(), "storage.request-timeout", requestTimeout, "positive");
    check(connectTimeout.isPositive(), "connect-timeout", connectTimeout, "positive");
    check(maxRetries >= 0, "storage.max-retries", maxRetries, "expected 0 or more");
    check(!retryBaseDelay.isNegative(), "retry-base-delay", retryBaseDelay, "not negative");
    check(
        !throttlingBaseDelay.isNegative(),
        "throttling-base-delay",
        throttlingBaseDelay,
        "not negative");
    check(
        retryMaxDelay.compareTo(retryBaseDelay) >= 0
            && retryMaxDelay.compareTo(throttlingBaseDelay) >= 0,
        "retry-max-delay",
        retryMaxDelay,
        "expected at least the base delays");
    check(
        listPageSize >= 1 && listPageSize <= MAX_LIST_PAGE_SIZE,
        "list-page-size",
        listPageSize,
        "expected 1 to " + MAX_LIST_PAGE_SIZE);
    check(
        multipartPartSize >= MIN_PART_SIZE && multipartPartSize <= MAX_PART_SIZE,
        "multipart-part-size",
        multipartPartSize,
        "expected " + MIN_PART_SIZE + " to " + MAX_PART_SIZE + " bytes, S3's limits");
    check(
        multipartThreshold >= multipartPartSize,
        "multipart-threshold",
        multipartThreshold,
        "expected at least the part size " + multipartPartSize);
  }

  public static Builder builder() {
    return new Builder();
  }

  /**
   * The options for the cluster's {@code storage} section; settings the section does not have take
   * their defaults.
   *
   * @throws IllegalArgumentException when the section is not of type s3
   */
  public static S3StoreOptions from(StorageConfig config) {
    requireNonNull(config, "config is null");
    if (config.type() != StorageType.S3) {
      throw new IllegalArgumentException(
          "Cannot open S3 storage: storage.type is " + config.type().configName() + ", not s3");
    }
    Builder builder =
        builder()
            .region(config.region())
            .pathStyleAccess(config.pathStyleAccess())
            .maxConnections(config.maxConnections())
            .requestTimeout(config.requestTimeout())
            .maxRetries(config.maxRetries());
    config.endpoint().ifPresent(builder::endpoint);
    config.credentials().ifPresent(builder::credentials);
    return builder.build();
  }

  /** The endpoint as messages name it: its URI, or AWS S3 with the region. */
  public String endpointName() {
    return endpoint.map(URI::toString).orElse("AWS S3 (" + region + ")");
  }

  private static void check(boolean valid, String key, Object value, String expected) {
    if (!valid) {
      throw new IllegalArgumentException(
          "Cannot use " + key + ": " + value + " (" + expected + ")");
    }
  }

  /** Builds {@link S3StoreOptions}: each setting may be set once, unset ones take defaults. */
  public static final class Builder {
    private URI endpoint;
    private String region;
    private Boolean pathStyleAccess;
    private StaticCredentials credentials;
    private Integer maxConnections;
    private Duration requestTimeout;
    private Duration connectTimeout;
    private Integer maxRetries;
    private Duration retryBaseDelay;
    private Duration throttlingBaseDelay;
    private Duration retryMaxDelay;
    private Integer listPageSize;
    private Long multipartThreshold;
    private Long multipartPartSize;

    private Builder() {}

    public Builder endpoint(URI endpoint) {
      checkUnset("endpoint", this.endpoint);
      this.endpoint = requireNonNull(endpoint, "endpoint is null");
      return this;
    }

    public Builder region(String region) {
      checkUnset("region", this.region);
      this.region = requireNonNull(region, "region is null");
      return this;
    }

    public Builder pathStyleAccess(boolean pathStyleAccess) {
      checkUnset("pathStyleAccess", this.pathStyleAccess);
      this.pathStyleAccess = pathStyleAccess;
      return this;
    }

    public Builder credentials(StaticCredentials credentials) {
      checkUnset("credentials", this.credentials);
      this.credentials = requireNonNull(credentials, "credentials is null");
      return this;
    }

    public Builder credentials(String accessKeyId, String secretAccessKey) {
      return credentials(new StaticCredentials(accessKeyId, secretAccessKey));
    }

    public Builder maxConnections(int maxConnections) {
      checkUnset("maxConnections", this.maxConnections);
      this.maxConnections = maxConnections;
      return this;
    }

    public Builder requestTimeout(Duration requestTimeout) {
      checkUnset("requestTimeout", this.requestTimeout);
      this.requestTimeout = requireNonNull(requestTimeout, "requestTimeout is null");
      return this;
    }

    public Builder connectTimeout(Duration connectTimeout) {
      checkUnset("connectTimeout", this.connectTimeout);
      this.connectTimeout = requireNonNull(connectTimeout, "connectTimeout is null");
      return this;
    }

    public Builder maxRetries(int maxRetries) {
      checkUnset("maxRetries", this.maxRetries);
      this.maxRetries = maxRetries;
      return this;
    }

    public Builder retryBaseDelay(Duration retryBaseDelay) {
      checkUnset("retryBaseDelay", this.retryBaseDelay);
      this.retryBaseDelay = requireNonNull(retryBaseDelay, "retryBaseDelay is null");
      return this;
    }

    public Builder throttlingBaseDelay(Duration throttlingBaseDelay) {
      checkUnset("throttlingBaseDelay", this.throttlingBaseDelay);
      this.throttlingBaseDelay = requireNonNull(throttlingBaseDelay, "throttlingBaseDelay is null");
      return this;
    }

    public Builder retryMaxDelay(Duration retryMaxDelay) {
      checkUnset("retryMaxDelay", this.retryMaxDelay);
      this.retryMaxDelay = requireNonNull(retryMaxDelay, "retryMaxDelay is null");
      return this;
    }

    public Builder listPageSize(int listPageSize) {
      checkUnset("listPageSize", this.listPageSize);
      this.listPageSize = listPageSize;
      return this;
    }

    public Builder multipartThreshold(long multipartThreshold) {
      checkUnset("multipartThreshold", this.multipartThreshold);
      this.multipartThreshold = multipartThreshold;
      return this;
    }

    public Builder multipartPartSize(long multipartPartSize) {
      checkUnset("multipartPartSize", this.multipartPartSize);
      this.multipartPartSize = multipartPartSize;
      return this;
    }

    /**
     * @throws IllegalArgumentException naming the first setting out of its range
     */
    public S3StoreOptions build() {
      return new S3StoreOptions(
          Optional.ofNullable(endpoint),
          region == null ? DEFAULT_REGION : region,
          pathStyleAccess != null && pathStyleAccess,
          Optional.ofNullable(credentials),
          maxConnections == null ? DEFAULT_MAX_CONNECTIONS : maxConnections,
          requestTimeout == null ? DEFAULT_REQUEST_TIMEOUT : requestTimeout,
          connectTimeout == null ? DEFAULT_CONNECT_TIMEOUT : connectTimeout,
          maxRetries == null ? DEFAULT_MAX_RETRIES : maxRetries,
          retryBaseDelay == null ? DEFAULT_RETRY_BASE_DELAY : retryBaseDelay,
          throttlingBaseDelay == null ? DEFAULT_THROTTLING_BASE_DELAY : throttlingBaseDelay,
          retryMaxDelay == null ? DEFAULT_RETRY_MAX_DELAY : retryMaxDelay,
          listPageSize == null ? DEFAULT_LIST_PAGE_SIZE : listPageSize,
          multipartThreshold == null ? DEFAULT_MULTIPART_THRESHOLD : multipartThreshold,
          multipartPartSize == null ? DEFAULT_MULTIPART_PART_SIZE : multipartPartSize);
    }

    private static void checkUnset(String name, Object current) {
      if (current != null) {
        throw new IllegalStateException("Cannot set " + name + ": already set to " + current);
      }
    }
  }
}
