package io.shelfmark.cli.bench.report;

import static java.util.Objects.requireNonNull;

import com.sun.management.OperatingSystemMXBean;
import java.lang.management.ManagementFactory;

/**
 * The machine a run measured: times only compare within one machine and one run.
 *
 * @param os operating system name and version
 * @param arch CPU architecture
 * @param cpus processors available to the JVM
 * @param cpuModel the CPU model from /proc/cpuinfo, or "unknown"
 * @param memoryBytes physical memory
 * @param java the Java runtime version
 * @param jvm the JVM name and version
 * @param maxHeapBytes the heap limit of the benchmark process (all-in-one runs in it)
 * @param loadAverage the one-minute load average when the run started (others share the machine)
 */
public record MachineInfo(
    String os,
    String arch,
    int cpus,
    String cpuModel,
    long memoryBytes,
    String java,
    String jvm,
    long maxHeapBytes,
    double loadAverage) {
  public MachineInfo {
    requireNonNull(os, "os is null");
    requireNonNull(arch, "arch is null");
    requireNonNull(cpuModel, "cpuModel is null");
    requireNonNull(java, "java is null");
    requireNonNull(jvm, "jvm is null");
  }

  /** This machine and JVM, now. */
  public static MachineInfo current(String cpuModel) {
    OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    return new MachineInfo(
        System.getProperty("os.name") + " " + System.getProperty("os.version"),
        System.getProperty("os.arch"),
        Runtime.getRuntime().availableProcessors(),
        cpuModel,
        os.getTotalMemorySize(),
        Runtime.version().toString(),
        System.getProperty("java.vm.name") + " " + System.getProperty("java.vm.version"),
        Runtime.getRuntime().maxMemory(),
        os.getSystemLoadAverage());
  }
}
