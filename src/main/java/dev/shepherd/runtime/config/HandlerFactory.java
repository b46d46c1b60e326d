package dev.shepherd.runtime.config;

import dev.shepherd.runtime.JobHandler;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.util.function.Supplier;

/**
 * The handler factory of a worker named by its class ({@code worker.class}): each call makes a
 * new instance through the public no-argument constructor, which the configuration checked. What
 * the constructor throws is thrown as it is (an unchecked one) or as the cause of an {@link
 * IllegalStateException} (a checked one), so a failed creation names it rather than a
 * reflection wrapper.
 */
public final class HandlerFactory implements Supplier<JobHandler> {
  private final Constructor<? extends JobHandler> constructor;

  private HandlerFactory(Constructor<? extends JobHandler> constructor) {
    this.constructor = constructor;
  }

  /** A factory of {@code type}, which has a public no-argument constructor. */
  public static HandlerFactory of(Class<? extends JobHandler> type) {
    try {
      return new HandlerFactory(type.getConstructor());
    } catch (NoSuchMethodException e) {
      throw new IllegalArgumentException(type.getName() + " has no public no-argument"
          + " constructor", e);
    }
  }

  @Override
  public JobHandler get() {
    try {
      return constructor.newInstance();
    } catch (InvocationTargetException e) {
      Throwable thrown = e.getCause();
      if (thrown instanceof RuntimeException unchecked) {
        throw unchecked;
      } else if (thrown instanceof Error error) {
        throw error;
      }
      throw new IllegalStateException("new " + constructor.getDeclaringClass().getName()
          + "() threw " + thrown, thrown);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("cannot create a " + constructor.getDeclaringClass()
          .getName() + ": " + e, e);
    }
  }

  @Override
  public String toString() {
    return "new " + constructor.getDeclaringClass().getName() + "()";
  }
}
