package io.shelfmark.server.exec;

import static java.util.Objects.requireNonNull;

import io.shelfmark.exchange.profile.FileProfile;
import io.shelfmark.exchange.profile.ProfileMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Where one query's file executions leave their {@link FileProfile}s (EXPLAIN, EXPLAIN ANALYZE).
 * Thread safe: the files of a query run on several threads.
 */
public final class FileProfiles {
  private static final FileProfiles OFF = new FileProfiles(ProfileMode.OFF);

  private final ProfileMode mode;
  private final Map<String, FileProfile> byPath = new ConcurrentHashMap<>();

  public FileProfiles(ProfileMode mode) {
    this.mode = requireNonNull(mode, "mode is null");
  }

  /** Records nothing: plain queries. */
  public static FileProfiles off() {
    return OFF;
  }

  public ProfileMode mode() {
    return mode;
  }

  public boolean enabled() {
    return mode != ProfileMode.OFF;
  }

  void add(FileProfile profile) {
    if (enabled()) {
      byPath.put(profile.path(), profile);
    }
  }

  /** The profiles of the files that ran, in the order of {@code paths}. */
  public List<FileProfile> inOrder(List<String> paths) {
    List<FileProfile> profiles = new ArrayList<>(byPath.size());
    for (String path : paths) {
      FileProfile profile = byPath.get(path);
      if (profile != null) {
        profiles.add(profile);
      }
    }
    return profiles;
  }
}
