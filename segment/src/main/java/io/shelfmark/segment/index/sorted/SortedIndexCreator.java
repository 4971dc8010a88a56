package io.shelfmark.segment.index.sorted;

import io.shelfmark.segment.encoding.MonotoneLongs;
import io.shelfmark.segment.format.PartWriter;
import io.shelfmark.segment.spi.ColumnProfile;
import io.shelfmark.segment.spi.CreatorContext;
import io.shelfmark.segment.spi.IndexCreator;
import io.shelfmark.segment.spi.Value;
import io.shelfmark.segment.spi.ValueBatch;
import io.shelfmark.segment.spi.ValueType;
import java.util.Arrays;
import java.util.Optional;

/**
 * Collects the runs of equal values of a sorted column: one value and one start per run. Writes
 * nothing when the profile says the column is not sorted, and checks the order itself as docs
 * arrive, so a wrong profile cannot produce a wrong index.
 */
final class SortedIndexCreator implements IndexCreator {
  private final ColumnProfile profile;
  private final int domain;
  private long[] runValues = new long[16];
  private long[] runStarts = new long[17];
  private int runs;
  private int nonNullSeen;
  private boolean sorted;

  SortedIndexCreator(CreatorContext context) {
    this.profile = context.profile();
    this.sorted = profile.sorted();
    if (context.dictionary().isPresent()) {
      domain = SortedIndexType.DOMAIN_DICTIONARY_IDS;
    } else {
      domain =
          context.column().type() == ValueType.DOUBLE
              ? SortedIndexType.DOMAIN_DOUBLE
              : SortedIndexType.DOMAIN_LONG;
      if (context.column().type() == ValueType.STRING) {
        throw new IllegalArgumentException(
            "Cannot build a sorted index on STRING column %s without a dictionary"
                .formatted(context.column().name()));
      }
    }
  }

  @Override
  public void add(ValueBatch batch) {
    if (!sorted) {
      return;
    }
    // One loop per domain: no per-doc switch, and dictionary ids carry nulls as -1.
    int count = batch.count();
    switch (domain) {
      case SortedIndexType.DOMAIN_DICTIONARY_IDS -> {
        int[] ids = batch.dictionaryIds();
        for (int i = 0; i < count && sorted; i++) {
          if (ids[i] >= 0) {
            addValue(ids[i]);
          }
        }
      }
      case SortedIndexType.DOMAIN_DOUBLE -> {
        double[] doubles = batch.doubles();
        for (int i = 0; i < count && sorted; i++) {
          if (!batch.isNull(i)) {
            addValue(Value.sortableBits(doubles[i]));
          }
        }
      }
      default -> {
        long[] longs = batch.longs();
        for (int i = 0; i < count && sorted; i++) {
          if (!batch.isNull(i)) {
            addValue(longs[i]);
          }
        }
      }
    }
  }

  private void addValue(long value) {
    if (runs == 0 || value != runValues[runs - 1]) {
      if (runs > 0 && value < runValues[runs - 1]) {
        sorted = false;
        return;
      }
      if (runs == runValues.length) {
        runValues = Arrays.copyOf(runValues, runs * 2);
        runStarts = Arrays.copyOf(runStarts, runs * 2 + 1);
      }
      runValues[runs] = value;
      runStarts[runs] = nonNullSeen;
      runs++;
    }
    nonNullSeen++;
  }

  @Override
  public Optional<byte[]> seal() {
    if (!sorted || nonNullSeen != profile.nonNullCount()) {
      return Optional.empty();
    }
    runStarts[runs] = nonNullSeen;
    boolean perDoc = domain != SortedIndexType.DOMAIN_DICTIONARY_IDS && runs > nonNullSeen / 2;
    if (perDoc && runs < nonNullSeen) {
      // Mostly distinct values (timestamps): one value per doc, repeats included, is smaller than
      // a value and a start per run.
      long[] docValues = new long[nonNullSeen];
      for (int run = 0; run < runs; run++) {
        Arrays.fill(docValues, (int) runStarts[run], (int) runStarts[run + 1], runValues[run]);
      }
      runValues = docValues;
      runs = nonNullSeen;
    }
    PartWriter out = new PartWriter(64 + runs * 4);
    out.putByte(domain).putVarInt(profile.leadingNulls()).putVarInt(profile.trailingNulls());
    out.putVarInt(runs);
    if (domain != SortedIndexType.DOMAIN_DICTIONARY_IDS) {
      MonotoneLongs.write(out, runValues, runs);
    } else {
      for (int run = 0; run < runs; run++) {
        if (runValues[run] != run) {
          // Every dictionary id occurs in its column, so the runs are ids 0, 1, 2, ...
          throw new IllegalStateException(
              "Cannot build sorted index: run " + run + " holds id " + runValues[run]);
        }
      }
    }
    // One entry per doc: entry i starts at doc i, so store nothing.
    boolean identity = runs == nonNullSeen;
    out.putByte(identity ? SortedIndexType.STARTS_IDENTITY : SortedIndexType.STARTS_LISTED);
    if (!identity) {
      MonotoneLongs.write(out, runStarts, runs + 1);
    }
    return Optional.of(out.toByteArray());
  }
}
