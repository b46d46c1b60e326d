/**
 * Internal, with no compatibility promise (users import {@link dev.shepherd.runtime}): protocol v1
 * on the event bus: a pool's addresses, the decoding and validation of every request body ({@code
 * RequestDecoder}, {@code RawSubmitReader}), the decoded requests, the JSON codecs of outcomes,
 * snapshots, job views, dead letters, retries and events, and the responders that answer a
 * submitter over the bus ({@code Responder} is where a submitter's answers go).
 *
 * <p>Uses the core, the API, {@code payload}, {@code config} and {@code slot} (a result's check).
 */
package dev.shepherd.runtime.wire;
