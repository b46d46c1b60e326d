package com.example;

import dev.shepherd.runtime.Job;
import dev.shepherd.runtime.JobHandler;
import dev.shepherd.runtime.PoolClient;
import dev.shepherd.runtime.PoolVerticle;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

public class HelloPool {

  /** The worker. The pool asks its factory for one per slot incarnation. */
  static class Greeter implements JobHandler {
    private final String greeting;

    Greeter(String greeting) {
      this.greeting = greeting;
    }

    @Override
    public Future<JsonObject> handle(Job job) {
      JsonObject payload = (JsonObject) job.payload();
      return Future.succeededFuture(
          new JsonObject().put("greeting", greeting + ", " + payload.getString("name") + "!"));
    }
  }

  public static void main(String[] args) {
    Vertx vertx = Vertx.vertx();
    JsonObject pool = new JsonObject()
        .put("name", "greetings")
        .put("worker", new JsonObject().put("instances", 2));
    vertx.deployVerticle(new PoolVerticle(() -> new Greeter("Hello")),
        new DeploymentOptions().setConfig(pool)).await();

    PoolClient greetings = PoolClient.create(vertx, "greetings");
    JsonObject result = greetings.submit(new JsonObject().put("name", "world"), JsonObject.class)
        .await();
    System.out.println(result); // {"greeting":"Hello, world!"}

    vertx.close().await();
  }
}
