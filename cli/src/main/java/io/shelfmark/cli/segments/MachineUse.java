package io.shelfmark.cli.segments;

import java.lang.management.CompilationMXBean;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.time.Duration;

/**
 * What the process used of the machine over a stretch of time: CPU time of all its threads, time in
 * garbage collection, and the system load average at the end. On a shared machine the wall time of
 * a build says little; CPU time per row carries across runs.
 *
 * @param processCpu CPU time of every thread of this process
 * @param garbageCollection time the collectors report
 * @param compilation time the JIT compilers report (their threads' CPU, part of {@code processCpu})
 * @param loadAverage the system's one-minute load average when read (negative when unknown)
 */
record MachineUse(
    Duration processCpu, Duration garbageCollection, Duration compilation, double loadAverage) {
  static MachineUse now() {
    long cpu = -1;
    if (ManagementFactory.getOperatingSystemMXBean()
        instanceof com.sun.management.OperatingSystemMXBean os) {
      cpu = os.getProcessCpuTime();
    }
    long gc = 0;
    for (GarbageCollectorMXBean collector : ManagementFactory.getGarbageCollectorMXBeans()) {
      gc += Math.max(0, collector.getCollectionTime());
    }
    CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
    long compilation =
        jit != null && jit.isCompilationTimeMonitoringSupported()
            ? jit.getTotalCompilationTime()
            : 0;
    return new MachineUse(
        Duration.ofNanos(Math.max(0, cpu)),
        Duration.ofMillis(gc),
        Duration.ofMillis(compilation),
        ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
  }

  /** The use since {@code earlier}, with this reading's load average. */
  MachineUse minus(MachineUse earlier) {
    return new MachineUse(
        processCpu.minus(earlier.processCpu),
        garbageCollection.minus(earlier.garbageCollection),
        compilation.minus(earlier.compilation),
        loadAverage);
  }
}
