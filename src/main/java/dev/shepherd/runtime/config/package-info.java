/**
 * Internal, with no compatibility promise (users import {@link dev.shepherd.runtime}): the readers
 * of a pool's configuration: typed field reads that name the field they refuse ({@code
 * ConfigReader}), the {@code worker}, job settings and {@code supervision} parts, and the handler
 * factory of a worker named by its class. {@link dev.shepherd.runtime.PoolConfig} is what they
 * build.
 *
 * <p>Uses the core and the API's types only.
 */
package dev.shepherd.runtime.config;
