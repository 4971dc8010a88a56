package io.shelfmark.exchange.fragment;

/**
 * Bytes that are not a readable plan fragment or fragment response: another format, a version this
 * build does not read (the message names both versions), or truncated or corrupt bytes.
 */
public final class WireFormatException extends IllegalArgumentException {
  public WireFormatException(String message) {
    super(message);
  }

  public WireFormatException(String message, Throwable cause) {
    super(message, cause);
  }
}
