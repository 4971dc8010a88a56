package io.shelfmark.storage.s3;

import static java.util.Objects.requireNonNull;

import com.google.common.io.ByteStreams;
import io.shelfmark.storage.spi.Location;
import io.shelfmark.storage.spi.StorageException;
import io.shelfmark.storage.spi.StorageStats;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ChecksumAlgorithm;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.UploadPartRequest;
import software.amazon.awssdk.services.s3.model.UploadPartResponse;

/**
 * A multipart upload of one local file: start, one PUT per part streamed from its slice of the
 * file, complete; on any failure, abort so that S3 does not keep (and bill) the parts. Parts go up
 * one after another: the point is bounded memory and bounded retry cost, not parallel bandwidth.
 */
final class S3Upload {
  private static final Logger log = LoggerFactory.getLogger(S3Upload.class);

  private final S3Client client;
  private final StorageStats stats;
  private final S3Errors errors;
  private final long partSize;

  S3Upload(S3Client client, StorageStats stats, S3Errors errors, long partSize) {
    this.client = requireNonNull(client, "client is null");
    this.stats = requireNonNull(stats, "stats is null");
    this.errors = requireNonNull(errors, "errors is null");
    this.partSize = partSize;
  }

  /** The size of a file to upload, or an error naming the file when it cannot be read. */
  static long sizeOf(Path file, Location location) throws StorageException {
    try {
      if (!Files.isRegularFile(file)) {
        throw new NoSuchFileException(file.toString());
      }
      return Files.size(file);
    } catch (IOException e) {
      throw new StorageException(
          "Cannot upload "
              + file
              + " to "
              + location
              + ": "
              + file
              + " is not a readable file (check the path)",
          e);
    }
  }

  void multipart(Location location, Path file, long size) throws IOException {
    stats.recordPut(0);
    String uploadId;
    try {
      // CRC32 per part, declared up front, so that completion can check every part's checksum.
      uploadId =
          client
              .createMultipartUpload(
                  b ->
                      b.bucket(location.bucket())
                          .key(location.key())
                          .checksumAlgorithm(ChecksumAlgorithm.CRC32))
              .uploadId();
    } catch (SdkException e) {
      stats.recordFailure();
      throw errors.translate("write", location, e);
    }
    try {
      List<CompletedPart> parts = uploadParts(location, file, size, uploadId);
      stats.recordPut(0);
      client.completeMultipartUpload(
          b ->
              b.bucket(location.bucket())
                  .key(location.key())
                  .uploadId(uploadId)
                  .multipartUpload(m -> m.parts(parts)));
    } catch (SdkException e) {
      stats.recordFailure();
      IOException failure = errors.translate("write", location, e);
      abort(location, uploadId, failure);
      throw failure;
    } catch (UncheckedIOException e) {
      stats.recordFailure();
      StorageException failure =
          new StorageException(
              "Cannot upload "
                  + file
                  + " to "
                  + location
                  + ": "
                  + e.getMessage()
                  + " (check that the file is readable and not being truncated)",
              e.getCause());
      abort(location, uploadId, failure);
      throw failure;
    } catch (RuntimeException e) {
      stats.recordFailure();
      abort(location, uploadId, e);
      throw e;
    }
  }

  private List<CompletedPart> uploadParts(
      Location location, Path file, long size, String uploadId) {
    List<CompletedPart> parts = new ArrayList<>();
    long offset = 0;
    for (int number = 1; offset < size; number++) {
      long length = Math.min(partSize, size - offset);
      long start = offset;
      UploadPartRequest request =
          UploadPartRequest.builder()
              .bucket(location.bucket())
              .key(location.key())
              .uploadId(uploadId)
              .partNumber(number)
              .contentLength(length)
              .checksumAlgorithm(ChecksumAlgorithm.CRC32)
              .build();
      stats.recordPut(length);
      // The provider opens the file afresh for each attempt, so a retried part re-reads its slice.
      UploadPartResponse response =
          client.uploadPart(
              request,
              RequestBody.fromContentProvider(
                  () -> slice(file, start, length), length, "application/octet-stream"));
      parts.add(
          CompletedPart.builder()
              .partNumber(number)
              .eTag(response.eTag())
              .checksumCRC32(response.checksumCRC32())
              .build());
      offset += length;
    }
    log.debug("Uploaded {} in {} parts of up to {} bytes", location, parts.size(), partSize);
    return parts;
  }

  private static InputStream slice(Path file, long offset, long length) {
    try {
      FileChannel channel = FileChannel.open(file, StandardOpenOption.READ);
      channel.position(offset);
      return ByteStreams.limit(Channels.newInputStream(channel), length);
    } catch (IOException e) {
      // The SDK's provider interface cannot throw IOException; the caller unwraps nothing and
      // reports the upload as failed with this as the cause.
      throw new UncheckedIOException("Cannot read " + file + " at " + offset, e);
    }
  }

  private void abort(Location location, String uploadId, Exception failure) {
    stats.recordDelete();
    try {
      client.abortMultipartUpload(
          b -> b.bucket(location.bucket()).key(location.key()).uploadId(uploadId));
    } catch (SdkException e) {
      stats.recordFailure();
      // The upload failed already; an abort that fails too leaves parts S3 will expire by policy.
      failure.addSuppressed(e);
    }
  }
}
