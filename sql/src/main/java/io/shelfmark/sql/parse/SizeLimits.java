package io.shelfmark.sql.parse;

import static java.util.Objects.requireNonNull;

import io.shelfmark.sql.SqlErrorKind;
import io.shelfmark.sql.SqlException;
import io.shelfmark.sql.SqlLimits;
import io.shelfmark.sql.SqlPosition;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;

/**
 * Enforces {@link SqlLimits} in two places, both without recursion so that the check itself cannot
 * overflow the stack it protects:
 *
 * <ol>
 *   <li>on the text, before Calcite parses it: the length, and the nesting of parentheses
 *       (Calcite's parser recurses per parenthesis and reports a stack overflow as a bare "syntax
 *       error");
 *   <li>on Calcite's tree, before Shelfmark converts it: the nesting of expressions (a chain of one
 *       AND or OR counts once, since conversion flattens it), the terms of each AND/OR chain and
 *       the values of each IN list.
 * </ol>
 */
final class SizeLimits {
  private final SqlLimits limits;
  private final SourceText source;

  SizeLimits(SqlLimits limits, SourceText source) {
    this.limits = requireNonNull(limits, "limits is null");
    this.source = requireNonNull(source, "source is null");
  }

  /** Checks the text's length and the nesting of its parentheses. */
  void checkText() {
    String text = source.text();
    if (text.length() > limits.maxSqlLength()) {
      throw refused(
          source.position(limits.maxSqlLength()),
          "the query is "
              + text.length()
              + " characters, over the limit of "
              + limits.maxSqlLength(),
          SqlLimits.MAX_SQL_LENGTH_KEY);
    }
    int depth = 0;
    int logicalKeywords = 0;
    int notRun = 0;
    int i = 0;
    while (i < text.length()) {
      char c = text.charAt(i);
      if (Character.isLetter(c) || c == '_') {
        int end = i;
        while (end < text.length()
            && (Character.isLetterOrDigit(text.charAt(end)) || text.charAt(end) == '_')) {
          end++;
        }
        String word = text.substring(i, end);
        // Calcite's parser spends about 0.3 ms per AND/OR term and recurses per NOT: both are
        // bounded here, before it runs, not only on its tree.
        if (word.equalsIgnoreCase("AND") || word.equalsIgnoreCase("OR")) {
          logicalKeywords++;
          if (logicalKeywords >= limits.maxLogicalTerms()) {
            throw refused(
                source.position(i),
                "the query joins more than " + limits.maxLogicalTerms() + " terms with AND or OR",
                SqlLimits.MAX_LOGICAL_TERMS_KEY);
          }
        }
        notRun = word.equalsIgnoreCase("NOT") ? notRun + 1 : 0;
        if (notRun > limits.maxExpressionDepth()) {
          throw refused(
              source.position(i),
              "NOT nests deeper than the limit of " + limits.maxExpressionDepth(),
              SqlLimits.MAX_EXPRESSION_DEPTH_KEY);
        }
        i = end;
        continue;
      }
      if (Character.isDigit(c)) {
        i++;
        continue;
      }
      if (!Character.isWhitespace(c)) {
        notRun = 0;
      }
      if (c == '\'' || c == '"') {
        i = SourceText.endOfQuoted(text, i, c);
        continue;
      }
      if (c == '-' && text.startsWith("--", i)) {
        int newline = text.indexOf('\n', i);
        i = newline < 0 ? text.length() : newline + 1;
        continue;
      }
      if (c == '/' && text.startsWith("/*", i)) {
        int end = text.indexOf("*/", i + 2);
        i = end < 0 ? text.length() : end + 2;
        continue;
      }
      if (c == '(') {
        depth++;
        if (depth > limits.maxExpressionDepth()) {
          throw refused(
              source.position(i),
              "parentheses nest deeper than the limit of " + limits.maxExpressionDepth(),
              SqlLimits.MAX_EXPRESSION_DEPTH_KEY);
        }
      } else if (c == ')') {
        depth = Math.max(0, depth - 1);
      }
      i++;
    }
  }

  /** Checks the nesting, AND/OR chains and IN lists of a parsed statement. */
  void checkTree(SqlNode statement) {
    record Pending(SqlNode node, int depth, SqlKind parentKind) {}
    Deque<Pending> pending = new ArrayDeque<>();
    pending.push(new Pending(statement, 1, SqlKind.OTHER));
    while (!pending.isEmpty()) {
      Pending next = pending.pop();
      SqlNode node = next.node();
      SqlKind kind = node.getKind();
      boolean chain = kind == SqlKind.AND || kind == SqlKind.OR;
      // A link of an AND/OR chain is flattened into the chain's first node: same level.
      int depth = chain && next.parentKind() == kind ? next.depth() - 1 : next.depth();
      if (depth > limits.maxExpressionDepth()) {
        throw refused(
            NodeConverter.position(node.getParserPosition()),
            "expressions nest deeper than the limit of " + limits.maxExpressionDepth(),
            SqlLimits.MAX_EXPRESSION_DEPTH_KEY);
      }
      if (chain && next.parentKind() != kind) {
        checkChain((SqlCall) node);
      }
      if ((kind == SqlKind.IN || kind == SqlKind.NOT_IN)
          && node instanceof SqlCall in
          && in.operandCount() > 1
          && in.operand(1) instanceof SqlNodeList list
          && list.size() > limits.maxInListSize()) {
        throw refused(
            NodeConverter.position(list.get(limits.maxInListSize()).getParserPosition()),
            "the IN list has "
                + list.size()
                + " values, over the limit of "
                + limits.maxInListSize(),
            SqlLimits.MAX_IN_LIST_SIZE_KEY);
      }
      List<? extends SqlNode> children =
          node instanceof SqlNodeList list
              ? list.getList()
              : node instanceof SqlCall call ? call.getOperandList() : List.of();
      for (SqlNode child : children) {
        if (child != null) {
          pending.push(new Pending(child, depth + 1, kind));
        }
      }
    }
  }

  private void checkChain(SqlCall root) {
    SqlKind kind = root.getKind();
    int terms = 0;
    Deque<SqlNode> pending = new ArrayDeque<>();
    pending.push(root);
    while (!pending.isEmpty()) {
      SqlNode node = pending.pop();
      if (node.getKind() == kind && node instanceof SqlCall call) {
        call.getOperandList().forEach(pending::push);
        continue;
      }
      terms++;
      if (terms > limits.maxLogicalTerms()) {
        throw refused(
            NodeConverter.position(root.getParserPosition()),
            "this " + kind + " has more than " + limits.maxLogicalTerms() + " terms, the limit",
            SqlLimits.MAX_LOGICAL_TERMS_KEY);
      }
    }
  }

  private static SqlException refused(SqlPosition position, String detail, String key) {
    return SqlException.of(
        SqlErrorKind.LIMIT,
        position,
        "plan query",
        detail,
        "simplify the query, or raise " + key + " in the cluster config");
  }
}
