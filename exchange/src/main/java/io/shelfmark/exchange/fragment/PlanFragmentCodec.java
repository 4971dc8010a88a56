package io.shelfmark.exchange.fragment;

import io.shelfmark.exchange.profile.ProfileMode;
import java.nio.BufferUnderflowException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The wire form of a {@link PlanFragment}, in the {@link WireBuffer} frame (magic "SMPF", version
 * {@value #VERSION}); the body, little-endian, strings as i32 length + UTF-8:
 *
 * <pre>
 * requestId str | sql str | database: present u8, str if present | table str | schemaId i32
 * | snapshotId i64 | timeoutMillis i64 | lane u8 (0 CHEAP, 1 HEAVY)
 * | maxGroups i64 | maxDistinctValues i64 | maxRows i64
 * | options i32, (name str, value str)... | files i32, path str...
 * version 2 only: | profile u8 (0 OFF, 1 PLAN, 2 ANALYZE)
 * </pre>
 *
 * A fragment whose profile is OFF is written as version 1, so a plain query reads on a server of
 * the release before profiles; only EXPLAIN needs version 2.
 *
 * <p>A new field means a new version; a reader keeps decoding every version it ever wrote, and the
 * golden files under {@code exchange/src/test/resources/golden/} hold each version's bytes.
 */
final class PlanFragmentCodec {
  /** "SMPF", read little-endian. */
  static final int MAGIC = 0x46504d53;

  /** The newest version; version 1 has no profile mode. */
  static final int VERSION = 2;

  private PlanFragmentCodec() {}

  static byte[] encode(PlanFragment fragment) {
    WireBuffer.Writer out = new WireBuffer.Writer();
    out.string(fragment.requestId()).string(fragment.sql());
    out.u8(fragment.database().isPresent() ? 1 : 0);
    fragment.database().ifPresent(out::string);
    out.string(fragment.table()).i32(fragment.schemaId()).i64(fragment.snapshotId());
    out.i64(fragment.timeout().toMillis()).u8(fragment.lane().ordinal());
    out.i64(fragment.limits().maxGroups())
        .i64(fragment.limits().maxDistinctValues())
        .i64(fragment.limits().maxRows());
    out.i32(fragment.options().size());
    for (Map.Entry<String, String> option : fragment.options().entrySet()) {
      out.string(option.getKey()).string(option.getValue());
    }
    out.i32(fragment.files().size());
    for (String file : fragment.files()) {
      out.string(file);
    }
    if (fragment.profile() == ProfileMode.OFF) {
      return out.frame(MAGIC, 1);
    }
    out.u8(fragment.profile().ordinal());
    return out.frame(MAGIC, VERSION);
  }

  static PlanFragment decode(byte[] bytes) {
    WireBuffer.Reader in = WireBuffer.open(bytes, MAGIC, 1, VERSION, "plan fragment");
    try {
      String requestId = in.string();
      String sql = in.string();
      Optional<String> database = in.u8() == 1 ? Optional.of(in.string()) : Optional.empty();
      String table = in.string();
      int schemaId = in.i32();
      long snapshotId = in.i64();
      Duration timeout = Duration.ofMillis(in.i64());
      int lane = in.u8();
      if (lane >= PlanFragment.Lane.values().length) {
        throw new WireFormatException(
            "Cannot read a plan fragment: lane %d is not one of %s"
                .formatted(lane, List.of(PlanFragment.Lane.values())));
      }
      QueryLimits limits = new QueryLimits(in.i64(), in.i64(), in.i64());
      int optionCount = in.count(8);
      Map<String, String> options = new LinkedHashMap<>();
      for (int i = 0; i < optionCount; i++) {
        options.put(in.string(), in.string());
      }
      int fileCount = in.count(4);
      List<String> files = new ArrayList<>(fileCount);
      for (int i = 0; i < fileCount; i++) {
        files.add(in.string());
      }
      ProfileMode profile = ProfileMode.OFF;
      if (in.version() >= 2) {
        int mode = in.u8();
        if (mode >= ProfileMode.values().length) {
          throw new WireFormatException(
              "Cannot read a plan fragment: profile %d is not one of %s"
                  .formatted(mode, List.of(ProfileMode.values())));
        }
        profile = ProfileMode.values()[mode];
      }
      if (!in.exhausted()) {
        throw new WireFormatException(
            "Cannot read a plan fragment: bytes follow its last field (the bytes are corrupt)");
      }
      return new PlanFragment(
          requestId,
          sql,
          database,
          table,
          schemaId,
          snapshotId,
          files,
          timeout,
          PlanFragment.Lane.values()[lane],
          limits,
          options,
          profile);
    } catch (BufferUnderflowException e) {
      throw new WireFormatException(
          "Cannot read a plan fragment of %d bytes: it ends inside a field (the bytes are truncated or corrupt)"
              .formatted(bytes.length),
          e);
    }
  }
}
