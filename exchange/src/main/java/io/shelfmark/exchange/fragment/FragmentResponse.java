package io.shelfmark.exchange.fragment;

import static java.util.Objects.requireNonNull;

import io.shelfmark.exchange.profile.FileProfile;
import io.shelfmark.exchange.result.PartialResult;
import java.nio.BufferUnderflowException;
import java.util.List;

/**
 * What a server answers a {@link PlanFragment}: the merged partial result of its files and what
 * producing it cost in object storage (requests and bytes that reached the store) and in the page
 * cache (hits and misses), which the broker sums over servers.
 *
 * <p>Wire form, in the {@link WireBuffer} frame (magic "SMFR"; version 1, 2 when it carries file
 * profiles, 3 when the storage client retried, 4 when its profiles hold a star-tree answer, fetch
 * and decode times or the page cache's hits per tier, {@value #VERSION} when they hold a read's
 * whole-chunk choice):
 *
 * <pre>
 * storageRequests i64 | storageBytesRead i64 | cacheHits i64 | cacheMisses i64
 * | partial result bytes (i32 length; {@link PartialResult#serialize()}, versioned on its own)
 * version 2 to 5: | file profiles ({@link FileProfileCodec}, in the response's version's form)
 * version 3 to 5: | storageRetries i64
 * version 4 and 5: | memoryHits i64 | diskHits i64
 * </pre>
 *
 * A response is written in the lowest version that holds it, so a plain query's answer over
 * well-behaved storage reads on a broker of the release before profiles, and an EXPLAIN's without
 * star-tree or ANALYZE figures on one of the release before version 4.
 *
 * @param profiles the files' profiles of an EXPLAIN or EXPLAIN ANALYZE fragment; empty otherwise
 * @param storageRetries attempts the server's storage client repeated for this fragment
 * @param memoryHits of the page cache's hits, those its memory tier answered; {@code -1} when not
 *     told (a plain query, or a version before 4): carried only with profiles
 * @param diskHits of the page cache's hits, those its disk tier answered; {@code -1} when not told
 */
public record FragmentResponse(
    PartialResult partial,
    long storageRequests,
    long storageBytesRead,
    long cacheHits,
    long cacheMisses,
    List<FileProfile> profiles,
    long storageRetries,
    long memoryHits,
    long diskHits) {
  /** "SMFR", read little-endian. */
  static final int MAGIC = 0x52464d53;

  /**
   * The newest version; version 1 has no profiles, version 2 no storage retries, version 3 no
   * star-tree profiles, fetch and decode times or cache tiers, version 4 no whole-chunk choice.
   */
  static final int VERSION = 5;

  public FragmentResponse {
    requireNonNull(partial, "partial is null");
    profiles = List.copyOf(requireNonNull(profiles, "profiles is null"));
  }

  /** A response without profiles. */
  public FragmentResponse(
      PartialResult partial,
      long storageRequests,
      long storageBytesRead,
      long cacheHits,
      long cacheMisses) {
    this(partial, storageRequests, storageBytesRead, cacheHits, cacheMisses, List.of(), 0, -1, -1);
  }

  /** A response without storage retries. */
  public FragmentResponse(
      PartialResult partial,
      long storageRequests,
      long storageBytesRead,
      long cacheHits,
      long cacheMisses,
      List<FileProfile> profiles) {
    this(partial, storageRequests, storageBytesRead, cacheHits, cacheMisses, profiles, 0, -1, -1);
  }

  /** A response without the page cache's hits per tier. */
  public FragmentResponse(
      PartialResult partial,
      long storageRequests,
      long storageBytesRead,
      long cacheHits,
      long cacheMisses,
      List<FileProfile> profiles,
      long storageRetries) {
    this(
        partial,
        storageRequests,
        storageBytesRead,
        cacheHits,
        cacheMisses,
        profiles,
        storageRetries,
        -1,
        -1);
  }

  public byte[] encode() {
    WireBuffer.Writer out =
        new WireBuffer.Writer()
            .i64(storageRequests)
            .i64(storageBytesRead)
            .i64(cacheHits)
            .i64(cacheMisses)
            .bytes(partial.serialize());
    if (profiles.isEmpty() && storageRetries == 0) {
      return out.frame(MAGIC, 1);
    }
    if (!profiles.isEmpty() && FileProfileCodec.needsVersion5(profiles)) {
      FileProfileCodec.write(out, profiles, 5);
      out.i64(storageRetries).i64(memoryHits).i64(diskHits);
      return out.frame(MAGIC, 5);
    }
    boolean version4 =
        !profiles.isEmpty()
            && (FileProfileCodec.needsVersion4(profiles) || memoryHits != -1 || diskHits != -1);
    if (version4) {
      FileProfileCodec.write(out, profiles, 4);
      out.i64(storageRetries).i64(memoryHits).i64(diskHits);
      return out.frame(MAGIC, 4);
    }
    FileProfileCodec.write(out, profiles, 2);
    if (storageRetries == 0) {
      return out.frame(MAGIC, 2);
    }
    out.i64(storageRetries);
    return out.frame(MAGIC, 3);
  }

  public static FragmentResponse decode(byte[] bytes) {
    WireBuffer.Reader in = WireBuffer.open(bytes, MAGIC, 1, VERSION, "fragment response");
    try {
      long requests = in.i64();
      long bytesRead = in.i64();
      long hits = in.i64();
      long misses = in.i64();
      PartialResult partial = PartialResult.deserialize(in.bytes());
      List<FileProfile> profiles = in.version() >= 2 ? FileProfileCodec.read(in) : List.of();
      long retries = in.version() >= 3 ? in.i64() : 0;
      long memory = in.version() >= 4 ? in.i64() : -1;
      long disk = in.version() >= 4 ? in.i64() : -1;
      if (!in.exhausted()) {
        throw new WireFormatException(
            "Cannot read a fragment response: bytes follow its last field (the bytes are corrupt)");
      }
      return new FragmentResponse(
          partial, requests, bytesRead, hits, misses, profiles, retries, memory, disk);
    } catch (BufferUnderflowException e) {
      throw new WireFormatException(
          "Cannot read a fragment response of %d bytes: it ends inside a field (the bytes are truncated or corrupt)"
              .formatted(bytes.length),
          e);
    }
  }
}
