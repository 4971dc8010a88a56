package io.shelfmark.exchange.fragment;

import io.shelfmark.exchange.profile.ChunkReadProfile;
import io.shelfmark.exchange.profile.FileAnswer;
import io.shelfmark.exchange.profile.FileProfile;
import io.shelfmark.exchange.profile.StarTreeProfile;
import io.shelfmark.exchange.profile.TermProfile;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The wire form of {@link FileProfile}s inside a version 2 {@link FragmentResponse}:
 *
 * <pre>
 * count i32, then per profile:
 *   path str | segment u8 | answer u8 (FileAnswer ordinal)
 *   | terms i32, (term str | indexes i32, str... | check u8 (TermProfile.Check ordinal))...
 *   | columnsFromSegment i32, str... | columnsRead i32, str...
 *   | liveRows i64 | definiteRows i64 | candidateRows i64 | rowGroups i64 | rowGroupsRead i64
 *   | pagesPlanned i64 | lowerBoundBytes i64 | ran u8 | matchedRows i64 | pagesRead i64
 *   | requests i64 | bytesRead i64 | indexNanos i64 | readNanos i64 | aggregateNanos i64
 *   version 4 only:
 *   | fetchNanos i64 | decodeNanos i64
 *   | starTree u8 (0 none, 1 present), when present:
 *       dimensions i32, str... | recordsVisited i64 | rows i64 | edges (count i32, profiles as here)
 *   version 5 only:
 *   | chunkReads u8 (0 none, 1 present), when present:
 *       mode str | requestCost i64 | chunks i64 | chunksReadWhole i64 | pageRequests i64
 *       | pageBytes i64 | wholeRequests i64 | wholeBytes i64
 * </pre>
 *
 * Version 5 adds the read's whole-chunk choice with its cost figures ({@link ChunkReadProfile}).
 *
 * <p>Version 4 (a {@link FragmentResponse} of version 4) adds the read's fetch and decode times and
 * the star-tree answer, whose {@link FileAnswer#STAR_TREE} a version 2 reader does not know. Enum
 * ordinals are part of the format: new values go at the end.
 */
final class FileProfileCodec {
  private FileProfileCodec() {}

  /** Whether {@code profiles} (or their star-tree edges) hold a whole-chunk choice. */
  static boolean needsVersion5(List<FileProfile> profiles) {
    for (FileProfile profile : profiles) {
      if (profile.chunkReads().isPresent()
          || profile.starTree().isPresent() && needsVersion5(profile.starTree().get().edges())) {
        return true;
      }
    }
    return false;
  }

  /** Whether {@code profiles} hold anything version 2 cannot carry. */
  static boolean needsVersion4(List<FileProfile> profiles) {
    for (FileProfile profile : profiles) {
      if (profile.fetchNanos() != -1
          || profile.decodeNanos() != -1
          || profile.starTree().isPresent()) {
        return true;
      }
    }
    return false;
  }

  static void write(WireBuffer.Writer out, List<FileProfile> profiles, int version) {
    out.i32(profiles.size());
    for (FileProfile profile : profiles) {
      out.string(profile.path()).u8(profile.segment() ? 1 : 0).u8(profile.answer().ordinal());
      out.i32(profile.terms().size());
      for (TermProfile term : profile.terms()) {
        out.string(term.term());
        strings(out, term.indexes());
        out.u8(term.check().ordinal());
      }
      strings(out, profile.columnsFromSegment());
      strings(out, profile.columnsRead());
      out.i64(profile.liveRows())
          .i64(profile.definiteRows())
          .i64(profile.candidateRows())
          .i64(profile.rowGroups())
          .i64(profile.rowGroupsRead())
          .i64(profile.pagesPlanned())
          .i64(profile.lowerBoundBytes())
          .u8(profile.ran() ? 1 : 0)
          .i64(profile.matchedRows())
          .i64(profile.pagesRead())
          .i64(profile.requests())
          .i64(profile.bytesRead())
          .i64(profile.indexNanos())
          .i64(profile.readNanos())
          .i64(profile.aggregateNanos());
      if (version >= 4) {
        out.i64(profile.fetchNanos()).i64(profile.decodeNanos());
        if (profile.starTree().isEmpty()) {
          out.u8(0);
        } else {
          StarTreeProfile tree = profile.starTree().get();
          out.u8(1);
          strings(out, tree.dimensions());
          out.i64(tree.recordsVisited()).i64(tree.rows());
          write(out, tree.edges(), version);
        }
      }
      if (version >= 5) {
        if (profile.chunkReads().isEmpty()) {
          out.u8(0);
        } else {
          ChunkReadProfile reads = profile.chunkReads().get();
          out.u8(1)
              .string(reads.mode())
              .i64(reads.requestCost())
              .i64(reads.chunks())
              .i64(reads.chunksReadWhole())
              .i64(reads.pageRequests())
              .i64(reads.pageBytes())
              .i64(reads.wholeRequests())
              .i64(reads.wholeBytes());
        }
      }
    }
  }

  static List<FileProfile> read(WireBuffer.Reader in) {
    return read(in, 0);
  }

  private static List<FileProfile> read(WireBuffer.Reader in, int depth) {
    int count = in.count(4);
    List<FileProfile> profiles = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      String path = in.string();
      boolean segment = in.u8() == 1;
      FileAnswer answer = element(FileAnswer.values(), in.u8(), "file answer");
      int termCount = in.count(4);
      List<TermProfile> terms = new ArrayList<>(termCount);
      for (int t = 0; t < termCount; t++) {
        String term = in.string();
        List<String> indexes = strings(in);
        terms.add(
            new TermProfile(
                term, indexes, element(TermProfile.Check.values(), in.u8(), "term check")));
      }
      List<String> fromSegment = strings(in);
      List<String> read = strings(in);
      long[] figures = new long[7];
      for (int f = 0; f < figures.length; f++) {
        figures[f] = in.i64();
      }
      boolean ran = in.u8() == 1;
      long[] done = new long[7];
      for (int f = 0; f < done.length; f++) {
        done[f] = in.i64();
      }
      long fetchNanos = -1;
      long decodeNanos = -1;
      Optional<StarTreeProfile> starTree = Optional.empty();
      if (in.version() >= 4) {
        fetchNanos = in.i64();
        decodeNanos = in.i64();
        if (in.u8() == 1) {
          List<String> dimensions = strings(in);
          long records = in.i64();
          long rows = in.i64();
          if (depth > 0) {
            throw new WireFormatException(
                "Cannot read a file profile: an edge of a star-tree answer holds a star-tree answer"
                    + " (the bytes are corrupt)");
          }
          starTree =
              Optional.of(new StarTreeProfile(dimensions, records, rows, read(in, depth + 1)));
        }
      }
      Optional<ChunkReadProfile> chunkReads = Optional.empty();
      if (in.version() >= 5 && in.u8() == 1) {
        chunkReads =
            Optional.of(
                new ChunkReadProfile(
                    in.string(),
                    in.i64(),
                    in.i64(),
                    in.i64(),
                    in.i64(),
                    in.i64(),
                    in.i64(),
                    in.i64()));
      }
      profiles.add(
          new FileProfile(
              path,
              segment,
              answer,
              terms,
              fromSegment,
              read,
              figures[0],
              figures[1],
              figures[2],
              figures[3],
              figures[4],
              figures[5],
              figures[6],
              ran,
              done[0],
              done[1],
              done[2],
              done[3],
              done[4],
              done[5],
              done[6],
              fetchNanos,
              decodeNanos,
              starTree,
              chunkReads));
    }
    return profiles;
  }

  private static void strings(WireBuffer.Writer out, List<String> values) {
    out.i32(values.size());
    values.forEach(out::string);
  }

  private static List<String> strings(WireBuffer.Reader in) {
    int count = in.count(4);
    List<String> values = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      values.add(in.string());
    }
    return values;
  }

  private static <T> T element(T[] values, int ordinal, String what) {
    if (ordinal >= values.length) {
      throw new WireFormatException(
          "Cannot read a file profile: %s %d is not one of %s"
              .formatted(what, ordinal, List.of(values)));
    }
    return values[ordinal];
  }
}
