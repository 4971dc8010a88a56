package io.shelfmark.storage.s3;

import static java.util.Objects.requireNonNull;

import io.shelfmark.storage.spi.Location;
import io.shelfmark.storage.spi.ObjectInfo;
import io.shelfmark.storage.spi.ObjectNotFoundException;
import io.shelfmark.storage.spi.ObjectStore;
import io.shelfmark.storage.spi.RangeBuffers;
import io.shelfmark.storage.spi.StorageException;
import io.shelfmark.storage.spi.StorageStats;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.retries.api.BackoffStrategy;
import software.amazon.awssdk.retries.api.RetryStrategy;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;
import software.amazon.awssdk.services.s3.model.ChecksumMode;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * Amazon S3 or any S3-compatible server as an {@link ObjectStore}, through the AWS SDK v2
 * synchronous client over the Apache HTTP client 5 (a pool of {@link
 * S3StoreOptions#maxConnections()} connections shared by all threads).
 *
 * <p>Requests: {@link #readRange} is one {@code GET} with {@code Range: bytes=a-b}; {@link #stat}
 * one {@code HEAD}; {@link #write} one {@code PUT}; {@link #upload} one {@code PUT} streamed from
 * the file, or a multipart upload above {@link S3StoreOptions#multipartThreshold()}; {@link #list}
 * one {@code ListObjectsV2} per page; {@link #delete} a {@code HEAD} then a {@code DELETE}.
 *
 * <p>Retries: the SDK's standard strategy retries 500s, 503 SlowDown, throttling and network errors
 * up to {@link S3StoreOptions#maxRetries()} times with jittered exponential backoff (and a token
 * bucket that stops retry storms when most requests fail). A ranged read whose body breaks off
 * mid-way is resumed here (a GET of the bytes still missing), within the same budget. Each retry is
 * counted in {@link StorageStats}.
 *
 * <p>Errors: every SDK exception becomes a {@link StorageException} (or {@link
 * ObjectNotFoundException}) naming the location, the endpoint and what to do; the SDK's exception
 * is its cause.
 *
 * <p>Thread safety: safe for concurrent use. Lifecycle: construct, use from any thread, {@link
 * #close()} once (closes the connection pool).
 */
public final class S3ObjectStore implements ObjectStore {
  private static final Logger log = LoggerFactory.getLogger(S3ObjectStore.class);

  private final S3StoreOptions options;
  private final StorageStats stats;
  private final AwsCredentialsProvider credentials;
  private final S3Client client;
  private final S3Errors errors;
  private final AtomicBoolean closed = new AtomicBoolean();

  /**
   * How many new bytes of a ranged GET make a progress report: about half a typical Parquet page of
   * the benchmark's files (150 KB), so a page is handed over soon after its last byte, at a few
   * dozen reports per megabyte.
   */
  static final int PROGRESS_STEP = 64 << 10;

  public S3ObjectStore(S3StoreOptions options) {
    this(options, new StorageStats());
  }

  /**
   * @param stats where requests, bytes and retries are counted (shared with other stores by {@code
   *     RoutingObjectStore})
   */
  public S3ObjectStore(S3StoreOptions options, StorageStats stats) {
    this.options = requireNonNull(options, "options is null");
    this.stats = requireNonNull(stats, "stats is null");
    this.credentials = credentialsProvider(options);
    this.client = buildClient(options, credentials, stats);
    this.errors = new S3Errors(options);
  }

  public S3StoreOptions options() {
    return options;
  }

  @Override
  public ObjectInfo stat(Location location) throws IOException {
    checkUsable("read", location);
    stats.recordHead();
    try {
      HeadObjectResponse head =
          client.headObject(b -> b.bucket(location.bucket()).key(location.key()));
      return new ObjectInfo(location, head.contentLength(), etag(head.eTag()));
    } catch (SdkException e) {
      stats.recordFailure();
      throw errors.translate("read", location, e);
    }
  }

  @Override
  public byte[] readRange(Location location, long offset, int length) throws IOException {
    checkRange(location, offset, length);
    RangeBuffers into = RangeBuffers.single(length);
    read(location, offset, into, null);
    return length == 0 ? new byte[0] : into.piece(0);
  }

  /**
   * {@inheritDoc}
   *
   * <p>The body streams straight into the caller's pieces and is reported every {@link
   * #PROGRESS_STEP} bytes and at its end. A body that breaks off mid-way is resumed where it
   * stopped (a GET of the rest), so the bytes already reported stay as they are.
   */
  @Override
  public void readRange(Location location, long offset, RangeBuffers into, RangeProgress progress)
      throws IOException {
    read(
        location,
        offset,
        requireNonNull(into, "into is null"),
        requireNonNull(progress, "progress is null"));
  }

  private static void checkRange(Location location, long offset, int length) {
    if (offset < 0 || length < 0) {
      throw new IllegalArgumentException(
          "Cannot read "
              + location
              + ": offset "
              + offset
              + " and length "
              + length
              + " must not be negative");
    }
  }

  /** A ranged read into {@code into}, reported to {@code progress} unless it is null. */
  private void read(Location location, long offset, RangeBuffers into, RangeProgress progress)
      throws IOException {
    int length = into.length();
    checkUsable("read", location);
    checkRange(location, offset, length);
    if (length == 0) {
      if (progress != null) {
        progress.arrived(0);
      }
      return;
    }
    int received = 0;
    stats.recordGet();
    for (int attempt = 0; ; attempt++) {
      try {
        readInto(location, offset, into, received, progress);
        return;
      } catch (BrokenBody e) {
        received = e.received;
        // The SDK retries until the response starts; a body cut off mid-way is ours to resume.
        if (attempt >= options.maxRetries()) {
          stats.recordFailure();
          throw new StorageException(
              "Cannot read "
                  + location
                  + ": the connection to "
                  + options.endpointName()
                  + " broke after "
                  + received
                  + " of "
                  + length
                  + " bytes, "
                  + (attempt + 1)
                  + " times (check the network, or raise storage.max-retries)",
              e.getCause());
        }
        log.debug(
            "Resuming {} [{}, +{}) at byte {} after a broken body",
            location,
            offset,
            length,
            received,
            e);
        stats.recordRetry();
      } catch (StorageException e) {
        stats.recordFailure();
        throw e;
      } catch (S3Exception e) {
        stats.recordFailure();
        if (e.statusCode() == 416 || S3Errors.errorCode(e).equals("InvalidRange")) {
          throw pastEnd(location, offset, length, sizeAfterInvalidRange(location, e), e);
        }
        throw errors.translate("read", location, e);
      } catch (SdkException e) {
        stats.recordFailure();
        throw errors.translate("read", location, e);
      } catch (IOException e) {
        stats.recordFailure();
        throw new StorageException(
            "Cannot read " + location + ": " + e + " (talking to " + options.endpointName() + ")",
            e);
      }
    }
  }

  /**
   * One GET of bytes {@code [from, into.length())} of the range starting at {@code offset}, read
   * into {@code into} at {@code from}; a body that breaks off raises {@link BrokenBody} with the
   * bytes of the range received so far (all attempts).
   */
  private void readInto(
      Location location, long offset, RangeBuffers into, int from, RangeProgress progress)
      throws IOException {
    int length = into.length();
    long first = offset + from;
    String rangeHeader = "bytes=" + first + "-" + (offset + length - 1);
    GetObjectRequest request =
        GetObjectRequest.builder()
            .bucket(location.bucket())
            .key(location.key())
            .range(rangeHeader)
            .build();
    try (ResponseInputStream<GetObjectResponse> body = client.getObject(request)) {
      GetObjectResponse response = body.response();
      Optional<ContentRange> range = ContentRange.parse(response.contentRange());
      if (range.map(r -> r.first() != first).orElse(first != 0)) {
        body.abort();
        throw new StorageException(
            "Cannot read "
                + location
                + ": "
                + options.endpointName()
                + " ignored the byte range "
                + rangeHeader
                + " and answered Content-Range "
                + response.contentRange()
                + " (the server must support ranged GETs)");
      }
      int received = from;
      int reported = from;
      try {
        while (received < length) {
          int n = into.readFrom(body, received);
          if (n < 0) {
            break;
          }
          received += n;
          if (progress != null && received - reported >= PROGRESS_STEP && received < length) {
            progress.arrived(received);
            reported = received;
          }
        }
      } catch (IOException e) {
        body.abort();
        throw new BrokenBody(received, e);
      } finally {
        stats.recordBytesRead(received - from);
      }
      if (received < length) {
        long size = range.flatMap(r -> boxed(r.size())).orElse(offset + received);
        throw pastEnd(location, offset, length, size, null);
      }
      if (range.isEmpty()
          && response.contentLength() != null
          && response.contentLength() > length) {
        // A whole-object answer to a range starting at 0: don't download the rest on close.
        body.abort();
      }
      if (progress != null) {
        progress.arrived(length);
      }
    }
  }

  @Override
  public InputStream open(Location location) throws IOException {
    checkUsable("read", location);
    stats.recordGet();
    try {
      ResponseInputStream<GetObjectResponse> body =
          client.getObject(
              b ->
                  b.bucket(location.bucket())
                      .key(location.key())
                      // Whole objects carry a full-object checksum on S3: ask for it and let the
                      // SDK validate it (the client only validates when asked, see buildClient).
                      .checksumMode(ChecksumMode.ENABLED));
      Long length = body.response().contentLength();
      return new S3ObjectInputStream(body, length == null ? -1 : length, stats);
    } catch (SdkException e) {
      stats.recordFailure();
      throw errors.translate("read", location, e);
    }
  }

  @Override
  public void write(Location location, byte[] content) throws IOException {
    checkUsable("write", location);
    requireNonNull(content, "content is null");
    stats.recordPut(content.length);
    try {
      // The content is the caller's and not modified while the request runs: no copy needed.
      client.putObject(
          putRequest(location, content.length),
          RequestBody.fromContentProvider(
              ContentStreamProvider.fromByteArrayUnsafe(content),
              content.length,
              "application/octet-stream"));
    } catch (SdkException e) {
      stats.recordFailure();
      throw errors.translate("write", location, e);
    }
  }

  @Override
  public void upload(Location location, Path file) throws IOException {
    checkUsable("write", location);
    requireNonNull(file, "file is null");
    long size = S3Upload.sizeOf(file, location);
    if (size > options.multipartThreshold()) {
      new S3Upload(client, stats, errors, options.multipartPartSize())
          .multipart(location, file, size);
      return;
    }
    stats.recordPut(size);
    try {
      // RequestBody.fromFile streams the file (and re-opens it for a retry): never all in memory.
      client.putObject(putRequest(location, size), RequestBody.fromFile(file));
    } catch (SdkException e) {
      stats.recordFailure();
      throw errors.translate("write", location, e);
    }
  }

  @Override
  public boolean delete(Location location) throws IOException {
    checkUsable("delete", location);
    // S3 answers a DELETE of a missing key with success: a HEAD first tells whether there was one.
    try {
      stat(location);
    } catch (ObjectNotFoundException e) {
      return false;
    }
    stats.recordDelete();
    try {
      client.deleteObject(b -> b.bucket(location.bucket()).key(location.key()));
      return true;
    } catch (SdkException e) {
      stats.recordFailure();
      throw errors.translate("delete", location, e);
    }
  }

  @Override
  public List<ObjectInfo> list(Location prefix) throws IOException {
    checkUsable("list", prefix);
    List<ObjectInfo> found = new ArrayList<>();
    String token = null;
    do {
      ListObjectsV2Request.Builder request =
          ListObjectsV2Request.builder()
              .bucket(prefix.bucket())
              .prefix(prefix.key())
              .maxKeys(options.listPageSize());
      if (token != null) {
        request.continuationToken(token);
      }
      stats.recordList();
      ListObjectsV2Response page;
      try {
        page = client.listObjectsV2(request.build());
      } catch (SdkException e) {
        stats.recordFailure();
        throw errors.translate("list", prefix, e);
      }
      for (S3Object object : page.contents()) {
        Location location = new Location("s3", prefix.bucket(), object.key());
        found.add(new ObjectInfo(location, object.size(), etag(object.eTag())));
      }
      token = Boolean.TRUE.equals(page.isTruncated()) ? page.nextContinuationToken() : null;
    } while (token != null);
    return found;
  }

  @Override
  public StorageStats stats() {
    return stats;
  }

  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    try {
      client.close();
    } finally {
      if (credentials instanceof AutoCloseable closeable) {
        closeCredentials(closeable);
      }
    }
  }

  @Override
  public String toString() {
    return "S3ObjectStore{" + options.endpointName() + "}";
  }

  private void checkUsable(String verb, Location location) {
    requireNonNull(location, "location is null");
    if (!location.scheme().equals("s3")) {
      throw new IllegalArgumentException(
          "Cannot " + verb + " " + location + " with the S3 store: not an s3:// location");
    }
    if (closed.get()) {
      throw new IllegalStateException(
          "Cannot " + verb + " " + location + ": the S3 object store is closed");
    }
  }

  private static PutObjectRequest putRequest(Location location, long size) {
    return PutObjectRequest.builder()
        .bucket(location.bucket())
        .key(location.key())
        .contentLength(size)
        .build();
  }

  /** The object's size after a 416: from the answer's Content-Range, else from a HEAD. */
  private long sizeAfterInvalidRange(Location location, S3Exception e) throws IOException {
    Optional<String> header =
        e.awsErrorDetails() == null || e.awsErrorDetails().sdkHttpResponse() == null
            ? Optional.empty()
            : e.awsErrorDetails().sdkHttpResponse().firstMatchingHeader("Content-Range");
    OptionalLong size =
        header.flatMap(ContentRange::parse).map(ContentRange::size).orElse(OptionalLong.empty());
    return size.isPresent() ? size.getAsLong() : stat(location).size();
  }

  private static StorageException pastEnd(
      Location location, long offset, int length, long size, Throwable cause) {
    return new StorageException(
        "Cannot read "
            + location
            + ": range ["
            + offset
            + ", "
            + (offset + length)
            + ") is past the end of the object of "
            + size
            + " bytes (read within its size; the object may have been replaced by a shorter one)",
        cause);
  }

  private static Optional<Long> boxed(OptionalLong value) {
    return value.isPresent() ? Optional.of(value.getAsLong()) : Optional.empty();
  }

  /** S3 quotes ETags ({@code "abc"}); callers compare them as plain strings. */
  static Optional<String> etag(String etag) {
    if (etag == null || etag.isEmpty()) {
      return Optional.empty();
    }
    boolean quoted = etag.length() >= 2 && etag.startsWith("\"") && etag.endsWith("\"");
    return Optional.of(quoted ? etag.substring(1, etag.length() - 1) : etag);
  }

  private static AwsCredentialsProvider credentialsProvider(S3StoreOptions options) {
    return options
        .credentials()
        .<AwsCredentialsProvider>map(
            c ->
                StaticCredentialsProvider.create(
                    AwsBasicCredentials.create(c.accessKeyId(), c.secretAccessKey())))
        .orElseGet(() -> DefaultCredentialsProvider.builder().build());
  }

  private static S3Client buildClient(
      S3StoreOptions options, AwsCredentialsProvider credentials, StorageStats stats) {
    RetryStrategy retry =
        AwsRetryStrategy.standardRetryStrategy().toBuilder()
            .maxAttempts(options.maxRetries() + 1)
            .backoffStrategy(
                BackoffStrategy.exponentialDelay(options.retryBaseDelay(), options.retryMaxDelay()))
            .throttlingBackoffStrategy(
                BackoffStrategy.exponentialDelay(
                    options.throttlingBaseDelay(), options.retryMaxDelay()))
            .build();
    S3ClientBuilder builder =
        S3Client.builder()
            .httpClientBuilder(
                Apache5HttpClient.builder()
                    .maxConnections(options.maxConnections())
                    .connectionTimeout(options.connectTimeout())
                    .socketTimeout(options.requestTimeout())
                    .connectionAcquisitionTimeout(options.requestTimeout()))
            .region(Region.of(options.region()))
            .forcePathStyle(options.pathStyleAccess())
            .credentialsProvider(credentials)
            // Validate response checksums only when the request asks for them (whole-object reads
            // in open). S3 returns no full-object checksum for a ranged GET, so on the hot path of
            // queries (their parallel ranged GETs) validation could only cost CPU: setting up the
            // checksum-mode header and the validating stream per request, and checking nothing.
            .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
            .overrideConfiguration(
                c ->
                    c.retryStrategy(retry)
                        .apiCallAttemptTimeout(options.requestTimeout())
                        .addExecutionInterceptor(new RetryCounter(stats)));
    options.endpoint().ifPresent(builder::endpointOverride);
    return builder.build();
  }

  private static void closeCredentials(AutoCloseable credentials) {
    try {
      credentials.close();
    } catch (Exception e) {
      // Closing only stops the provider's refresh thread; the store is closed either way.
      log.warn("Cannot close the AWS credentials provider: {}", e.toString(), e);
    }
  }

  /** A GET whose body broke off after {@code received} bytes (network, not the object). */
  private static final class BrokenBody extends IOException {
    private final int received;

    BrokenBody(int received, IOException cause) {
      super(cause);
      this.received = received;
    }
  }
}
