package dev.shepherd.cluster.hosts;

import dev.shepherd.core.ConfigException;
import dev.shepherd.runtime.config.ConfigReader;
import dev.shepherd.runtime.config.WorkerConfig;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;

/**
 * One {@code hosts} entry of a node's configuration (H1 in docs/rules.md), validated: this node
 * runs slots {@code
 * <id>/w-0 … <id>/w-(n-1)} for {@code pool}, coordinated on another node.
 *
 * @param path where the entry is in the configuration ({@code hosts[0]}), for messages about it
 * @param id this host's name, unique in the cluster; defaults to the machine's host name
 * @param address the pool's address prefix ({@code shepherd.<pool>} unless the pool says otherwise)
 * @param heartbeatMs how often the host tells the pool it is alive
 * @param shareEventLoop whether EVENT_LOOP incarnations run on the host agent's own event loop
 *     (no thread between the host and its jobs) rather than each on a loop Vert.x picks
 */
public record HostConfig(String path, String pool, String id, WorkerConfig worker,
    long heartbeatMs, String address, boolean shareEventLoop) {

  public static final long DEFAULT_HEARTBEAT_MS = 1_000;
  private static final String NAME_PATTERN = "[A-Za-z0-9_.-]{1,64}";

  /** The stable ids of this host's slots, in order. */
  public List<String> slotIds() {
    List<String> ids = new ArrayList<>(worker.instances());
    for (int i = 0; i < worker.instances(); i++) {
      ids.add(id + "/w-" + i);
    }
    return ids;
  }

  /** Where the pool's coordinator sends this host its commands. */
  public String hostAddress() {
    return address + ".host." + id;
  }

  /**
   * Parses one entry; {@code defaultId} (the machine's host name) is the id when the entry names
   * none. A bad field fails with a {@link ConfigException} naming it ({@code hosts[0].id}).
   */
  public static HostConfig parse(JsonObject json, String path, String defaultId) {
    ConfigReader host = new ConfigReader(json, path);
    host.onlyFields("pool", "id", "worker", "heartbeatMs", "address", "shareEventLoop");
    String pool = host.string("pool", null);
    if (pool == null) {
      throw new ConfigException(host.field("pool"), null,
          "is required: the name of the pool these slots serve");
    }
    if (!pool.matches(NAME_PATTERN)) {
      throw new ConfigException(host.field("pool"), pool,
          "must be 1-64 letters, digits, '.', '_' or '-'");
    }
    String id = host.string("id", defaultId);
    if (!id.matches(NAME_PATTERN)) {
      throw new ConfigException(host.field("id"), id, json.getValue("id") == null
          ? "the machine's host name is not a usable id; set 1-64 letters, digits, '.', '_' or '-'"
          : "must be 1-64 letters, digits, '.', '_' or '-'");
    }
    WorkerConfig worker = WorkerConfig.parse(host.object("worker"), 1);
    long heartbeatMs = host.longValue("heartbeatMs", DEFAULT_HEARTBEAT_MS, 50, 60_000);
    String address = host.string("address", "shepherd." + pool);
    boolean shareEventLoop = host.bool("shareEventLoop", true);
    return new HostConfig(path, pool, id, worker, heartbeatMs, address, shareEventLoop);
  }

  /** The machine's host name, as {@code hosts[].id} defaults to it ({@code HOSTNAME} first). */
  public static String machineName() {
    String env = System.getenv("HOSTNAME");
    if (env != null && !env.isBlank()) {
      return env.trim();
    }
    try {
      return java.net.InetAddress.getLocalHost().getHostName();
    } catch (java.io.IOException e) {
      return "localhost";
    }
  }
}
