package io.shelfmark.sql.bind;

import static java.util.Objects.requireNonNull;

import io.shelfmark.sql.SqlErrorKind;
import io.shelfmark.sql.SqlException;
import io.shelfmark.sql.expression.Expression;
import io.shelfmark.sql.plan.OutputColumn;
import io.shelfmark.sql.tree.IdentifierNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The output column names a clause may refer to (ORDER BY, HAVING): exact spelling first, else the
 * only name equal ignoring case.
 */
final class OutputAliases {
  private final List<OutputColumn> outputs;

  OutputAliases(List<OutputColumn> outputs) {
    this.outputs = List.copyOf(requireNonNull(outputs, "outputs is null"));
  }

  Optional<Expression> find(IdentifierNode node) {
    if (!node.isSimple()) {
      return Optional.empty();
    }
    String name = node.simpleName();
    List<OutputColumn> exact = new ArrayList<>();
    List<OutputColumn> ignoringCase = new ArrayList<>();
    for (OutputColumn output : outputs) {
      if (output.name().equals(name)) {
        exact.add(output);
      } else if (output.name().equalsIgnoreCase(name)) {
        ignoringCase.add(output);
      }
    }
    List<OutputColumn> matches = exact.isEmpty() ? ignoringCase : exact;
    if (matches.isEmpty()) {
      return Optional.empty();
    }
    Expression first = matches.getFirst().expression();
    for (OutputColumn match : matches) {
      if (!match.expression().equals(first)) {
        throw SqlException.of(
            SqlErrorKind.INVALID,
            node.position(),
            "resolve '" + name + "'",
            "several output columns are named " + name,
            "give them distinct aliases");
      }
    }
    return Optional.of(first);
  }
}
