package io.shelfmark.segment.dictionary;

import io.shelfmark.segment.encoding.MonotoneLongs;
import io.shelfmark.segment.format.CorruptSegmentException;
import io.shelfmark.segment.format.PartReader;
import io.shelfmark.segment.spi.Dictionary;
import io.shelfmark.segment.spi.ValueType;
import java.util.Optional;

/**
 * Opens dictionary parts.
 *
 * <pre>
 * version 1:  type u8 (ValueType code)
 *             LONG:   MonotoneLongs of the values, strictly increasing
 *             DOUBLE: MonotoneLongs of the values' sortable bits, strictly increasing
 *             STRING: front-coded blocks (see StringDictionary)
 * </pre>
 */
public final class Dictionaries {
  /** The dictionary part's layout version. */
  public static final int VERSION = 1;

  private Dictionaries() {}

  /** Reads a dictionary part of a column of {@code expected} type. */
  public static Dictionary read(PartReader in, ValueType expected) throws CorruptSegmentException {
    return read(in, expected, true);
  }

  /**
   * Reads a dictionary part; {@code validate} false skips the per-value checks of a STRING
   * dictionary, only for a part {@link DictionaryBuilder} has just written.
   */
  static Dictionary read(PartReader in, ValueType expected, boolean validate)
      throws CorruptSegmentException {
    int code = in.getByte();
    Optional<ValueType> type = ValueType.fromCode(code);
    if (type.isEmpty() || type.get() != expected) {
      throw in.corrupt(
          "dictionary of type code %d, but the column holds %s values".formatted(code, expected));
    }
    Dictionary dictionary =
        switch (expected) {
          case LONG, DOUBLE -> {
            MonotoneLongs values = MonotoneLongs.read(in);
            yield new LongDictionary(expected, values);
          }
          case STRING -> StringDictionary.read(in, validate);
        };
    in.expectEnd();
    return dictionary;
  }
}
