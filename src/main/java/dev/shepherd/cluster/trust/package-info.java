/**
 * Internal, with no compatibility promise: the cluster's trust boundary (docs/security.md): the
 * event bus's TLS with mutual authentication ({@code EventBusTls}) and the cluster key ({@code
 * ClusterKeys}) that seals highly available pools' records and authenticates worker hosts.
 *
 * <p>Uses the core's {@code ConfigException} and Vert.x alone; {@code cluster.ha}, {@code
 * cluster.hosts}, {@code cluster.directory} and the launcher use it.
 */
package dev.shepherd.cluster.trust;
