package dev.shepherd.runtime;

import dev.shepherd.core.JobView;

/**
 * A wait for a job's outcome ({@link PoolClient#await}) that ended before the job was answered:
 * its time was up, or the coordinator stopped acting. {@link #view()} says where the job was
 * then; the job itself runs on, and a later wait or lookup can find it.
 */
public final class JobWaitTimeoutException extends RuntimeException {
  private static final long serialVersionUID = 1L;
  private final transient JobView view;

  public JobWaitTimeoutException(JobView view) {
    super("job '" + view.job() + "' was not answered within the wait (it is " + view.state()
        + ")", null, false, false);
    this.view = view;
  }

  /** Where the job was when the wait ended. */
  public JobView view() {
    return view;
  }
}
