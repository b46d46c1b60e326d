package dev.shepherd.core;

/**
 * One attempt of a job that did not succeed, as the dead-letter set keeps it (J5 in docs/rules.md):
 * its number (from 1), the slot and incarnation that ran it, when it started and ended (on the
 * events' clock; epoch milliseconds as the runtime hands them out), how it ended ({@code FAILED},
 * or the exit of the stop that interrupted it: {@code CRASH}, {@code TIMEOUT}, {@code NORMAL},
 * {@code SIBLING_RESTART}, {@code NODE_LOST}) and the detail (the error's message, or the stop's
 * cause).
 */
public record Attempt(int attempt, String worker, int incarnation, long startedAt, long endedAt,
    String ended, String detail) {}
