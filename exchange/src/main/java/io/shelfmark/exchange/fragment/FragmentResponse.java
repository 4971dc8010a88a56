package io.shelfmark.exchange.fragment;

import static java.util.Objects.requireNonNull;

import io.shelfmark.exchange.result.PartialResult;
import java.nio.BufferUnderflowException;

/**
 * What a server answers a {@link PlanFragment}: the merged partial result of its files and what
 * producing it cost in object storage (requests and bytes that reached the store) and in the page
 * cache (hits and misses), which the broker sums over servers.
 *
 * <p>Wire form, in the {@link WireBuffer} frame (magic "SMFR", version {@value #VERSION}):
 *
 * <pre>
 * storageRequests i64 | storageBytesRead i64 | cacheHits i64 | cacheMisses i64
 * | partial result bytes (i32 length; {@link PartialResult#serialize()}, versioned on its own)
 * </pre>
 */
public record FragmentResponse(
    PartialResult partial,
    long storageRequests,
    long storageBytesRead,
    long cacheHits,
    long cacheMisses) {
  /** "SMFR", read little-endian. */
  static final int MAGIC = 0x52464d53;

  static final int VERSION = 1;

  public FragmentResponse {
    requireNonNull(partial, "partial is null");
  }

  public byte[] encode() {
    return new WireBuffer.Writer()
        .i64(storageRequests)
        .i64(storageBytesRead)
        .i64(cacheHits)
        .i64(cacheMisses)
        .bytes(partial.serialize())
        .frame(MAGIC, VERSION);
  }

  public static FragmentResponse decode(byte[] bytes) {
    WireBuffer.Reader in = WireBuffer.open(bytes, MAGIC, VERSION, "fragment response");
    try {
      long requests = in.i64();
      long bytesRead = in.i64();
      long hits = in.i64();
      long misses = in.i64();
      PartialResult partial = PartialResult.deserialize(in.bytes());
      return new FragmentResponse(partial, requests, bytesRead, hits, misses);
    } catch (BufferUnderflowException e) {
      throw new WireFormatException(
          "Cannot read a fragment response of %d bytes: it ends inside a field (the bytes are truncated or corrupt)"
              .formatted(bytes.length),
          e);
    }
  }
}
