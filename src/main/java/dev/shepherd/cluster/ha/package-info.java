/**
 * Internal, with no compatibility promise: highly available pools on Hazelcast (A1-A3 in
 * docs/rules.md): the leadership of each pool's terms ({@code HazelcastLeadership}) and the
 * replicated store its leader writes ({@code HaStore}, {@code HaEntry}).
 *
 * <p>Uses the core, {@code core.ha} and the runtime's API, {@code time}, {@code payload} and
 * {@code ha}.
 */
package dev.shepherd.cluster.ha;
