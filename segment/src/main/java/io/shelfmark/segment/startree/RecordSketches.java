package io.shelfmark.segment.startree;

import io.shelfmark.segment.format.PartWriter;
import io.shelfmark.segment.spi.ValueType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.datasketches.hll.HllUnion;
import org.apache.datasketches.hll.TgtHllType;

/**
 * The sketches of records being built: a record's sketch slot holds a handle (0: no value yet), and
 * the sketch lives here as an {@link HllUnion}, which takes both values (rows) and sketches
 * (records merged at star nodes and roll-ups) and keeps the same registers as one sketch updated
 * with every value. {@link #seal} turns them into the bytes the sealed tree keeps. Not thread safe.
 */
final class RecordSketches {
  private final List<StarTreeSketch> sketches;
  private final List<HllUnion> unions = new ArrayList<>();
  // Per STRING sketch column: the values fed, by the id a packed row holds.
  private final List<Map<String, Integer>> stringIds = new ArrayList<>();
  private final List<List<String>> strings = new ArrayList<>();

  RecordSketches(List<StarTreeSketch> sketches) {
    this.sketches = List.copyOf(sketches);
    for (int s = 0; s < sketches.size(); s++) {
      stringIds.add(new HashMap<>());
      strings.add(new ArrayList<>());
    }
  }

  /** The long a packed row holds for a STRING sketch column's value. */
  long stringId(int sketch, String value) {
    List<String> values = strings.get(sketch);
    Integer id = stringIds.get(sketch).putIfAbsent(value, values.size());
    if (id == null) {
      values.add(value);
      return values.size() - 1;
    }
    return id;
  }

  /** Adds one row's value (as packed) to the sketch whose handle is at {@code rows[slot]}. */
  void update(long[] rows, int slot, int sketch, long value) {
    HllUnion union = union(rows, slot, sketch);
    if (sketches.get(sketch).type() == ValueType.STRING) {
      String text = strings.get(sketch).get((int) value);
      if (text.isEmpty()) {
        union.update(Long.MIN_VALUE); // the row path's stand-in: update("") is ignored
      } else {
        union.update(text);
      }
    } else {
      union.update(value);
    }
  }

  /**
   * Merges the sketch at {@code source[from]} into the one at {@code target[at]}. The source record
   * is consumed (every caller drops it after merging): its sketch may be moved, not copied.
   */
  void merge(long[] target, int at, long[] source, int from) {
    long handle = source[from];
    if (handle == 0) {
      return;
    }
    if (target[at] == 0) {
      target[at] = handle;
      return;
    }
    if (target[at] == handle) {
      throw new IllegalStateException("Cannot merge a star-tree record's sketch into itself");
    }
    HllUnion into = unions.get((int) target[at] - 1);
    into.update(unions.get((int) handle - 1).getResult(TgtHllType.HLL_8));
    unions.set((int) handle - 1, null);
  }

  /** Gives the record whose sketch handle is at {@code rows[slot]} a copy of its own. */
  void copy(long[] rows, int slot, int sketch) {
    long handle = rows[slot];
    if (handle == 0) {
      return;
    }
    HllUnion copy = new HllUnion(sketches.get(sketch).lgK());
    copy.update(unions.get((int) handle - 1).getResult(TgtHllType.HLL_8));
    unions.add(copy);
    rows[slot] = unions.size();
  }

  private HllUnion union(long[] rows, int slot, int sketch) {
    long handle = rows[slot];
    if (handle != 0) {
      return unions.get((int) handle - 1);
    }
    HllUnion union = new HllUnion(sketches.get(sketch).lgK());
    unions.add(union);
    rows[slot] = unions.size();
    return union;
  }

  /**
   * Writes every record's sketches in their compact HLL_4 form, one after the other, and replaces
   * each handle with {@link StarTree#sketchSlot} of its bytes (0 for none); frees the sketches.
   */
  byte[] seal(long[] rows, int records, int width, int[] offsets) {
    PartWriter out = new PartWriter(Math.max(64, records * sketches.size() * 16));
    int written = 0;
    for (int r = 0; r < records; r++) {
      for (int s = 0; s < sketches.size(); s++) {
        int at = r * width + offsets[s];
        long handle = rows[at];
        if (handle == 0) {
          continue;
        }
        byte[] bytes =
            unions.get((int) handle - 1).getResult(TgtHllType.HLL_4).toCompactByteArray();
        out.putBytes(bytes);
        rows[at] = StarTree.sketchSlot(written, bytes.length);
        written += bytes.length;
      }
    }
    unions.clear();
    stringIds.clear();
    strings.clear();
    return out.toByteArray();
  }
}
