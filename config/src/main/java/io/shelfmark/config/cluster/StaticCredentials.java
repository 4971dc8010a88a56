package io.shelfmark.config.cluster;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

/**
 * An access key pair for S3 ({@code storage.access-key-id} and {@code storage.secret-access-key}).
 * Absent credentials mean the AWS default credentials chain (environment, profile, instance role).
 * {@link #toString()} never shows the secret.
 *
 * @param accessKeyId the access key id
 * @param secretAccessKey the secret access key
 */
public record StaticCredentials(String accessKeyId, String secretAccessKey) {
  public StaticCredentials {
    requireNonNull(accessKeyId, "accessKeyId is null");
    requireNonNull(secretAccessKey, "secretAccessKey is null");
    checkArgument(!accessKeyId.isBlank(), "Cannot use storage.access-key-id: blank");
    checkArgument(!secretAccessKey.isBlank(), "Cannot use storage.secret-access-key: blank");
  }

  @Override
  public String toString() {
    return "StaticCredentials[accessKeyId=" + accessKeyId + ", secretAccessKey=****]";
  }
}
