package dev.shepherd.runtime;

/**
 * A job for {@link PoolClient}: the payload, and optionally its id (generated when null), an
 * affinity key, and a timeout overriding the pool's ({@code 0} = the pool's).
 */
public record JobRequest(String job, Object payload, String key, long timeoutMs) {

  public static JobRequest of(Object payload) {
    return new JobRequest(null, payload, null, 0);
  }

  public JobRequest withJob(String id) {
    return new JobRequest(id, payload, key, timeoutMs);
  }

  public JobRequest withKey(String affinityKey) {
    return new JobRequest(job, payload, affinityKey, timeoutMs);
  }

  public JobRequest withTimeoutMs(long timeout) {
    return new JobRequest(job, payload, key, timeout);
  }
}
