package io.shelfmark.server.exec;

import io.shelfmark.catalog.snapshot.DataFileInfo;
import io.shelfmark.exchange.profile.FileAnswer;
import io.shelfmark.exchange.profile.FileProfile;
import io.shelfmark.exchange.profile.StarTreeProfile;
import io.shelfmark.exchange.profile.TermProfile;
import io.shelfmark.segment.startree.StarTreeDimension;
import io.shelfmark.sql.expression.Expression;
import io.shelfmark.sql.plan.AggregateCall;
import io.shelfmark.sql.plan.AggregateFunction;
import io.shelfmark.sql.plan.QueryPlan;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The profile of a file answered from a star-tree (EXPLAIN, EXPLAIN ANALYZE): built from the
 * answer's outcome at its call site, never from inside the traversal. The tree part reads nothing,
 * so the file's rows in play, pages, requests and bytes are the tree's rows plus its edges'
 * figures: what the file's statistics in the response count.
 */
final class StarTreeProfiles {
  /** What the profile names the tree's index part: the WHERE terms it answers. */
  static final String INDEX = "star-tree";

  private StarTreeProfiles() {}

  static FileProfile profile(
      QueryPlan plan,
      DataFileInfo file,
      StarTreeAnswer answer,
      long treeNanos,
      List<FileProfile> edges,
      boolean planOnly) {
    List<TermProfile> terms = new ArrayList<>();
    for (Expression conjunct : plan.filterConjuncts()) {
      terms.add(new TermProfile(conjunct.toString(), List.of(INDEX), TermProfile.Check.NONE));
    }
    List<String> fromTree = new ArrayList<>();
    plan.groupKeys().forEach(key -> fromTree.add(key + " (star-tree dimension)"));
    for (AggregateCall call : plan.aggregates()) {
      boolean sketch = call.function() == AggregateFunction.DISTINCT_COUNT_HLL;
      fromTree.add(call + (sketch ? " (star-tree sketch)" : " (star-tree metric)"));
    }
    long definite = answer.docs();
    long candidates = 0;
    long rowGroups = 0;
    long rowGroupsRead = 0;
    long pagesPlanned = 0;
    long lowerBoundBytes = 0;
    long matched = answer.docs();
    long pagesRead = 0;
    long requests = 0;
    long bytesRead = 0;
    long indexNanos = treeNanos;
    long readNanos = 0;
    long aggregateNanos = 0;
    long fetchNanos = 0;
    long decodeNanos = 0;
    for (FileProfile edge : edges) {
      definite += edge.definiteRows();
      candidates += edge.candidateRows();
      // The edges read the same file: its row groups once, those they read per edge.
      rowGroups = Math.max(rowGroups, edge.rowGroups());
      rowGroupsRead = plus(rowGroupsRead, edge.rowGroupsRead());
      pagesPlanned = plus(pagesPlanned, edge.pagesPlanned());
      lowerBoundBytes = plus(lowerBoundBytes, edge.lowerBoundBytes());
      indexNanos += edge.indexNanos();
      if (edge.ran()) {
        matched += edge.matchedRows();
        pagesRead += edge.pagesRead();
        requests += edge.requests();
        bytesRead += edge.bytesRead();
        readNanos += edge.readNanos();
        aggregateNanos += edge.aggregateNanos();
        fetchNanos = plus(fetchNanos, edge.fetchNanos());
        decodeNanos = plus(decodeNanos, edge.decodeNanos());
      }
    }
    boolean ran = !planOnly;
    return new FileProfile(
        file.path(),
        true,
        FileAnswer.STAR_TREE,
        terms,
        fromTree,
        List.of(),
        file.recordCount(),
        definite,
        candidates,
        rowGroups,
        rowGroupsRead,
        pagesPlanned,
        lowerBoundBytes,
        ran,
        ran ? matched : -1,
        ran ? pagesRead : -1,
        ran ? requests : -1,
        ran ? bytesRead : -1,
        indexNanos,
        ran ? readNanos : -1,
        ran ? aggregateNanos : -1,
        ran ? fetchNanos : -1,
        ran ? decodeNanos : -1,
        Optional.of(
            new StarTreeProfile(
                dimensions(answer), answer.records(), answer.docs(), List.copyOf(edges))));
  }

  private static List<String> dimensions(StarTreeAnswer answer) {
    List<String> names = new ArrayList<>();
    for (StarTreeDimension dimension : answer.tree().dimensions()) {
      names.add(dimension.name());
    }
    return names;
  }

  /** A sum that stays -1 (unknown) once one part is unknown. */
  private static long plus(long sum, long value) {
    return sum < 0 || value < 0 ? -1 : sum + value;
  }
}
