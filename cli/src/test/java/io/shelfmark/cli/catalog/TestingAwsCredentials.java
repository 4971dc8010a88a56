package io.shelfmark.cli.catalog;

import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;

/**
 * Fixed credentials for the local Glue-compatible server, named by the catalog property {@code
 * client.credentials-provider} (iceberg-aws calls the static {@link #create()}). moto accepts any
 * key but needs signed requests: it finds the service from the signature's scope, and answers an
 * anonymous request with its dashboard. The test JVM has no credentials for the default chain.
 */
public final class TestingAwsCredentials implements AwsCredentialsProvider {
  private static final AwsCredentials CREDENTIALS =
      AwsBasicCredentials.create("testing-access-key", "testing-secret-key");

  private TestingAwsCredentials() {}

  public static TestingAwsCredentials create() {
    return new TestingAwsCredentials();
  }

  @Override
  public AwsCredentials resolveCredentials() {
    return CREDENTIALS;
  }
}
