package dev.shepherd.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Replaying the durable log (A3 in docs/rules.md): records apply in order, an answered job is no
 * longer held, and answers are forgotten oldest first, so a log that forgets any other is corrupt.
 */
class LedgerTest {

  private static DurableRecord.Accepted accepted(String job) {
    return new DurableRecord.Accepted(job, 0, 0, "p", null, "r", 0, 0, null);
  }

  private static DurableRecord.Answered answered(String job, long at) {
    Outcome outcome = new Outcome.Cancelled(job);
    return new DurableRecord.Answered(job, "r", outcome, new RecentOutcome(job, outcome, at, 0));
  }

  @Test
  void A3_a_replayed_log_holds_what_was_accepted_and_not_answered() {
    Ledger ledger = new Ledger(DurableImage.empty(1));
    ledger.applyAll(List.of(accepted("a"), accepted("b"), answered("a", 5)));
    assertThat(ledger.holds("a")).isFalse();
    assertThat(ledger.holds("b")).isTrue();
    assertThat(ledger.jobCount()).isEqualTo(1);
    assertThat(ledger.image(1).recent()).extracting(RecentOutcome::job).containsExactly("a");
  }

  @Test
  void A3_answers_are_forgotten_oldest_first_and_a_log_forgetting_another_is_corrupt() {
    Ledger ledger = new Ledger(DurableImage.empty(1));
    ledger.applyAll(List.of(accepted("a"), accepted("b"), answered("a", 5), answered("b", 6)));
    assertThatThrownBy(() -> ledger.apply(new DurableRecord.Forgotten("b")))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("'a'");
    ledger.apply(new DurableRecord.Forgotten("a"));
    assertThat(ledger.image(1).recent()).extracting(RecentOutcome::job).containsExactly("b");
    ledger.apply(new DurableRecord.Forgotten("b"));
    assertThatThrownBy(() -> ledger.apply(new DurableRecord.Forgotten("b")))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("none");
  }

  @Test
  void T2_a_jobs_own_progress_timeout_stays_with_it_through_every_record_that_moves_it() {
    Ledger ledger = new Ledger(DurableImage.empty(1));
    ledger.applyAll(List.of(
        new DurableRecord.Accepted("a", 0, 0, "p", "k", "r", 0, 0, "w-0", 0, null, null, 5, 40),
        new DurableRecord.Assigned("a", "w-0", 1),
        new DurableRecord.Checkpointed("a", "half", 4),
        new DurableRecord.Requeued("a", 1, null, 0, 1, 0),
        new DurableRecord.Retargeted("a", "w-1"),
        new DurableRecord.Assigned("a", "w-1", 2),
        new DurableRecord.Returned("a", 2, 1)));
    DurableImage.JobImage a = ledger.image(1).jobs().get(0);
    assertThat(a.progressTimeoutMs()).isEqualTo(40);
    assertThat(a.checkpoint()).isEqualTo("half");
    assertThat(a.target()).isEqualTo("w-1");
    assertThat(a.attempts()).isEqualTo(1);
    assertThat(a.worker()).isNull();
  }

  @Test
  void J4_A4_a_job_moved_to_another_due_time_or_reply_address_keeps_everything_else() {
    DurableRecord.Accepted a = new DurableRecord.Accepted("j", 7, 3, "p", "k", "r", 100, 20, "w-1",
        500, null, "g", 2, 60);
    assertThat(a.withDueAt(900)).isEqualTo(new DurableRecord.Accepted("j", 7, 3, "p", "k", "r",
        100, 20, "w-1", 900, null, "g", 2, 60));
    DurableImage.JobImage image = DurableImage.JobImage.of(a).withCheckpoint("cp", 2);
    assertThat(image.withDueAt(900))
        .isEqualTo(DurableImage.JobImage.of(a.withDueAt(900)).withCheckpoint("cp", 2));
    assertThat(image.withReplyTo("r2").replyTo()).isEqualTo("r2");
    assertThat(image.withReplyTo("r2").withReplyTo("r")).isEqualTo(image);
  }
}
