# Sourced by bin/ scripts: finds a JDK 25 or newer and exports JAVA_HOME, or explains what to install.
# Order: $JAVA_HOME if it is new enough, else the newest JDK under /usr/lib/jvm.

shelfmark_java_major() { # prints the major version of the java binary given, or nothing
  "$1" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java\.specification\.version = \([0-9]*\).*/\1/p' | head -n 1
}

shelfmark_find_jdk() {
  local required=25 candidate major best="" best_major=0
  if [[ -n ${JAVA_HOME:-} && -x $JAVA_HOME/bin/java && -x $JAVA_HOME/bin/javac ]]; then
    major=$(shelfmark_java_major "$JAVA_HOME/bin/java")
    if [[ -n $major && $major -ge $required ]]; then
      return 0
    fi
  fi
  for candidate in /usr/lib/jvm/*; do
    [[ -x $candidate/bin/java && -x $candidate/bin/javac ]] || continue
    major=$(shelfmark_java_major "$candidate/bin/java")
    if [[ -n $major && $major -ge $required && $major -gt $best_major ]]; then
      best=$candidate
      best_major=$major
    fi
  done
  if [[ -z $best ]]; then
    echo "Shelfmark needs a JDK $required or newer: install one (for example the temurin-25-jdk package) or set JAVA_HOME to it${JAVA_HOME:+ (JAVA_HOME=$JAVA_HOME is older or not a JDK)}." >&2
    return 1
  fi
  export JAVA_HOME=$best
}
