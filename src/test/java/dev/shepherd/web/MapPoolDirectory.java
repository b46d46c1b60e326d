package dev.shepherd.web;

import dev.shepherd.runtime.access.PoolDirectory;
import dev.shepherd.runtime.access.PoolHandle;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** A directory of the pools a test put in it, by name: stand-ins for pools of other nodes. */
final class MapPoolDirectory implements PoolDirectory {
  private final Map<String, PoolHandle> pools = new TreeMap<>();

  void put(PoolHandle pool) {
    pools.put(pool.name(), pool);
  }

  @Override
  public PoolHandle find(String name) {
    return pools.get(name);
  }

  @Override
  public PoolHandle byPrefix(String prefix) {
    return pools.values().stream().filter(p -> p.addresses().prefix().equals(prefix))
        .findFirst().orElse(null);
  }

  @Override
  public List<PoolHandle> pools() {
    return List.copyOf(pools.values());
  }
}
