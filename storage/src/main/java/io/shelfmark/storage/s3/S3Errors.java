package io.shelfmark.storage.s3;

import static java.util.Objects.requireNonNull;

import io.shelfmark.storage.spi.Location;
import io.shelfmark.storage.spi.ObjectNotFoundException;
import io.shelfmark.storage.spi.StorageException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.util.Set;
import software.amazon.awssdk.core.exception.AbortedException;
import software.amazon.awssdk.core.exception.ApiCallAttemptTimeoutException;
import software.amazon.awssdk.core.exception.ApiCallTimeoutException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * Turns the AWS SDK's exceptions into Shelfmark's: a message that names the location, the endpoint
 * and what to do, with the SDK's exception kept as the cause (never as the only message).
 */
final class S3Errors {
  static final String CREDENTIALS_HINT =
      "check storage.access-key-id / storage.secret-access-key or the AWS credentials chain";

  private static final Set<String> NOT_FOUND_CODES =
      Set.of("NoSuchKey", "NoSuchBucket", "NotFound");
  private static final Set<String> DENIED_CODES =
      Set.of(
          "AccessDenied",
          "InvalidAccessKeyId",
          "SignatureDoesNotMatch",
          "ExpiredToken",
          "InvalidToken",
          "TokenRefreshRequired");
  private static final Set<String> THROTTLING_CODES =
      Set.of("SlowDown", "Throttling", "ThrottlingException", "RequestLimitExceeded");

  private final S3StoreOptions options;

  S3Errors(S3StoreOptions options) {
    this.options = requireNonNull(options, "options is null");
  }

  /**
   * @param verb what was attempted, as in "Cannot <verb> <location>": read, write, list, delete
   */
  IOException translate(String verb, Location location, SdkException e) {
    String prefix = "Cannot " + verb + " " + location + ": ";
    String endpoint = options.endpointName();
    if (e instanceof S3Exception s3) {
      int status = s3.statusCode();
      String code = errorCode(s3);
      if (status == 404 || NOT_FOUND_CODES.contains(code)) {
        String reason =
            code.equals("NoSuchBucket")
                ? "no bucket " + location.bucket() + " at " + endpoint
                : (code.isEmpty() ? "not found" : code) + " at " + endpoint;
        return new ObjectNotFoundException(location, reason, e);
      }
      if (status == 403 || DENIED_CODES.contains(code)) {
        return new StorageException(
            prefix + "access denied by " + endpoint + " (" + CREDENTIALS_HINT + ")", e);
      }
      if (status == 503 || THROTTLING_CODES.contains(code)) {
        return new StorageException(
            prefix
                + endpoint
                + " is throttling requests ("
                + describe(status, code)
                + ") and "
                + retries()
                + " did not get through (lower the request rate or raise storage.max-retries)",
            e);
      }
      if (status >= 500) {
        return new StorageException(
            prefix
                + endpoint
                + " failed with "
                + describe(status, code)
                + " and "
                + retries()
                + " did not get through (check the server; raise storage.max-retries to wait"
                + " longer)",
            e);
      }
      return new StorageException(
          prefix + endpoint + " refused the request: " + describe(status, code) + " " + message(s3),
          e);
    }
    return translateClientSide(prefix, endpoint, e);
  }

  /** Failures before or around the HTTP exchange: connection, timeout, credentials, interrupt. */
  private IOException translateClientSide(String prefix, String endpoint, SdkException e) {
    if (e instanceof AbortedException || hasCause(e, InterruptedException.class)) {
      Thread.currentThread().interrupt();
      InterruptedIOException interrupted =
          new InterruptedIOException(prefix + "interrupted while talking to " + endpoint);
      interrupted.initCause(e);
      return interrupted;
    }
    if (hasCause(e, UnknownHostException.class)) {
      return new StorageException(
          prefix + "unknown host for " + endpoint + " (check storage.endpoint and DNS)", e);
    }
    if (hasCause(e, ConnectException.class) || hasCause(e, NoRouteToHostException.class)) {
      return new StorageException(
          prefix
              + "cannot connect to "
              + endpoint
              + " (is the S3 server running, and is storage.endpoint right?)",
          e);
    }
    if (e instanceof ApiCallAttemptTimeoutException
        || e instanceof ApiCallTimeoutException
        || hasCause(e, SocketTimeoutException.class)) {
      return new StorageException(
          prefix
              + endpoint
              + " did not answer within storage.request-timeout "
              + options.requestTimeout()
              + " (check the network, or raise storage.request-timeout)",
          e);
    }
    // The SDK reports a missing credentials chain only through this message.
    String message = String.valueOf(e.getMessage());
    if (message.startsWith("Unable to load credentials")) {
      return new StorageException(
          prefix + "no AWS credentials found for " + endpoint + " (" + CREDENTIALS_HINT + ")", e);
    }
    return new StorageException(prefix + message + " (talking to " + endpoint + ")", e);
  }

  private String retries() {
    return options.maxRetries() == 1 ? "1 retry" : options.maxRetries() + " retries";
  }

  static String errorCode(S3Exception e) {
    return e.awsErrorDetails() == null || e.awsErrorDetails().errorCode() == null
        ? ""
        : e.awsErrorDetails().errorCode();
  }

  private static String describe(int status, String code) {
    return code.isEmpty() ? "HTTP " + status : "HTTP " + status + " " + code;
  }

  private static String message(S3Exception e) {
    String message = e.awsErrorDetails() == null ? null : e.awsErrorDetails().errorMessage();
    return message == null ? "" : "(" + message + ")";
  }

  static boolean hasCause(Throwable t, Class<? extends Throwable> type) {
    for (Throwable cause = t; cause != null; cause = cause.getCause()) {
      if (type.isInstance(cause)) {
        return true;
      }
    }
    return false;
  }
}
