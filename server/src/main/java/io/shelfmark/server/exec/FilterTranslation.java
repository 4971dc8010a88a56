package io.shelfmark.server.exec;

import static java.util.Objects.requireNonNull;

import io.shelfmark.segment.predicate.And;
import io.shelfmark.segment.predicate.Predicate;
import io.shelfmark.server.column.FileFields;
import io.shelfmark.server.filter.PredicateTranslator;
import io.shelfmark.sql.expression.Expression;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A filter's conjuncts split for one segmented file: the ones translated to segment predicates
 * (combined into one, with the SQL term each came from) and the ones left to check on values read
 * from Parquet. Depends only on the filter and on which segment columns may answer for which table
 * columns, so a file keeps the last one it made (see {@link SegmentFiles.Prepared}). Immutable.
 *
 * @param filter the plan's filter expression this was made for (compared by identity)
 * @param fields the field mapping it was made with (compared by identity)
 * @param predicate the translated conjuncts, one predicate or their AND; empty when none translated
 * @param termOf the SQL term each translated predicate came from
 * @param untranslated the conjuncts no segment predicate stands for, in filter order
 */
record FilterTranslation(
    Expression filter,
    FileFields fields,
    Optional<Predicate> predicate,
    Map<Predicate, Expression> termOf,
    List<Expression> untranslated) {
  FilterTranslation {
    requireNonNull(filter, "filter is null");
    requireNonNull(fields, "fields is null");
    requireNonNull(predicate, "predicate is null");
    termOf = Map.copyOf(requireNonNull(termOf, "termOf is null"));
    untranslated = List.copyOf(requireNonNull(untranslated, "untranslated is null"));
  }

  /** Whether this translation was made for exactly this filter and field mapping. */
  boolean isFor(Expression otherFilter, FileFields otherFields) {
    return filter == otherFilter && fields == otherFields;
  }

  static FilterTranslation of(
      Expression filter,
      FileFields fields,
      List<Expression> conjuncts,
      PredicateTranslator translator) {
    List<Predicate> translated = new ArrayList<>();
    Map<Predicate, Expression> termOf = new LinkedHashMap<>();
    List<Expression> untranslated = new ArrayList<>();
    for (Expression conjunct : conjuncts) {
      Optional<Predicate> predicate = translator.translate(conjunct);
      if (predicate.isPresent()) {
        translated.add(predicate.get());
        termOf.put(predicate.get(), conjunct);
      } else {
        untranslated.add(conjunct);
      }
    }
    Optional<Predicate> predicate =
        translated.isEmpty()
            ? Optional.empty()
            : Optional.of(translated.size() == 1 ? translated.get(0) : new And(translated));
    return new FilterTranslation(filter, fields, predicate, termOf, untranslated);
  }
}
