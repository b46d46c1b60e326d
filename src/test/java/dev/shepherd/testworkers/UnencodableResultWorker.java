package dev.shepherd.testworkers;

import dev.shepherd.runtime.Job;
import dev.shepherd.runtime.JobHandler;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.HashMap;
import java.util.Map;

/**
 * A worker whose results no answer can carry, as its payload asks: {@code "deep"} returns arrays
 * nested 1500 levels deep, {@code "cycle"} a map that contains itself, {@code "thread"} a JSON
 * object holding a {@code Thread}, {@code {"threadUnder": "<key>"}} a JSON object holding a
 * {@code Thread} under that key. Anything else is echoed.
 */
public final class UnencodableResultWorker implements JobHandler {

  @Override
  public Future<Object> handle(Job job) {
    Object payload = job.payload();
    if ("deep".equals(payload)) {
      Object deep = "bottom";
      for (int i = 0; i < 1500; i++) {
        deep = new JsonArray().add(deep);
      }
      return Future.succeededFuture(deep);
    }
    if ("cycle".equals(payload)) {
      Map<String, Object> cycle = new HashMap<>();
      cycle.put("self", cycle);
      return Future.succeededFuture(cycle);
    }
    if ("thread".equals(payload)) {
      return Future.succeededFuture(new JsonObject().put("thread", Thread.currentThread()));
    }
    if (payload instanceof JsonObject json && json.getValue("threadUnder") instanceof String key) {
      return Future.succeededFuture(new JsonObject().put(key, Thread.currentThread()));
    }
    return Future.succeededFuture(payload);
  }
}
