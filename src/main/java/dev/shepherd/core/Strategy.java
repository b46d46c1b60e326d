package dev.shepherd.core;

/** Which slots are replaced together when one stops (S3 in docs/rules.md), as in Erlang/OTP. */
public enum Strategy {
  /** Only the stopped slot. */
  ONE_FOR_ONE,
  /** Every live slot. */
  ONE_FOR_ALL,
  /** The stopped slot and every live slot created after it (slot order). */
  REST_FOR_ONE
}
