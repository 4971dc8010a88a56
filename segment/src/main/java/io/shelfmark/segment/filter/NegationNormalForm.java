package io.shelfmark.segment.filter;

import io.shelfmark.segment.predicate.And;
import io.shelfmark.segment.predicate.ColumnPredicate;
import io.shelfmark.segment.predicate.IsNull;
import io.shelfmark.segment.predicate.Not;
import io.shelfmark.segment.predicate.Or;
import io.shelfmark.segment.predicate.Predicate;
import java.util.ArrayList;
import java.util.List;

/**
 * Pushes every {@code NOT} down to a comparison or {@code IS NULL} (De Morgan; double negation
 * cancels) and flattens nested ANDs and ORs. Both rewrites hold in SQL's three-valued logic, and
 * once negations sit on leaves a doc matches a tree exactly when the leaves it needs are true: the
 * TRUE sets of AND and OR are intersection and union, and {@code NOT leaf} is true exactly when the
 * leaf's column is not null and the leaf is false.
 */
final class NegationNormalForm {
  private NegationNormalForm() {}

  static Predicate of(Predicate predicate) {
    return rewrite(predicate, false);
  }

  private static Predicate rewrite(Predicate predicate, boolean negated) {
    return switch (predicate) {
      case Not not -> rewrite(not.operand(), !negated);
      case And and ->
          negated ? or(operands(and.operands(), true)) : and(operands(and.operands(), false));
      case Or or ->
          negated ? and(operands(or.operands(), true)) : or(operands(or.operands(), false));
      case ColumnPredicate leaf -> negated ? new Not(leaf) : leaf;
      case IsNull leaf -> negated ? new Not(leaf) : leaf;
    };
  }

  private static List<Predicate> operands(List<Predicate> operands, boolean negated) {
    List<Predicate> rewritten = new ArrayList<>(operands.size());
    for (Predicate operand : operands) {
      rewritten.add(rewrite(operand, negated));
    }
    return rewritten;
  }

  private static Predicate and(List<Predicate> operands) {
    List<Predicate> flat = new ArrayList<>();
    for (Predicate operand : operands) {
      if (operand instanceof And and) {
        flat.addAll(and.operands());
      } else {
        flat.add(operand);
      }
    }
    return flat.size() == 1 ? flat.get(0) : new And(flat);
  }

  private static Predicate or(List<Predicate> operands) {
    List<Predicate> flat = new ArrayList<>();
    for (Predicate operand : operands) {
      if (operand instanceof Or or) {
        flat.addAll(or.operands());
      } else {
        flat.add(operand);
      }
    }
    return flat.size() == 1 ? flat.get(0) : new Or(flat);
  }
}
