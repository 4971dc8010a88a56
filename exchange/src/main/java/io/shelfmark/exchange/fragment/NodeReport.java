package io.shelfmark.exchange.fragment;

import static java.util.Objects.requireNonNull;

import java.nio.BufferUnderflowException;
import java.util.ArrayList;
import java.util.List;

/**
 * What a server tells a broker about itself for the console's nodes page: the segments it serves
 * and its cache's use per tier. Asked for with the Flight action {@value #ACTION} on the data
 * plane's endpoint (no port or protocol of its own); the action's one result is this record in the
 * {@link WireBuffer} frame (magic "SMNR", version 1):
 *
 * <pre>
 * segments i64 | tiers i32, (name str | usedBytes i64 | maxBytes i64 | entries i64 | hits i64
 *   | misses i64 | evictions i64)...
 * </pre>
 *
 * @param segments segments of the snapshots the server serves
 * @param tiers its cache per tier, memory first
 */
public record NodeReport(long segments, List<Tier> tiers) {
  /** The Flight action's type. */
  public static final String ACTION = "shelfmark.node-report";

  /** "SMNR", read little-endian. */
  static final int MAGIC = 0x524e4d53;

  static final int VERSION = 1;

  public NodeReport {
    tiers = List.copyOf(requireNonNull(tiers, "tiers is null"));
  }

  /** One cache tier's use, as {@code NodeStatus.CacheTierUse} shows it. */
  public record Tier(
      String name,
      long usedBytes,
      long maxBytes,
      long entries,
      long hits,
      long misses,
      long evictions) {
    public Tier {
      requireNonNull(name, "name is null");
    }
  }

  public byte[] encode() {
    WireBuffer.Writer out = new WireBuffer.Writer().i64(segments).i32(tiers.size());
    for (Tier tier : tiers) {
      out.string(tier.name())
          .i64(tier.usedBytes())
          .i64(tier.maxBytes())
          .i64(tier.entries())
          .i64(tier.hits())
          .i64(tier.misses())
          .i64(tier.evictions());
    }
    return out.frame(MAGIC, VERSION);
  }

  public static NodeReport decode(byte[] bytes) {
    WireBuffer.Reader in = WireBuffer.open(bytes, MAGIC, VERSION, "node report");
    try {
      long segments = in.i64();
      int count = in.count(4);
      List<Tier> tiers = new ArrayList<>(count);
      for (int i = 0; i < count; i++) {
        tiers.add(
            new Tier(in.string(), in.i64(), in.i64(), in.i64(), in.i64(), in.i64(), in.i64()));
      }
      if (!in.exhausted()) {
        throw new WireFormatException(
            "Cannot read a node report: bytes follow its last field (the bytes are corrupt)");
      }
      return new NodeReport(segments, tiers);
    } catch (BufferUnderflowException e) {
      throw new WireFormatException(
          "Cannot read a node report of %d bytes: it ends inside a field (the bytes are truncated or corrupt)"
              .formatted(bytes.length),
          e);
    }
  }
}
