package dev.shepherd.runtime.access;

import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** The {@link PoolDirectory} of one Vert.x instance: the pools {@link LocalPools} holds. */
final class LocalDirectory implements PoolDirectory {
  private final Vertx vertx;

  LocalDirectory(Vertx vertx) {
    this.vertx = vertx;
  }

  @Override
  public PoolHandle find(String name) {
    return LocalPools.handle(vertx, name);
  }

  @Override
  public PoolHandle byPrefix(String prefix) {
    for (PoolHandle handle : LocalPools.handles(vertx)) {
      if (handle.addresses().prefix().equals(prefix)) {
        return handle;
      }
    }
    return null;
  }

  @Override
  public List<PoolHandle> pools() {
    List<PoolHandle> pools = new ArrayList<>(LocalPools.handles(vertx));
    pools.sort(Comparator.comparing(PoolHandle::name));
    return pools;
  }
}
