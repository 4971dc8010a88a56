package io.shelfmark.indexbuilder.column;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * The current thread's CPU time, for timers that must not count what other processes on a shared
 * machine take. Reads 0 where the JVM does not measure it (then the timers read 0 too).
 */
final class ThreadCpu {
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
  private static final boolean SUPPORTED = THREADS.isCurrentThreadCpuTimeSupported();

  private ThreadCpu() {}

  static long nanos() {
    return SUPPORTED ? Math.max(0, THREADS.getCurrentThreadCpuTime()) : 0;
  }
}
