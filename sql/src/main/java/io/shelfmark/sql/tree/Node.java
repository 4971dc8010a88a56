package io.shelfmark.sql.tree;

import io.shelfmark.sql.SqlPosition;

/**
 * An expression of Shelfmark's own syntax tree: what the query says, before names are resolved and
 * types checked. Produced by {@code io.shelfmark.sql.parse.SqlParser} from Calcite's tree (so no
 * other package sees Calcite types) and consumed by the binder. Every node knows where it is in the
 * SQL, for error messages.
 */
public sealed interface Node
    permits IdentifierNode,
        CastNode,
        LiteralNode,
        FunctionNode,
        OperatorNode,
        SubscriptNode,
        StarNode,
        UnsupportedNode {
  SqlPosition position();

  /**
   * The node as SQL text, normalised (function names lower case, single spaces): the output column
   * name of an unaliased select item.
   */
  String sql();
}
