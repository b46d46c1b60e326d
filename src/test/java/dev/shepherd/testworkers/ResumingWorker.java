package dev.shepherd.testworkers;

import dev.shepherd.runtime.Job;
import dev.shepherd.runtime.JobHandler;
import dev.shepherd.runtime.WorkerContext;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A worker for a failover (T2 in docs/rules.md): without a checkpoint it reports {@code
 * {"done": "first half"}} and then never answers, so the job is still running when its leader
 * goes; with one it adds {@code {"resumedFrom": <the checkpoint>, "attempt": n}} to {@link
 * #RESUMED} (for the test to read) and answers it.
 */
public final class ResumingWorker implements JobHandler {
  /** What each resumed attempt was handed, in order. */
  public static final List<JsonObject> RESUMED = new CopyOnWriteArrayList<>();

  @Override
  public Future<Void> start(WorkerContext ctx) {
    return Future.succeededFuture();
  }

  @Override
  public Future<Object> handle(Job job) {
    if (job.checkpoint() == null) {
      job.progress(new JsonObject().put("done", "first half"));
      return Future.future(p -> { });
    }
    JsonObject resumed = new JsonObject().put("resumedFrom", job.checkpoint())
        .put("attempt", job.attempt());
    RESUMED.add(resumed);
    return Future.succeededFuture(resumed);
  }
}
