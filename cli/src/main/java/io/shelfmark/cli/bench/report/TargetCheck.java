package io.shelfmark.cli.bench.report;

import static java.util.Objects.requireNonNull;

/**
 * One target of the issue against this run.
 *
 * @param id a stable id such as {@code hot-median/Q2/pinned}
 * @param description the target in words
 * @param target the target value
 * @param measured the measured value; null when not measured in this run
 * @param unit the unit of both values ({@code ms}, {@code bytes}, {@code ratio}, {@code qps}, …)
 * @param status {@code met}, {@code missed} or {@code not-measured}
 * @param detail by how much it was met or missed
 */
public record TargetCheck(
    String id,
    String description,
    double target,
    Double measured,
    String unit,
    String status,
    String detail) {
  public static final String MET = "met";
  public static final String MISSED = "missed";
  public static final String NOT_MEASURED = "not-measured";

  public TargetCheck {
    requireNonNull(id, "id is null");
    requireNonNull(description, "description is null");
    requireNonNull(unit, "unit is null");
    requireNonNull(status, "status is null");
    requireNonNull(detail, "detail is null");
  }
}
