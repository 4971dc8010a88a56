package io.shelfmark.config;

import java.util.Collection;
import java.util.Locale;
import java.util.Optional;

/**
 * Finds the known key a mistyped one was probably meant to be: the same words in another spelling
 * ({@code pathStyleAccess}, {@code path_style_access} for {@code path-style-access}) or a close
 * edit ({@code urii} for {@code uri}).
 */
final class KeySuggestion {
  private static final int MAX_EDIT_DISTANCE = 2;

  private KeySuggestion() {}

  static Optional<String> closest(String unknown, Collection<String> known) {
    String normalized = normalize(unknown);
    for (String candidate : known) {
      if (normalize(candidate).equals(normalized)) {
        return Optional.of(candidate);
      }
    }
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (String candidate : known) {
      int distance = editDistance(normalized, normalize(candidate));
      // Short keys need a tighter bound, or every two-letter typo would "match" something.
      int allowed = Math.min(MAX_EDIT_DISTANCE, Math.max(1, candidate.length() / 3));
      if (distance <= allowed && distance < bestDistance) {
        best = candidate;
        bestDistance = distance;
      }
    }
    return Optional.ofNullable(best);
  }

  private static String normalize(String key) {
    return key.toLowerCase(Locale.ROOT).replace("-", "").replace("_", "");
  }

  /** Levenshtein distance; keys are short, so the quadratic table is fine. */
  private static int editDistance(String a, String b) {
    int[] previous = new int[b.length() + 1];
    int[] current = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      previous[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      current[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
        current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
      }
      int[] swap = previous;
      previous = current;
      current = swap;
    }
    return previous[b.length()];
  }
}
