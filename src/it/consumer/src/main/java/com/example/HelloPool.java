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

  /** The worker. The pool makes one per slot incarnation, so: public, with a no-arg constructor. */
  public static class Greeter implements JobHandler {
    @Override
    public Future<JsonObject> handle(Job job) {
      JsonObject payload = (JsonObject) job.payload();
      return Future.succeededFuture(
          new JsonObject().put("greeting", "Hello, " + payload.getString("name") + "!"));
    }
  }

  public static void main(String[] args) {
    Vertx vertx = Vertx.vertx();
    JsonObject pool = new JsonObject()
        .put("name", "greetings")
        .put("worker", new JsonObject().put("class", Greeter.class.getName()).put("instances", 2));
    vertx.deployVerticle(new PoolVerticle(), new DeploymentOptions().setConfig(pool)).await();

    PoolClient greetings = PoolClient.create(vertx, "greetings");
    Object result = greetings.submit(new JsonObject().put("name", "world")).await();
    System.out.println(result); // {"greeting":"Hello, world!"}

    vertx.close().await();
  }
}
