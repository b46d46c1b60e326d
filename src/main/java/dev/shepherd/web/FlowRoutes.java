package dev.shepherd.web;

import dev.shepherd.core.GroupSettings;
import dev.shepherd.runtime.access.PoolDirectory;
import dev.shepherd.runtime.access.PoolHandle;
import dev.shepherd.runtime.payload.BadRequest;
import dev.shepherd.runtime.wire.FlowJson;
import dev.shepherd.runtime.wire.RequestDecoder;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.util.Set;

/**
 * The operator's flow controls over HTTP (section 11, F1-F5 in docs/rules.md):
 *
 * <ul>
 *   <li>{@code POST /api/pools/<name>/pause} and {@code …/resume} (no body, or {@code {}}): the
 *       pool stops or starts dispatching (F5); 200 {@code {"name", "paused", "pausedSince"}}.
 *   <li>{@code PUT /api/pools/<name>/groups/<group>} with any of {@code concurrency}, {@code
 *       queueCapacity}, {@code weight}, {@code rateLimit} and {@code paused} ({@link FlowJson}):
 *       the fields given replace the group's, the others stay; 200 with the group as {@code GET}
 *       shows it.
 *   <li>{@code DELETE /api/pools/<name>/groups/<group>}: the group's run-time settings are
 *       dropped, its configured ones (or the pool's defaults) apply again.
 *   <li>{@code GET /api/pools/<name>/groups/<group>}: the group's limits and load, {@code
 *       {"name", "running", "queued", "concurrency", "queueCapacity", "weight", "rateLimit",
 *       "paused", "pausedSince", "heldUntil"}}.
 * </ul>
 *
 * <p>400 naming the field for a bad body or group name (over 256 characters), 404 {@code
 * UNKNOWN_POOL}; the changes pass the same origin and token checks as a submit. A group name in
 * the path is URL-encoded ({@code tenant%2F1} for {@code tenant/1}).
 */
final class FlowRoutes {
  static final String POOL = "/api/pools/:pool";
  static final String GROUP = POOL + "/groups/:group";

  private final PoolDirectory pools;

  FlowRoutes(PoolDirectory pools) {
    this.pools = pools;
  }

  void mount(Router router) {
    router.post(POOL + "/pause").handler(ctx -> pauseOrResume(ctx, true));
    router.post(POOL + "/resume").handler(ctx -> pauseOrResume(ctx, false));
    router.put(GROUP).handler(this::set);
    router.delete(GROUP).handler(this::reset);
    router.get(GROUP).handler(this::get);
  }

  private void pauseOrResume(RoutingContext ctx, boolean pause) {
    PoolHandle pool = HttpErrors.pool(pools, ctx);
    if (pool == null) {
      return;
    }
    Buffer body = ctx.body() == null ? null : ctx.body().buffer();
    try {
      if (body != null && body.length() > 0) {
        RequestDecoder.status(body);
      }
    } catch (BadRequest e) {
      HttpErrors.badRequest(ctx, e.getMessage() + " (a " + (pause ? "pause" : "resume")
          + " of the pool takes no body, or {}; a group is paused with PUT …/groups/<group>"
          + " {\"paused\": true})");
      return;
    }
    answer(ctx, pool, pause ? pool.pause(null) : pool.resume(null));
  }

  private void set(RoutingContext ctx) {
    withGroup(ctx, (pool, group) -> {
      GroupSettings change;
      try {
        Buffer body = ctx.body() == null ? null : ctx.body().buffer();
        if (body == null || body.length() == 0) {
          throw new BadRequest("body: is required, an object with any of [concurrency, paused,"
              + " queueCapacity, rateLimit, weight]");
        }
        change = FlowJson.settings(RequestDecoder.object(body), Set.of());
      } catch (BadRequest e) {
        HttpErrors.badRequest(ctx, e.getMessage());
        return;
      }
      answer(ctx, pool, pool.setGroup(group, change));
    });
  }

  private void reset(RoutingContext ctx) {
    withGroup(ctx, (pool, group) -> answer(ctx, pool, pool.setGroup(group, null)));
  }

  private void get(RoutingContext ctx) {
    withGroup(ctx, (pool, group) -> answer(ctx, pool, pool.group(group)));
  }

  private void withGroup(RoutingContext ctx,
      java.util.function.BiConsumer<PoolHandle, String> then) {
    PoolHandle pool = HttpErrors.pool(pools, ctx);
    if (pool == null) {
      return;
    }
    String group;
    try {
      group = FlowJson.group(ctx.pathParam("group"), "group", true);
    } catch (BadRequest e) {
      HttpErrors.badRequest(ctx, e.getMessage());
      return;
    }
    then.accept(pool, group);
  }

  private static void answer(RoutingContext ctx, PoolHandle pool, Future<JsonObject> reply) {
    reply.onSuccess(json -> HttpErrors.json(ctx, 200, json))
        .onFailure(e -> HttpErrors.poolFailure(ctx, pool, e));
  }
}
