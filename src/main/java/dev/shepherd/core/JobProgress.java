package dev.shepherd.core;

/**
 * T2 (docs/rules.md): the bound on what a job's progress report may cost. The last report is the
 * job's checkpoint, held until the job is answered and handed to each later attempt, so it is
 * bounded like a payload a submitter may send (the HTTP server's default {@code maxBodyBytes}).
 */
public final class JobProgress {
  /** The most bytes one progress report (and so a checkpoint) may cost: 1 MiB. */
  public static final long MAX_BYTES = 1L << 20;

  private JobProgress() {}
}
