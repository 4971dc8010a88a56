package io.shelfmark.config.cluster;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkState;
import static java.util.Objects.requireNonNull;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * Where the Parquet data files are read from (config section {@code storage}).
 *
 * <p>For {@link StorageType#S3}: an absent {@code endpoint} means AWS itself; absent {@code
 * credentials} mean the AWS default credentials chain; {@code root} is absent. For {@link
 * StorageType#LOCAL}: {@code root} is the directory standing in for the bucket space and the
 * S3-only settings ({@code endpoint}, {@code credentials}) are absent.
 *
 * @param type S3 or LOCAL
 * @param endpoint the S3 endpoint such as {@code http://127.0.0.1:9000}; absent means AWS
 * @param region the S3 signing region
 * @param pathStyleAccess whether to address buckets as {@code endpoint/bucket} (most S3-compatible
 *     servers) rather than {@code bucket.endpoint}
 * @param credentials a static key pair; absent means the AWS default credentials chain
 * @param root for LOCAL, the directory holding the data
 * @param maxConnections the HTTP connection pool size
 * @param requestTimeout the time limit for one request attempt
 * @param maxRetries how many times a failed request is retried (0 = never)
 */
public record StorageConfig(
    StorageType type,
    Optional<URI> endpoint,
    String region,
    boolean pathStyleAccess,
    Optional<StaticCredentials> credentials,
    Optional<Path> root,
    int maxConnections,
    Duration requestTimeout,
    int maxRetries) {
  public static final StorageType DEFAULT_TYPE = StorageType.S3;
  public static final String DEFAULT_REGION = "us-east-1";
  public static final boolean DEFAULT_PATH_STYLE_ACCESS = false;
  public static final int DEFAULT_MAX_CONNECTIONS = 64;
  public static final int MAX_MAX_CONNECTIONS = 10_000;
  public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(30);
  public static final int DEFAULT_MAX_RETRIES = 5;
  public static final int MAX_MAX_RETRIES = 100;

  public StorageConfig {
    requireNonNull(type, "type is null");
    requireNonNull(endpoint, "endpoint is null");
    requireNonNull(region, "region is null");
    requireNonNull(credentials, "credentials is null");
    requireNonNull(root, "root is null");
    requireNonNull(requestTimeout, "requestTimeout is null");
    checkArgument(!region.isBlank(), "Cannot use storage.region: blank (e.g. us-east-1)");
    checkArgument(
        maxConnections >= 1 && maxConnections <= MAX_MAX_CONNECTIONS,
        "Cannot use storage.max-connections: %s (expected 1 to %s)",
        maxConnections,
        MAX_MAX_CONNECTIONS);
    checkArgument(
        requestTimeout.isPositive(),
        "Cannot use storage.request-timeout: %s (expected a positive duration)",
        requestTimeout);
    checkArgument(
        maxRetries >= 0 && maxRetries <= MAX_MAX_RETRIES,
        "Cannot use storage.max-retries: %s (expected 0 to %s)",
        maxRetries,
        MAX_MAX_RETRIES);
    if (type == StorageType.LOCAL) {
      checkArgument(root.isPresent(), "Cannot use storage.type local without storage.root");
      checkArgument(endpoint.isEmpty(), "Cannot use storage.endpoint with storage.type local");
      checkArgument(
          credentials.isEmpty(), "Cannot use storage credentials with storage.type local");
    } else {
      checkArgument(root.isEmpty(), "Cannot use storage.root with storage.type s3");
    }
  }

  /** S3 with every default: AWS endpoint, region us-east-1, default credentials chain. */
  public static StorageConfig defaults() {
    return builder().build();
  }

  /** A local directory standing in for object storage. */
  public static StorageConfig local(Path root) {
    return builder().type(StorageType.LOCAL).root(root).build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Builds a {@link StorageConfig}; each setting may be set once, unset ones take defaults. */
  public static final class Builder {
    private StorageType type;
    private URI endpoint;
    private String region;
    private Boolean pathStyleAccess;
    private StaticCredentials credentials;
    private Path root;
    private Integer maxConnections;
    private Duration requestTimeout;
    private Integer maxRetries;

    private Builder() {}

    public Builder type(StorageType type) {
      checkUnset("type", this.type);
      this.type = requireNonNull(type, "type is null");
      return this;
    }

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

    public Builder root(Path root) {
      checkUnset("root", this.root);
      this.root = requireNonNull(root, "root is null");
      return this;
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

    public Builder maxRetries(int maxRetries) {
      checkUnset("maxRetries", this.maxRetries);
      this.maxRetries = maxRetries;
      return this;
    }

    /**
     * @throws IllegalArgumentException if the settings contradict each other (see the record)
     */
    public StorageConfig build() {
      return new StorageConfig(
          type == null ? DEFAULT_TYPE : type,
          Optional.ofNullable(endpoint),
          region == null ? DEFAULT_REGION : region,
          pathStyleAccess == null ? DEFAULT_PATH_STYLE_ACCESS : pathStyleAccess,
          Optional.ofNullable(credentials),
          Optional.ofNullable(root),
          maxConnections == null ? DEFAULT_MAX_CONNECTIONS : maxConnections,
          requestTimeout == null ? DEFAULT_REQUEST_TIMEOUT : requestTimeout,
          maxRetries == null ? DEFAULT_MAX_RETRIES : maxRetries);
    }

    private static void checkUnset(String name, Object current) {
      checkState(current == null, "Cannot set %s twice: already set to %s", name, current);
    }
  }
}
