package io.shelfmark.parquet.schema;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Optional;
import org.apache.parquet.format.ConvertedType;
import org.apache.parquet.format.FieldRepetitionType;
import org.apache.parquet.format.LogicalType;
import org.apache.parquet.format.Type;

/**
 * One leaf (primitive) column of a Parquet file's schema, as the decoder needs it. Built by {@link
 * ParquetSchema#from}; immutable apart from the Thrift {@link LogicalType}, which callers must not
 * modify.
 *
 * @param index the leaf's ordinal in the file, the index of its chunk in {@code RowGroup.columns}
 * @param path the names from the root's child down to the leaf
 * @param physicalType the physical type
 * @param typeLength the byte width of a FIXED_LEN_BYTE_ARRAY (12 for INT96), otherwise 0
 * @param logicalType the logical type annotation, if any
 * @param convertedType the legacy converted type annotation, if any
 * @param precision the decimal precision, or 0
 * @param scale the decimal scale, or 0
 * @param repetition the leaf's own repetition
 * @param maxDefinitionLevel the definition level of a non-null value
 * @param maxRepetitionLevel the number of repeated ancestors (including the leaf itself)
 * @param repeatedLevels one entry per repetition level, outermost first
 * @param role what the leaf stands for: a field, a list element, a map key or value
 * @param fieldPath the dotted path the user names: the LIST or MAP group for list elements and map
 *     keys and values (for example {@code dimensions} for {@code dimensions.key_value.key}),
 *     otherwise the leaf's own dotted path
 */
public record ColumnSchema(
    int index,
    List<String> path,
    Type physicalType,
    int typeLength,
    Optional<LogicalType> logicalType,
    Optional<ConvertedType> convertedType,
    int precision,
    int scale,
    FieldRepetitionType repetition,
    int maxDefinitionLevel,
    int maxRepetitionLevel,
    List<RepeatedLevel> repeatedLevels,
    ColumnRole role,
    String fieldPath) {
  public ColumnSchema {
    path = List.copyOf(requireNonNull(path, "path is null"));
    requireNonNull(physicalType, "physicalType is null");
    requireNonNull(logicalType, "logicalType is null");
    requireNonNull(convertedType, "convertedType is null");
    requireNonNull(repetition, "repetition is null");
    repeatedLevels = List.copyOf(requireNonNull(repeatedLevels, "repeatedLevels is null"));
    requireNonNull(role, "role is null");
    requireNonNull(fieldPath, "fieldPath is null");
    if (path.isEmpty()) {
      throw new IllegalArgumentException("Cannot create column " + index + ": empty path");
    }
    if (maxDefinitionLevel < 0 || maxRepetitionLevel != repeatedLevels.size()) {
      throw new IllegalArgumentException(
          "Cannot create column %s: max definition level %d, max repetition level %d, %d repeated levels"
              .formatted(
                  String.join(".", path),
                  maxDefinitionLevel,
                  maxRepetitionLevel,
                  repeatedLevels.size()));
    }
  }

  /** The path joined with dots, for example {@code dimensions.key_value.key}. */
  public String dottedPath() {
    return String.join(".", path);
  }

  /** Whether the column has a repeated ancestor (a LIST or MAP, or a legacy repeated field). */
  public boolean isRepeated() {
    return maxRepetitionLevel > 0;
  }

  /** Whether values can be null (or absent because an ancestor is null or empty). */
  public boolean isNullable() {
    return maxDefinitionLevel > 0;
  }

  @Override
  public String toString() {
    StringBuilder text = new StringBuilder(dottedPath()).append(' ').append(physicalType.name());
    if (typeLength > 0) {
      text.append('(').append(typeLength).append(')');
    }
    logicalType.ifPresent(type -> text.append(' ').append(type.getSetField().name()));
    if (logicalType.isEmpty()) {
      convertedType.ifPresent(type -> text.append(' ').append(type.name()));
    }
    return text.append(" def ")
        .append(maxDefinitionLevel)
        .append(" rep ")
        .append(maxRepetitionLevel)
        .append(' ')
        .append(role)
        .toString();
  }
}
