package io.shelfmark.cli.client;

/** A broker that cannot be reached or answered unexpectedly; the message is for the user. */
public final class BrokerClientException extends RuntimeException {
  public BrokerClientException(String message) {
    super(message);
  }
}
