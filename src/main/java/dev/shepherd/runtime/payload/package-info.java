/**
 * Internal, with no compatibility promise (users import {@link dev.shepherd.runtime}): what a pool
 * carries and how much it weighs: payloads kept as raw JSON bytes ({@code RawJson}), the bounded
 * walk that checks a decoded value and estimates its heap ({@code JsonCheck}), JSON conversion of
 * payloads and results, heap costs and the JVM-wide memory budget check, the {@code BadRequest}
 * refusal, and text from outside made safe for logs ({@code LogText}).
 *
 * <p>Uses the core and the API's types only.
 */
package dev.shepherd.runtime.payload;
